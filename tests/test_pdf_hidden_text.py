"""White text on the white page is not printed text: it is read only where it lies over
something drawn (a dark photo, a coloured banner). Old BMC PDFs repeat each figure's title in
white over its "Figure 1" heading; Springer hides "Vol.:(0123456789)" on the first page."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from medfig.pdf.captions import find_captions
from medfig.pdf.page import read_page

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SPRINGER = DATA / "pmc_dev_corpus" / "springer_PMC7309422" / "fulltext.pdf"


def _words(pdf: bytes | Path, index: int = 0) -> list[str]:
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        page = doc[index]
        data = read_page(page, index)
        page.close()
        return [w.text for w in data.words]
    finally:
        doc.close()


def _white_text_pdf() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.setFont("Helvetica", 12)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(72, 700, "Figure 1 Visible heading")
    c.rect(72, 400, 200, 100, stroke=0, fill=1)  # a black panel
    c.setFillColorRGB(1, 1, 1)
    c.drawString(80, 450, "LABEL")  # white on the black panel: printed
    c.drawString(72, 690, "hiddentitle")  # white on the white page: not printed
    c.showPage()
    c.save()
    return buf.getvalue()


def test_white_text_counts_only_over_something_drawn():
    words = _words(_white_text_pdf())
    assert "LABEL" in words
    assert "hiddentitle" not in words
    assert words[:4] == ["Figure", "1", "Visible", "heading"]


def test_springer_hidden_volume_string_is_not_read():
    words = _words(SPRINGER)
    assert not any("0123456789" in w for w in words)
    assert len(words) > 200  # the page's printed text is all still there


def _layered_pdf(first: list[tuple[float, float, str]], second: list[tuple[float, float, str]]) -> bytes:
    """``first`` drawn in a form XObject, ``second`` on the page, all in Times-Roman 9 pt; (x, y, text)
    with y from the page's bottom. PDFium merges twins itself only within one content stream."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.beginForm("layer")
    c.setFont("Times-Roman", 9)
    for x, y, text in first:
        c.drawString(x, y, text)
    c.endForm()
    c.doForm("layer")
    c.setFont("Times-Roman", 9)
    for x, y, text in second:
        c.drawString(x, y, text)
    c.showPage()
    c.save()
    return buf.getvalue()


def _twice_drawn_pdf() -> bytes:
    # a second drawing about a point off (MDPI draws its text twice, in two metric-compatible fonts)
    line = "Figure 2. Time from onset to admission, the the same scale."
    return _layered_pdf([(98, 400, line)], [(98.4, 398.8, line)])


def test_text_drawn_twice_is_read_once():
    words = _words(_twice_drawn_pdf())
    assert words[:4] == ["Figure", "2.", "Time", "from"]
    assert words.count("Figure") == 1
    assert words.count("the") == 2  # a word repeated in the text, side by side, stays
    doc = pdfium.PdfDocument(_twice_drawn_pdf())
    try:
        page = read_page(doc[0], 0)
    finally:
        doc.close()
    assert [c.name for c in find_captions(page)] == ["Figure 2"]


def test_a_line_printed_over_a_copy_of_itself_is_read_once():
    daily = "Figure 1. Daily admissions in the hospital (top left)."
    pdf = _layered_pdf([(98, 400, daily), (98, 380, "* P < 0.05 compared with the normal rats.")],
                       [(96.3, 395.2, daily),  # several points off
                        # a different line that overlaps the one above it is not a copy
                        (98, 373, "** P < 0.01 compared with the normal rats.")])
    words = _words(pdf)
    assert words.count("Daily") == 1
    assert words.count("compared") == 2


def test_text_drawn_again_a_third_of_an_em_off_is_read_once():
    # MDPI: the second drawing sits about 3 pt right and 1.4 pt up, too far for the glyph test
    line = "Genome arrangement of hepatitis E virus and steps of viral genome replication."
    words = _words(_layered_pdf([(148.7, 400, line)], [(145.7, 401.4, line)]))
    assert words == line.split()


def _embedded_page_pdf() -> bytes:
    """A page drawn into the page as a form XObject at half size, its text clipped to its picture
    (MDPI's schemes bring their own caption along this way, clipped away)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.beginForm("embedded")
    c.saveState()
    clip = c.beginPath()
    clip.rect(100, 300, 300, 300)  # form space; on the page: x 350-500, y 150-300
    c.clipPath(clip, stroke=0, fill=0)
    c.setFont("Times-Roman", 9)
    c.drawString(150, 400, "insidepicture")  # page (375, 200): inside the clip, printed
    c.drawString(150, 200, "clippedcaption")  # page (375, 100): outside it, never printed
    c.restoreState()
    c.endForm()
    c.saveState()
    c.transform(0.5, 0, 0, 0.5, 300, 0)
    c.doForm("embedded")
    c.restoreState()
    c.setFont("Times-Roman", 9)
    c.drawString(72, 700, "Scheme 1. Printed caption")
    c.showPage()
    c.save()
    return buf.getvalue()


def test_text_its_clip_path_hides_is_not_read():
    words = _words(_embedded_page_pdf())
    # the clip is in the form's space: read in page space it would hide the printed label too
    assert "insidepicture" in words
    assert "clippedcaption" not in words
    assert words[-4:] == ["Scheme", "1.", "Printed", "caption"]


def test_dove_clipped_metadata_block_is_not_read():
    # Dove PDFs carry "Journal name: ... Running head verso: ..." clipped off the first page
    words = _words(DATA / "pmc_dev_corpus" / "dove_PMC4708241" / "fulltext.pdf")
    assert "Designation:" not in words and "verso:" not in words
    assert words[:5] == ["©", "2016", "Ali", "et", "al."] and len(words) > 600  # the printed text all there


def _clipped_map_pdf() -> bytes:
    """A vector 'map' whose coastline runs far past the frame that clips it (MDPI's Figure 1 of
    PMC7598168: the outlines spanned the whole page), and a path wholly outside the clip."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)  # 612 x 792 pt
    c.saveState()
    frame = c.beginPath()
    frame.rect(100, 200, 300, 200)  # visible: x 100-400, y 200-400 (page space, y up)
    c.clipPath(frame, stroke=0, fill=0)
    coast = c.beginPath()
    coast.moveTo(20, 100)
    coast.lineTo(300, 300)
    coast.lineTo(590, 700)
    c.drawPath(coast, stroke=1, fill=0)
    c.rect(450, 600, 50, 50, stroke=1, fill=1)  # all of it clipped away
    c.restoreState()
    c.showPage()
    c.save()
    return buf.getvalue()


def test_drawn_objects_are_cut_to_their_clip_path():
    doc = pdfium.PdfDocument(_clipped_map_pdf())
    try:
        page = doc[0]
        graphics = read_page(page, 0).graphics
        page.close()
    finally:
        doc.close()
    boxes = [tuple(round(v) for v in g.box) for g in graphics]
    # top-left origin: y 200-400 up becomes 392-592 down; the clipped-away square is gone
    assert boxes == [(100, 392, 400, 592)]
