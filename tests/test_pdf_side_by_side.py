"""Two figures set side by side, each over its own caption, taken as one region: the region is
split at the empty band between them. One caption under two pictures never splits them.
Synthetic pages (reportlab) with exact boxes."""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from medfig.geometry import PointBox
from medfig.pdf.captions import find_captions
from medfig.pdf.page import read_page
from medfig.pdf.regions import Region
from medfig.pdf.side_by_side import split_side_by_side

PAGE_H = letter[1]


def _photo(seed: int) -> ImageReader:
    rng = np.random.default_rng(seed)
    return ImageReader(Image.fromarray(rng.integers(0, 255, (60, 40, 3), dtype=np.uint8)))


def _page(captions: list[tuple[float, float, str]]) -> bytes:
    """Two pictures, x 54-294 and 312-552 pt, top 100 pt, bottoms 400 and 350 pt (top-left
    origin); ``captions``: (x, top, text) in the same frame."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.drawImage(_photo(1), 54, PAGE_H - 400, width=240, height=300)
    c.drawImage(_photo(2), 312, PAGE_H - 350, width=240, height=250)
    c.setFont("Helvetica", 9)
    for x, top, text in captions:
        c.drawString(x, PAGE_H - top - 9, text)
    c.setFont("Helvetica", 10)
    for i in range(30):  # body text, so the page has a body size
        c.drawString(54, PAGE_H - 500 - 12 * i, "Body text of the article set in the page's own column width here.")
    c.showPage()
    c.save()
    return buf.getvalue()


def _split(pdf: bytes) -> list[tuple[float, ...]]:
    doc = pdfium.PdfDocument(pdf)
    page = read_page(doc[0], 0)
    doc.close()
    both = Region(box=PointBox((54.0, 100.0, 552.0, 400.0)), kind="figure", source="layout")
    return [tuple(round(v) for v in r.box) for r in split_side_by_side(page, [both], find_captions(page))]


def test_one_region_over_two_captions_in_two_columns_is_two_figures():
    pdf = _page([(54, 408, "Figure 1. A photograph of the left specimen."),
                 (312, 358, "Figure 2. A photograph of the right specimen.")])
    assert _split(pdf) == [(54, 100, 294, 400), (312, 100, 552, 350)]


def test_one_caption_under_two_pictures_keeps_them_one_figure():
    pdf = _page([(54, 408, "Figure 1. Two photographs of the same specimen, left and right.")])
    assert _split(pdf) == [(54, 100, 552, 400)]


def test_two_captions_beside_each_other_need_a_gap_between_the_pictures():
    # the captions sit side by side, but the art has no empty band between them (one picture)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.drawImage(_photo(3), 54, PAGE_H - 400, width=498, height=300)
    c.setFont("Helvetica", 9)
    c.drawString(54, PAGE_H - 417, "Figure 1. The left half.")
    c.drawString(312, PAGE_H - 417, "Figure 2. The right half.")
    c.showPage()
    c.save()
    assert _split(buf.getvalue()) == [(54, 100, 552, 400)]
