"""Image-only (scanned) PDFs: the OCR fallback finds figures and tables and reads their captions.

The scanned PDF is made in the test from a real Hindawi article: two pages rendered to
JPEG images and written back as an image-only PDF (no text layer), so the text-layer
extraction of the original pages is the reference.
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image

from medfig.pdf.extract import extract_pdf
from medfig.pdf.geometry import iou
from medfig.pdf.scanned import is_image_only

SOURCE_PDF = "pmc_hindawi_xml_pdf/PMC4657150/fulltext.pdf"
PAGES = (2, 3)  # Table 1 + Figure 1, then Figures 2 and 3 (one caption the detector calls plain text)
SCAN_DPI = 150


def image_only_pdf(pdf_path, pages, dpi: float = SCAN_DPI) -> bytes:
    """Render ``pages`` to JPEG images and write them as a PDF with no text layer, page size kept."""
    doc = pdfium.PdfDocument(str(pdf_path))
    images = [doc[i].render(scale=dpi / 72.0).to_pil().convert("RGB") for i in pages]
    doc.close()
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=dpi, quality=80)
    return buf.getvalue()


@pytest.fixture(scope="module")
def scanned(data_dir):
    original = extract_pdf(data_dir / SOURCE_PDF)
    pdf = image_only_pdf(data_dir / SOURCE_PDF, PAGES)
    return original, extract_pdf(pdf, name="scanned.pdf")


def test_scanned_pdf_figures_match_the_text_layer_extraction(scanned):
    original, result = scanned
    reference = [f for f in original.figures if f.page in PAGES]
    assert sorted(f.name for f in reference) == ["Figure 1", "Figure 2", "Figure 3", "Table 1"]
    assert sorted(f.name for f in result.figures) == sorted(f.name for f in reference)
    for ref in reference:
        got = next(f for f in result.figures if f.name == ref.name)
        assert got.page == PAGES.index(ref.page) and got.fig_type == ref.fig_type
        assert got.source == "scanned"
        assert iou(got.box_pt, ref.box_pt) >= 0.7, (ref.name, got.box_pt, ref.box_pt)
        # caption read by OCR: the right label, and most of the caption's words
        assert got.label.upper().startswith(ref.label.split()[0].upper()[:3])
        ref_words = set(ref.caption.lower().split())
        got_words = set(got.caption.lower().split())
        assert len(ref_words & got_words) >= 0.7 * len(ref_words), (ref.caption, got.caption)
        assert iou(got.caption_box_pt, ref.caption_box_pt) >= 0.7
    assert not result.regionless
    assert any("image-only PDF: OCR fallback" in w and "scanned.pdf" in w for w in result.warnings)


def test_cheap_mode_says_the_pdf_is_image_only(data_dir):
    result = extract_pdf(image_only_pdf(data_dir / SOURCE_PDF, PAGES[:1]), name="scan1.pdf", use_layout=False)
    assert result.figures == [] and result.regionless == []
    assert len(result.warnings) == 1 and "scan1.pdf: image-only PDF" in result.warnings[0]
    assert "cheap mode" in result.warnings[0]


def test_text_pdfs_never_take_the_ocr_path(data_dir):
    """The image-only check uses the text layer read_page already has: a text PDF with full-page
    raster figures is not mistaken for a scan, and OCR never runs on it."""
    from medfig.pdf.document import open_pdf, read_pdf_bytes
    from medfig.pdf.page import read_page

    for rel in (SOURCE_PDF, "pmc_hindawi_xml_pdf/PMC4706923/fulltext.pdf"):
        data, name = read_pdf_bytes(data_dir / rel)
        doc, plumber = open_pdf(data, name)
        try:
            assert not any(is_image_only(read_page(p, i)) for i, p in enumerate(plumber.pages))
        finally:
            plumber.close()
            doc.close()
    result = extract_pdf(data_dir / SOURCE_PDF)
    assert "ocr" not in result.seconds_by_stage and not result.warnings
