"""PDF figure extraction on real biomedical PDFs, the demo corpus' exact ground truth, and bad input.

Real-PDF expectations come from benchmarks/gold/pdf_figures/gold.json: boxes induced from
the JATS captions independently of medfig.pdf and checked by eye (see its README).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medfig.cli import main
from medfig.evaluate.figure_protocols import score_boxes
from medfig.geometry import iou
from medfig.pdf import PdfExtractionError
from medfig.pdf.extract import extract_figures, extract_pdf

GOLD = json.loads((Path(__file__).resolve().parents[1] / "benchmarks" / "gold" / "pdf_figures" / "gold.json").read_text())


def _gold(key: str) -> dict:
    return next(p for p in GOLD["papers"] if p["key"] == key)


# gold boxes per paper: the XML's 8 figures + 2 tables, its 9 figures, and the preprint's 4 tables
@pytest.mark.parametrize("key,n_gold", [("PMC4691483", 10), ("PMC4738934", 9), ("medrxiv-24301711", 4)])
def test_real_pdfs_match_checked_gold(data_dir, key, n_gold):
    """Vector charts + tables (Hindawi), a figure drawn as a grid of image tiles, and a
    double-spaced preprint with margin line numbers and tables."""
    paper = _gold(key)
    assert len(paper["figures"]) == n_gold
    pdf = data_dir / paper["pdf"]
    if key.startswith("medrxiv"):  # 35 pages: keep the test fast, score its table pages only
        result = extract_pdf(pdf, max_pages=33)
    else:
        result = extract_pdf(pdf)
    pred = [dict(page=f.page, box=list(f.box_pt), name=f.name, fig_type=f.fig_type) for f in result.figures]
    score = score_boxes(pred, paper["figures"], set(paper["pages"]), 0.8)
    assert score.n_gold == len(paper["figures"])
    assert score.correct == score.n_gold == score.n_pred, (key, pred)
    assert score.named_correct == score.correct  # every box paired with its own caption
    for f in result.figures:
        assert f.caption.startswith(f.label.split()[0])
        assert f.caption_box_pt[1] >= 0 and f.page < result.n_pages


def test_nothing_lost_silently(data_dir):
    """Every caption found ends as a figure or as a regionless entry with a reason."""
    pdf = data_dir / "jats_pdf_figure_packages/medrxiv-24301711_meca/content/24301711.pdf"
    result = extract_pdf(pdf, cross_page=False)
    names = {f.name for f in result.figures} | {f.name for f in result.regionless}
    assert {"Table 1", "Table 2", "Table 3", "Table 4", "Figure 1"} <= names
    # the figure legend page holds the caption, the figure itself is on the last page: without
    # cross-page pairing the caption stays regionless, with its reason
    legend = next(f for f in result.regionless if f.name == "Figure 1")
    assert legend.box_pt is None and legend.regionless_reason
    # by default it is paired with the figure on the next page
    paired = next(f for f in extract_pdf(pdf).figures if f.name == "Figure 1")
    assert paired.page == 34 and paired.source.endswith("+caption-on-page-33")


def test_cheap_mode_finds_raster_figures_without_detector(data_dir):
    paper = _gold("PMC4706923")
    figures = extract_figures(data_dir / paper["pdf"], use_layout=False)
    gold = [g for g in paper["figures"] if g["fig_type"] == "Figure"]
    found = [g["name"] for g in gold if any(f.name == g["name"] and iou(f.box_pt, g["box"]) >= 0.8 for f in figures)]
    # cheap mode joins panels closer than 10 pt only: Figure 3's lower panel row sits farther away
    assert len(gold) == 5 and len(found) >= 4, found
    assert not any(f.fig_type == "Table" for f in figures)


def test_demo_corpus_exact_ground_truth(tmp_path):
    from medfig.demo import write_demo_corpus

    write_demo_corpus(tmp_path, n=3, seed=0)
    fig_correct = fig_total = all_correct = all_total = 0
    for folder in sorted(p for p in tmp_path.iterdir() if p.is_dir()):
        gt = json.loads((folder / "ground_truth.json").read_text())
        gold = [dict(page=f["page"], box=f["box"], fig_type="Figure") for f in gt["figures"]]
        gold += [dict(page=t["page"], box=t["box"], fig_type="Table") for t in gt["tables"]]
        result = extract_pdf(folder / gt["pdf_file"])
        pred = [dict(page=f.page, box=list(f.box_pt), fig_type=f.fig_type) for f in result.figures]
        pages = set(range(result.n_pages))
        s_all = score_boxes(pred, gold, pages, 0.8)
        s_fig = score_boxes(pred, gold, pages, 0.8, fig_type="Figure")
        fig_correct += s_fig.correct
        fig_total += s_fig.n_gold
        all_correct += s_all.correct
        all_total += s_all.n_gold
        # the caption text is the XML caption after the printed label
        for f in result.figures:
            if f.fig_type == "Figure":
                truth = next(x for x in gt["figures"] if x["label_pdf"].rstrip(".:") .replace("Fig.", "Figure") == f.name)
                assert truth["caption"][:40] in f.caption
    assert fig_total == 13 and fig_correct == fig_total
    assert all_correct >= all_total - 1  # one two-column table of the A4 layout is still missed (see docs)


def test_cli_formats_crops_and_bad_files(data_dir, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.pdf").write_bytes((data_dir / "pmc_hindawi_xml_pdf/PMC4735894/fulltext.pdf").read_bytes())
    (src / "truncated.pdf").write_bytes((data_dir / "pmc_hindawi_xml_pdf/PMC4657150/fulltext.pdf").read_bytes()[:20000])
    (src / "notes.pdf").write_bytes(b"this is not a PDF")
    out = tmp_path / "out"
    rc = main(["extract", str(src), "-o", str(out), "--format", "pdffigures2", "-q"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "truncated.pdf: damaged or truncated PDF" in err
    assert "notes.pdf: not a PDF" in err
    figures = json.loads((out / "good.json").read_text())
    assert [f["name"] for f in figures] == ["1", "2", "3"]
    for f in figures:
        assert set(f) >= {"name", "figType", "page", "caption", "captionBoundary", "regionBoundary", "renderDpi"}
        rb = f["regionBoundary"]
        assert rb["x1"] < rb["x2"] and rb["y1"] < rb["y2"]
        assert (out / f["renderURL"]).stat().st_size > 1000
    # medfig schema + --native: a raster crop keeps (about) the embedded image's pixel count
    rc = main(["extract", str(src / "good.pdf"), "-o", str(tmp_path / "native"), "--native", "-q"])
    doc = json.loads((tmp_path / "native" / "good.json").read_text())
    assert rc == 0 and doc["schema"] == "medfig.pdf_figures/1"
    assert [f["name"] for f in doc["figures"]] == ["Figure 1", "Figure 2", "Figure 3"]
    assert all(f["render_dpi"] > 150 for f in doc["figures"])


def test_library_errors_name_the_file(tmp_path):
    bad = tmp_path / "empty.pdf"
    bad.write_bytes(b"")
    with pytest.raises(PdfExtractionError, match="empty.pdf: empty file"):
        extract_pdf(bad)
    with pytest.raises(PdfExtractionError, match="<bytes>: not a PDF"):
        extract_pdf(b"GIF89a....")


def test_time_limit_cuts_a_long_pdf_with_a_warning(data_dir):
    pdf = data_dir / "jats_pdf_figure_packages/medrxiv-24301711_meca/content/24301711.pdf"
    result = extract_pdf(pdf, use_layout=False, time_limit_s=0.0)
    assert result.n_pages == 35 and len(result.page_sizes_pt) == 0
    assert "time limit" in result.warnings[0] and "24301711.pdf" in result.warnings[0]
