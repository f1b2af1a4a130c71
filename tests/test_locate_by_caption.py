"""The build's second search for figures the extractor did not pair: by the XML caption's own text
(issue 15: >= 99.5% of printed figures located). Real articles of pmc_dev_corpus; the expected
boxes come from the PDFs' own objects as pdfplumber lists them, not from medfig."""

from __future__ import annotations

import pdfplumber
import pytest

from medfig.jats.parse import parse_jats
from medfig.pdf.locate import NOT_PRINTED, locate, unlocated_reason


def _article(data_dir, key):
    folder = data_dir / "pmc_dev_corpus" / key
    pdf = next(folder.glob("*.pdf"))
    xml = next(iter(sorted(folder.glob("*.xml")) + sorted(folder.glob("*.nxml"))))
    art = parse_jats(xml.read_bytes(), key=key)
    return pdf, art


def _contains(outer, inner, slack=1.0) -> bool:
    return (outer[0] <= inner[0] + slack and outer[1] <= inner[1] + slack
            and outer[2] >= inner[2] - slack and outer[3] >= inner[3] - slack)


def _locate(pdf, art):
    return locate(pdf.read_bytes(), {f.figure_id: f.label for f in art.figures}, pdf.name,
                  captions={f.figure_id: f.caption for f in art.figures})


def test_caption_set_beside_the_figure_takes_the_art_beside_it(data_dir):
    # Springer's 3 Biotech sets small figures' captions in a narrow left column; the PDF text
    # runs the caption's words together ("Fig.1 aISSRprofile17"); the extractor missed it until its
    # caption start (bold label, then a bold panel letter "a") was read, now it pairs it itself
    pdf, art = _article(data_dir, "springer_PMC4569613")
    located, problem = _locate(pdf, art)
    assert problem is None
    fig1 = located["Fig1"]
    assert fig1.page == 3 and fig1.source in ("layout", "caption-band")
    with pdfplumber.open(pdf) as plumber:
        page = plumber.pages[3]
        gel = max(page.images, key=lambda im: (im["x1"] - im["x0"]) * (im["bottom"] - im["top"]))
        gel_box = (gel["x0"], gel["top"], gel["x1"], gel["bottom"])
        head = [w for w in page.extract_words() if w["bottom"] < gel["top"]]  # the running head above the art
    assert _contains(fig1.box_pt, gel_box)
    assert fig1.box_pt[0] > fig1.caption_box_pt[2]  # the caption column is not in the figure
    assert all(w["bottom"] <= fig1.box_pt[1] for w in head)  # nor the running head
    assert fig1.box_pt[3] < page.height / 2  # nor Table 2 below it


def test_vector_chart_without_a_paired_caption_is_found_by_its_caption_text(data_dir):
    pdf, art = _article(data_dir, "dove_PMC5965372")
    located, _ = _locate(pdf, art)
    assert set(located) == {f.figure_id for f in art.figures}  # all six printed figures
    fig1 = located["f1-dddt-12-1303"]
    assert fig1.page == 2
    with pdfplumber.open(pdf) as plumber:
        page = plumber.pages[2]
        caption_top = min(w["top"] for w in page.extract_words() if w["text"] == "Figure" and w["top"] > 600)
        chart = [o for o in page.rects + page.curves + page.lines if o["top"] > 500 and o["x0"] > page.width / 2]
        body = [w for w in page.extract_words() if w["x0"] > page.width / 2 and 480 < w["bottom"] < 512]
    assert chart and body
    for obj in chart:
        assert _contains(fig1.box_pt, (obj["x0"], obj["top"], obj["x1"], obj["bottom"]))
    assert fig1.box_pt[3] <= caption_top  # the caption below is not in the figure
    assert all(w["bottom"] <= fig1.box_pt[1] for w in body)  # nor the body text above it


def test_figures_whose_captions_are_not_printed_are_told_apart(data_dir):
    # PLOS Biology's two-page synopsis prints Figure 1 only; the XML lists six figures
    pdf, art = _article(data_dir, "plos_pbio.0020294")
    located, _ = _locate(pdf, art)
    assert set(located) == {art.figures[0].figure_id}
    for figure in art.figures[1:]:
        assert unlocated_reason(pdf.read_bytes(), figure.label, figure.caption) == NOT_PRINTED
    printed = art.figures[0]
    assert unlocated_reason(pdf.read_bytes(), printed.label, printed.caption) != NOT_PRINTED


@pytest.mark.parametrize("key", ["elsevier_PMC7527697"])
def test_unnumbered_figure_label_is_located_by_caption_text(data_dir, key):
    # The Lancet's "Figure: Trial profile": a label without a number never matches by label
    pdf, art = _article(data_dir, key)
    located, _ = _locate(pdf, art)
    (figure,) = art.figures
    assert figure.figure_id in located
    with pdfplumber.open(pdf) as plumber:
        page = plumber.pages[located[figure.figure_id].page]
        flow_chart = [o for o in page.rects if o["top"] > 100 and o["bottom"] < 560 and o["x1"] - o["x0"] > 40]
    assert len(flow_chart) >= 10
    for box in flow_chart:
        assert _contains(located[figure.figure_id].box_pt, (box["x0"], box["top"], box["x1"], box["bottom"]))
