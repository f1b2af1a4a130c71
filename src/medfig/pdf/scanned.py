"""Image-only (scanned) pages: layout detector + OCR of caption blocks instead of a text layer.

A page is *image-only* when it carries (almost) no text and one or more raster images
cover most of it (:func:`is_image_only` — it uses only what ``read_page`` already has, so
the check costs nothing on text PDFs). For such pages:

1. the page is rendered at ``OCR_DPI`` and rapid-layout's detector (:mod:`medfig.pdf.layout`)
   gives figure, table and caption boxes;
2. caption candidates — the detector's ``figure_caption``/``table_caption`` boxes and the
   ``text`` blocks right above or below a figure/table — are read with rapidocr (its bundled
   PP-OCR models, the engine :mod:`medfig.vision.panel_labels` already loads); a block whose
   first line parses as a caption label (:mod:`medfig.pdf.labels`) becomes a caption;
3. detector figure/table boxes are trimmed to the ink inside them (the detector pads its
   boxes by several points) and cut where they run into a caption;
4. the caller pairs captions and regions with the usual Hungarian pairing.

Everything returned is in PDF points, origin top-left of the page, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import numpy as np

from medfig.pdf.geometry import area, edge_distance, horizontal_overlap, inside_fraction, intersection
from medfig.pdf.labels import parse_label
from medfig.pdf.layout import LayoutBox, detect
from medfig.pdf.page import PageData
from medfig.pdf.regions import LAYOUT_MIN_SCORE, Region, _nms_contained, _trim_captions
from medfig.pdf.types import Box, PdfCaption

OCR_DPI = 200.0  # 8-pt caption text is ~22 px high: PP-OCR reads it reliably
MAX_TEXT_CHARS = 20  # a page with more text-layer characters than this is not image-only
MIN_IMAGE_COVER = 0.6  # share of the page covered by raster images
CAPTION_GAP_PT = 30.0  # a text block this close above/below a figure/table may be its caption
INK_LEVEL = 235  # grey value below which a pixel is ink (page backgrounds of scans are ~250)
MIN_OCR_SCORE = 0.5
SOURCE = "scanned"


def is_image_only(page: PageData) -> bool:
    """No text layer to speak of, and raster images covering most of the page."""
    if page.width <= 0 or page.height <= 0:
        return False
    if sum(len(w.text) for w in page.words) > MAX_TEXT_CHARS:
        return False
    covered = sum(area(g.box) for g in page.graphics if g.kind == "image")
    return covered >= MIN_IMAGE_COVER * page.width * page.height


def render_page(doc, index: int, dpi: float = OCR_DPI) -> np.ndarray:
    page = doc[index]
    try:
        return page.render(scale=dpi / 72.0, rev_byteorder=True).to_numpy()[:, :, :3]
    finally:
        page.close()


def _px(box: Box, scale: float, shape: tuple[int, ...], pad_px: int = 0) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0, y0, x1, y1 = (int(round(v * scale)) for v in box)
    return max(0, x0 - pad_px), max(0, y0 - pad_px), min(w, x1 + pad_px), min(h, y1 + pad_px)


def ocr_lines(rgb: np.ndarray, box_pt: Box, dpi: float) -> list[tuple[str, Box, float]]:
    """Text lines (text, box in points, score) read by rapidocr in ``box_pt``, top to bottom."""
    from medfig.vision.panel_labels import ocr_engine

    scale = dpi / 72.0
    x0, y0, x1, y1 = _px(box_pt, scale, rgb.shape, pad_px=6)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    result = ocr_engine()(np.ascontiguousarray(rgb[y0:y1, x0:x1]), use_cls=False)
    boxes = getattr(result, "boxes", None)
    if boxes is None:
        return []
    lines = []
    for quad, text, score in zip(boxes, result.txts, result.scores):
        q = np.asarray(quad, dtype=float)
        b = ((q[:, 0].min() + x0) / scale, (q[:, 1].min() + y0) / scale,
             (q[:, 0].max() + x0) / scale, (q[:, 1].max() + y0) / scale)
        if str(text).strip() and float(score) >= MIN_OCR_SCORE:
            lines.append((str(text).strip(), b, float(score)))
    # reading order: rows top to bottom (a row = lines whose vertical centres are close), left to right
    lines.sort(key=lambda t: (round((t[1][1] + t[1][3]) / 2 / 4), t[1][0]))
    return lines


def _caption_from_block(rgb: np.ndarray, block: LayoutBox, dpi: float, page_index: int,
                        labelled_by_detector: bool) -> PdfCaption | None:
    lines = ocr_lines(rgb, block.box, dpi)
    if not lines:
        return None
    label = parse_label(lines[0][0])
    if label is None:
        return None
    if not labelled_by_detector and not (label.delimiter or not label.rest):
        return None  # "Figure 2 shows ..." at the start of a body paragraph
    text = " ".join(" ".join(t for t, _, _ in lines).split())
    box = (min(b[0] for _, b, _ in lines), min(b[1] for _, b, _ in lines),
           max(b[2] for _, b, _ in lines), max(b[3] for _, b, _ in lines))
    score = 2.0 + (1.0 if labelled_by_detector else 0.0) + (1.0 if label.delimiter else 0.0)
    return PdfCaption(name=label.name, fig_type=label.fig_type, kind=label.kind, number=label.number,
                      label=label.printed, page=page_index, box_pt=box, text=text, score=score)


def trim_to_ink(gray: np.ndarray, box_pt: Box, dpi: float) -> Box | None:
    """Shrink a box to the rows and columns inside it that hold ink (None: blank)."""
    scale = dpi / 72.0
    x0, y0, x1, y1 = _px(box_pt, scale, gray.shape)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    ink = gray[y0:y1, x0:x1] < INK_LEVEL
    rows = np.flatnonzero(ink.sum(axis=1) >= 2)  # >= 2 ink pixels: a JPEG speck is not art
    cols = np.flatnonzero(ink.sum(axis=0) >= 2)
    if rows.size == 0 or cols.size == 0:
        return None
    return ((x0 + cols[0]) / scale, (y0 + rows[0]) / scale, (x0 + cols[-1] + 1) / scale, (y0 + rows[-1] + 1) / scale)


def _near_art(block: Box, art: list[Box]) -> bool:
    for a in art:
        overlap = horizontal_overlap(block, a)
        if overlap < 0.3 * min(block[2] - block[0], a[2] - a[0]):
            continue
        if edge_distance(block, a) <= CAPTION_GAP_PT:
            return True
    return False


def scanned_page(doc, page: PageData, dpi: float = OCR_DPI) -> tuple[list[PdfCaption], list[Region]]:
    """Captions (OCR) and figure/table regions (detector, trimmed to ink) of an image-only page."""
    rgb = render_page(doc, page.index, dpi)
    layout = detect(rgb, dpi)
    art = [b for b in layout if b.label in ("figure", "table") and b.score >= LAYOUT_MIN_SCORE]
    art_boxes = [b.box for b in art]
    captions: list[PdfCaption] = []
    for block in layout:
        by_detector = block.label in ("figure_caption", "table_caption")
        if not by_detector and not (block.label == "text" and _near_art(block.box, art_boxes)):
            continue
        if any(inside_fraction(block.box, c.box_pt) > 0.7 for c in captions):
            continue  # the detector often gives one caption as a caption box and a text box
        cap = _caption_from_block(rgb, block, dpi, page.index, by_detector)
        if cap is not None and not any(c.name == cap.name for c in captions):
            captions.append(cap)
    gray = rgb.mean(axis=2)
    regions: list[Region] = []
    for label in ("figure", "table"):
        for lb in _nms_contained([b for b in art if b.label == label]):
            if any(intersection(lb.box, c.box_pt) > 0.5 * area(lb.box) for c in captions):
                continue  # a caption the detector also called figure/table
            box = trim_to_ink(gray, _trim_captions(lb.box, captions), dpi)
            if box is None or box[2] - box[0] < 8 or box[3] - box[1] < 8:
                continue
            regions.append(Region(box, label, SOURCE, lb.score))
    return captions, regions
