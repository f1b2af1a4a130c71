"""Image-only (scanned) PDFs: the OCR fallback finds figures and tables and reads their captions.

The scanned PDF is made in the test from a real Hindawi article: two pages rendered to
JPEG images and written back as an image-only PDF (no text layer), so the text-layer
extraction of the original pages is the reference.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from medfig.geometry import iou
from medfig.pdf.extract import extract_pdf
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


def searchable_scan_pdf(pdf_path, pages, dpi: float = SCAN_DPI) -> bytes:
    """A searchable scan: each page a JPEG of the original page, under an invisible text layer
    holding the original text runs at their places (as OCR software writes it)."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    src = pdfium.PdfDocument(str(pdf_path))
    out = pdfium.PdfDocument.new()
    for i in pages:
        src_page = src[i]
        w, h = src_page.get_size()
        page = out.new_page(w, h)
        jpeg = io.BytesIO()
        src_page.render(scale=dpi / 72.0).to_pil().convert("RGB").save(jpeg, format="JPEG", quality=80)
        jpeg.seek(0)
        image = pdfium.PdfImage.new(out)
        image.load_jpeg(jpeg, pages=[page])
        image.set_matrix(pdfium.PdfMatrix().scale(w, h))
        page.insert_obj(image)
        textpage = src_page.get_textpage()
        for k in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(k)
            text = textpage.get_text_bounded(left, bottom, right, top).strip()
            if not text:
                continue
            obj = pdfium_c.FPDFPageObj_NewTextObj(out.raw, b"Helvetica", ctypes.c_float(max(1.0, 0.9 * (top - bottom))))
            utf16 = (text + "\x00").encode("utf-16-le")
            pdfium_c.FPDFText_SetText(obj, ctypes.cast(ctypes.c_char_p(utf16), ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
            pdfium_c.FPDFTextObj_SetTextRenderMode(obj, pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
            pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, left, bottom)
            pdfium_c.FPDFPage_InsertObject(page.raw, obj)
        page.gen_content()
        textpage.close()
        src_page.close()
        page.close()
    buf = io.BytesIO()
    out.save(buf)
    out.close()
    src.close()
    return buf.getvalue()


def test_searchable_scan_takes_captions_from_its_text_layer(data_dir, scanned):
    """A scan with an invisible OCR text layer: captions from the text, regions from the page
    image (without this, the page-sized raster became every figure's box)."""
    original, _ = scanned
    result = extract_pdf(searchable_scan_pdf(data_dir / SOURCE_PDF, PAGES), name="searchable.pdf")
    assert any("searchable.pdf: scanned PDF with a text layer" in w for w in result.warnings)
    reference = [f for f in original.figures if f.page in PAGES]
    assert sorted(f.name for f in reference) == ["Figure 1", "Figure 2", "Figure 3", "Table 1"]
    assert sorted(f.name for f in result.figures) == sorted(f.name for f in reference)
    for ref in reference:
        got = next(f for f in result.figures if f.name == ref.name)
        assert got.source == "scanned" and got.page == PAGES.index(ref.page)
        assert iou(got.box_pt, ref.box_pt) >= 0.9, (ref.name, got.box_pt, ref.box_pt)
        assert got.caption.split()[:4] == ref.caption.split()[:4]


def test_text_pdfs_never_take_the_scanned_paths(data_dir):
    """Both scan checks use what read_page already has; on every page of the 34 gold PDFs
    (text PDFs, some with page-wide raster figures) neither fires, so OCR never runs."""
    import json

    from medfig.pdf.document import open_pdf, read_pdf_bytes
    from medfig.pdf.page import read_page
    from medfig.pdf.scanned import is_scan_with_text

    gold = json.loads((Path(__file__).resolve().parents[1] / "benchmarks/gold/pdf_figures/gold.json").read_text())
    n_pages = 0
    for paper in gold["papers"]:
        data, name = read_pdf_bytes(data_dir / paper["pdf"])
        doc, reader = open_pdf(data, name)
        try:
            for i in range(len(doc)):
                page = read_page(reader.pages[i], i)
                assert not is_image_only(page) and not is_scan_with_text(page), (name, i)
                n_pages += 1
        finally:
            reader.close()
            doc.close()
    assert n_pages > 200
    result = extract_pdf(data_dir / SOURCE_PDF)
    assert "ocr" not in result.seconds_by_stage and not result.warnings


def _turned_bbox(box, angle_deg: float, width: float, height: float):
    """Bounding box of ``box`` (points, origin top-left) after PIL's ``Image.rotate(angle)``:
    counter-clockwise on screen about the page centre."""
    import math

    a = math.radians(angle_deg)
    cx, cy = width / 2, height / 2
    pts = [(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    # y points down: a counter-clockwise turn on screen is x' = c + (x-c)cos + (y-c)sin, y' = c - (x-c)sin + (y-c)cos
    turned = [(cx + (x - cx) * math.cos(a) + (y - cy) * math.sin(a), cy - (x - cx) * math.sin(a) + (y - cy) * math.cos(a))
              for x, y in pts]
    return (min(p[0] for p in turned), min(p[1] for p in turned), max(p[0] for p in turned), max(p[1] for p in turned))


@pytest.mark.parametrize("angle", [2.0, -1.5])
def test_skewed_scan_is_straightened(data_dir, scanned, angle):
    """A scan turned by a degree or two: lines no longer cut cleanly by the row profile, so the
    page is straightened before the detector and OCR; boxes come back on the page as stored."""
    original, _ = scanned
    doc = pdfium.PdfDocument(str(data_dir / SOURCE_PDF))
    images = [doc[i].render(scale=SCAN_DPI / 72.0).to_pil().convert("RGB").rotate(angle, resample=Image.BICUBIC,
                                                                                  fillcolor="white") for i in PAGES]
    width, height = doc[PAGES[0]].get_size()
    doc.close()
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=SCAN_DPI, quality=80)
    result = extract_pdf(buf.getvalue(), name="skewed.pdf")
    reference = [f for f in original.figures if f.page in PAGES]
    assert sorted(f.name for f in reference) == ["Figure 1", "Figure 2", "Figure 3", "Table 1"]
    assert sorted(f.name for f in result.figures) == sorted(f.name for f in reference)
    for ref in reference:
        got = next(f for f in result.figures if f.name == ref.name)
        expected = _turned_bbox(ref.box_pt, angle, width, height)
        assert iou(got.box_pt, expected) >= 0.8, (ref.name, got.box_pt, expected)
        assert got.caption.split()[:3] == ref.caption.split()[:3]
