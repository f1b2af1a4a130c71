"""Figures cropped from PDFs keep their embedded rasters' resolution (issue 15: full-resolution images).

The PDFs are drawn here with reportlab, so the true pixels per inch are known exactly:
a 600 x 400 px image drawn 144 pt wide is 600 / 2 in = 300 dpi.
"""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from medfig.images import MAX_IMAGE_PIXELS
from medfig.pdf.output import crop_dpi, raster_dpi, render_box_png
from medfig.pipeline.config import BuildConfig
from medfig.records import MedfigError

PAGE_W, PAGE_H = 612.0, 792.0


def _photo(width: int, height: int) -> ImageReader:
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 255, (height, width, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    return ImageReader(io.BytesIO(buf.getvalue()))


def _pdf() -> bytes:
    """Page 0: a 600x400 px image at 300 dpi (top-left box 72,72,216,168), the same image turned 90
    degrees at 200 dpi, and a vector-only drawing. Boxes below are in points, origin top-left."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(PAGE_W, PAGE_H))
    photo = _photo(600, 400)
    c.drawImage(photo, 72, PAGE_H - 168, width=144, height=96)  # 600 px / 2 in = 300 dpi
    c.saveState()
    c.translate(400, PAGE_H - 300)
    c.rotate(90)
    c.drawImage(photo, 0, 0, width=216, height=144)  # 600 px / 3 in = 200 dpi, drawn sideways
    c.restoreState()
    c.rect(72, PAGE_H - 700, 200, 150, stroke=1, fill=0)  # vector art only
    c.line(80, PAGE_H - 690, 260, PAGE_H - 560)
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.fixture(scope="module")
def page():
    doc = pdfium.PdfDocument(_pdf())
    yield doc[0]
    doc.close()


def test_raster_dpi_is_read_from_the_image_matrix(page):
    assert raster_dpi(page, (70, 70, 220, 170)) == pytest.approx(300.0, abs=0.01)
    # the sideways image spans x 256..400, y 84..300 on the page (origin top-left): its own axes give 200 dpi
    assert raster_dpi(page, (250, 80, 405, 305)) == pytest.approx(200.0, abs=0.01)
    assert raster_dpi(page, (70, 545, 280, 705)) is None  # vector drawing: no native resolution
    assert raster_dpi(page, (70, 70, 100, 100)) is None  # a corner of an image is not the figure's raster


def test_crop_dpi_is_native_between_floor_and_cap(page):
    assert crop_dpi(page, (70, 70, 220, 170), 150.0) == pytest.approx(300.0, abs=0.01)
    assert crop_dpi(page, (70, 70, 220, 170), 150.0, max_dpi=240.0) == 240.0
    assert crop_dpi(page, (70, 70, 220, 170), 400.0) == 400.0  # never below the floor
    assert crop_dpi(page, (70, 600, 280, 760), 150.0) == 150.0  # vector art gets the floor


def test_native_crop_has_the_embedded_pixel_count(page):
    box = (72, 72, 216, 168)
    png, width, height = render_box_png(page, box, crop_dpi(page, box, 150.0))
    assert width == pytest.approx(600, abs=1) and height == pytest.approx(400, abs=1)  # pdfium rounds the crop edges
    png, width, height = render_box_png(page, box, 150.0)  # the old fixed resolution: a quarter of the pixels
    assert width == pytest.approx(300, abs=1) and height == pytest.approx(200, abs=1)


def test_huge_native_box_is_held_to_the_pixel_budget(page):
    whole_page = (0, 0, PAGE_W, PAGE_H)
    dpi = crop_dpi(page, whole_page, 2400.0, max_dpi=2400.0)  # 538 MP unbounded
    assert (PAGE_W * dpi / 72 + 1) * (PAGE_H * dpi / 72 + 1) <= MAX_IMAGE_PIXELS
    assert dpi < 2400.0


def test_config_refuses_a_cap_below_the_floor():
    assert BuildConfig(crop_dpi=150, max_crop_dpi=150).max_crop_dpi == 150
    with pytest.raises(MedfigError, match="maximum crop resolution"):
        BuildConfig(crop_dpi=300, max_crop_dpi=200)
    assert BuildConfig().fingerprint() != BuildConfig(max_crop_dpi=300).fingerprint()
