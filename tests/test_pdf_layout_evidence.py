"""Figure extraction from the page's and document's own evidence (issue 15): unnumbered and
non-English caption labels, "(continued)" captions, and page furniture (header bars, page-edge
stripes) that must never become part of a figure."""

from __future__ import annotations

import pdfplumber

from medfig.pdf.captions import dedupe_captions
from medfig.pdf.extract import extract_pdf
from medfig.pdf.furniture import drop_caption_containers, drop_page_furniture, drop_running_text
from medfig.pdf.labels import parse_label
from medfig.pdf.locate import label_key
from medfig.pdf.types import Graphic, Line, PageData, PdfCaption, Word


def test_unnumbered_and_non_english_labels():
    for text, name, rest in [("FIGURE. Percentage of persons", "Figure", "Percentage of persons"),
                             ("Figure: Trial profile", "Figure", "Trial profile"),
                             ("Figura 2. Mapa do Brasil", "Figure 2", "Mapa do Brasil"),
                             ("Tabela 1 - Dados gerais", "Table 1", "Dados gerais"),
                             ("Tabla 3. Resultados", "Table 3", "Resultados"),
                             ("Figure-1: Map of the study area", "Figure 1", "Map of the study area")]:
        label = parse_label(text)
        assert label is not None and (label.name, label.rest) == (name, rest), text
    for mention in ("Figure shows the trend", "Figuras 2 e 3 mostram", "Figures 2 and 3", "FIGURE"):
        assert parse_label(mention) is None, mention
    # the XML's unnumbered label and the printed one find each other
    assert label_key("FIGURE") == label_key("Figure:") == ("figure", "Figure")


def _caption(page, text, score):
    return PdfCaption(name="Figure 1", fig_type="Figure", kind="figure", number="1", label="Fig. 1.", page=page,
                      box_pt=(50, 600, 500, 620), text=text, score=score)


def test_a_continued_caption_never_displaces_the_first_one():
    first = _caption(2, "Fig. 1. Gene expression levels in fibroblast cells.", 3.0)
    continued = [_caption(3, "Fig. 1. (continued)", 5.0), _caption(4, "Fig. 1. (continued)", 5.0)]
    assert dedupe_captions([first, *continued]) == [first]
    assert dedupe_captions([*continued, first]) == [first]


def _page(index, graphics):
    return PageData(index=index, width=595.0, height=842.0, graphics=list(graphics))


def test_objects_drawn_at_one_place_on_most_pages_are_furniture():
    header_bar = Graphic("path", (42.0, 20.0, 553.0, 38.0))
    edge_stripe = Graphic("path", (0.0, 0.0, 12.0, 842.0))
    logo = Graphic("image", (500.0, 800.0, 540.0, 830.0))
    scan = Graphic("image", (0.0, 0.0, 595.0, 842.0))
    grid_photo = Graphic("image", (124.0, 74.0, 294.0, 244.0))  # every figure a 2x2 grid at the same place
    pages = [_page(i, [header_bar, edge_stripe, logo, scan, grid_photo,
                       Graphic("image", (60.0, 100.0 + i, 300.0, 400.0 + i))]) for i in range(5)]
    assert drop_page_furniture(pages) == 15
    for page in pages:
        assert [g.box for g in page.graphics] == [scan.box, grid_photo.box,
                                                  (60.0, 100.0 + page.index, 300.0, 400.0 + page.index)]
    # two pages are not evidence of a template
    short = [_page(i, [header_bar]) for i in range(2)]
    assert drop_page_furniture(short) == 0 and all(p.graphics for p in short)


def _line(text, x0, top, size=8.0):
    words, x = [], x0
    for part in text.split():
        words.append(Word(part, (x, top, x + 5.0 * len(part), top + size), size, "Times"))
        x += 5.0 * len(part) + 3.0
    return Line(words=words, box=(x0, top, x, top + size), size=size)


def test_running_heads_and_feet_leave_the_page_text():
    pages = []
    topics = ["samples", "controls", "animals", "methods", "results"]
    for i in range(5):
        lines = [_line(f"Veterinary World, EISSN: 2231-0916 {1350 + i}", 52.0, 790.0),  # foot, page number changing
                 _line("Available at www.veterinaryworld.org/Vol.9/December-2016/3.pdf", 150.0, 45.0),  # head
                 _line("2.5", 72.0, 75.0),  # a tick label of charts drawn alike: no letter, stays
                 _line(f"The prose of this page about the {topics[i]} runs on for more than forty characters.", 52.0, 300.0),
                 _line("Unit (mg)", 52.0, 400.0),  # recurring, but between prose lines: a figure's own text
                 _line(f"More prose on the {topics[i]} below the figure, again a long line of body text.", 52.0, 500.0)]
        if i == 0:
            lines.append(_line("Control", 300.0, 80.0))  # a legend entry above the prose, on one page only
        pages.append(PageData(index=i, width=595.0, height=842.0, words=[w for line in lines for w in line.words],
                              lines=lines))
    assert drop_running_text(pages) == 10
    for page in pages:
        kept = [line.text for line in page.lines]
        assert kept[0] == "2.5" and "Unit (mg)" in kept and not any("Veterinary" in t or "Available" in t for t in kept)
        assert {w.text for w in page.words} == {w.text for line in page.lines for w in line.words}
    assert "Control" in [line.text for line in pages[0].lines]
    short = [PageData(index=i, width=595.0, height=842.0, lines=[_line("Journal head", 52.0, 40.0)]) for i in range(2)]
    assert drop_running_text(short) == 0


def test_header_bar_is_not_taken_into_a_figure(data_dir):
    # BMJ Global Health draws a coloured bar across the top of every page; the detector's region
    # for a right-column figure was snapped to it and spanned both columns (IoU 0.44)
    pdf = next((data_dir / "pmc_dev_corpus" / "bmj_PMC7412619").glob("*.pdf"))
    figures = {f.name: f for f in extract_pdf(pdf.read_bytes(), name=pdf.name).figures}
    with pdfplumber.open(pdf) as plumber:
        page = plumber.pages[3]
        chart = [o for o in page.images if o["x0"] > page.width / 2]  # the two plots, one raster
    fig2 = figures["Figure 2"]
    assert fig2.page == 3 and chart
    assert fig2.box_pt[0] > page.width / 2 - 10  # right column only
    assert fig2.box_pt[1] > 40  # below the header bar
    assert all(fig2.box_pt[0] <= o["x0"] + 1 and o["x1"] <= fig2.box_pt[2] + 1 for o in chart)


def test_a_frame_round_figure_and_caption_is_not_the_figure_edge():
    from medfig.pdf.regions import _enclosing_frame

    art = (100.0, 100.0, 400.0, 300.0)

    def frame(x0, y0, x1, y1):  # four hairlines, as eLife and BMC draw them
        return [Graphic("path", (x0, y0, x1, y0 + 0.5), thin=True), Graphic("path", (x0, y1 - 0.5, x1, y1), thin=True),
                Graphic("path", (x0, y0, x0 + 0.5, y1), thin=True), Graphic("path", (x1 - 0.5, y0, x1, y1), thin=True)]

    caption = PdfCaption(name="Figure 1", fig_type="Figure", kind="figure", number="1", label="Fig. 1", page=0,
                         box_pt=(100.0, 303.0, 400.0, 318.0), text="Fig. 1 A caption.", score=3.0)
    art_only = _page(0, frame(90.0, 90.0, 410.0, 305.0))
    assert _enclosing_frame(art_only, art, [caption]) == (90.0, 90.0, 410.0, 305.0)
    around_both = _page(0, frame(90.0, 90.0, 410.0, 322.0))  # the frame also holds the caption
    assert _enclosing_frame(around_both, art, []) == (90.0, 90.0, 410.0, 322.0)  # a frame, geometrically
    assert _enclosing_frame(around_both, art, [caption]) is None


def test_a_drawn_box_round_a_caption_is_a_container_not_art():
    caption = PdfCaption(name="Figure 1", fig_type="Figure", kind="figure", number="1", label="Fig. 1", page=0,
                         box_pt=(60.0, 420.0, 530.0, 450.0), text="Fig. 1 A caption.", score=3.0)
    rounded_frame = Graphic("path", (50.0, 90.0, 540.0, 460.0))  # round figure and caption together
    bar = Graphic("path", (100.0, 200.0, 120.0, 400.0))  # a bar of the chart
    photo = Graphic("image", (40.0, 80.0, 550.0, 470.0))  # a caption printed over a picture keeps the picture
    page = _page(0, [rounded_frame, bar, photo])
    assert drop_caption_containers([page], [caption]) == 1
    assert page.graphics == [bar, photo]
    other_page = _page(1, [rounded_frame])
    assert drop_caption_containers([other_page], [caption]) == 0  # the caption is on page 0


def test_a_frame_drawn_piece_by_piece_round_a_caption_is_a_container():
    # BMC draws its rounded frame as four rules and four corner arcs: no single path encloses the
    # caption (boxes as read from bmc_PMC5248495 page 5, rounded)
    caption = PdfCaption(name="Figure 1", fig_type="Figure", kind="figure", number="1", label="Fig. 1", page=0,
                         box_pt=(63.0, 287.0, 529.0, 315.0), text="Fig. 1 The minimal inhibitory ...", score=3.0)
    frame = [Graphic("path", (60.7, 88.6, 534.6, 88.8), thin=True), Graphic("path", (538.4, 92.6, 538.6, 315.3), thin=True),
             Graphic("path", (60.7, 319.1, 534.6, 319.4), thin=True), Graphic("path", (56.7, 92.6, 56.9, 315.3), thin=True),
             Graphic("path", (534.6, 88.6, 538.6, 92.6)), Graphic("path", (534.6, 315.3, 538.6, 319.4)),
             Graphic("path", (56.7, 315.3, 60.7, 319.4)), Graphic("path", (56.7, 88.6, 60.7, 92.6))]
    axes = [Graphic("path", (193.5, 102.9, 193.5, 223.1), thin=True), Graphic("path", (193.5, 223.1, 439.3, 223.1), thin=True)]
    bar = Graphic("path", (200.0, 150.0, 210.0, 223.0))
    page = _page(0, [*frame, *axes, bar])
    page.body_size = 9.0
    assert drop_caption_containers([page], [caption]) == 8
    assert page.graphics == [*axes, bar]
    # the same rules with the caption outside them (under the box): a drawn box, not a container
    below = PdfCaption(name="Figure 1", fig_type="Figure", kind="figure", number="1", label="Fig. 1", page=0,
                       box_pt=(63.0, 330.0, 529.0, 350.0), text="Fig. 1 A caption under the box.", score=3.0)
    page = _page(0, [*frame, *axes, bar])
    page.body_size = 9.0
    assert drop_caption_containers([page], [below]) == 0
