"""Image-only (scanned) pages: layout detector + OCR of caption blocks instead of a text layer.

A page is *image-only* when it carries (almost) no text and one or more raster images
cover most of it (:func:`is_image_only` — it uses only what ``read_page`` already has, so
the check costs nothing on text PDFs). For such pages:

1. the page is rendered at ``OCR_DPI`` and rapid-layout's detector (:mod:`medfig.pdf.layout`)
   gives figure, table and caption boxes;
2. caption candidates — the detector's ``figure_caption``/``table_caption`` boxes and the
   ``text`` blocks right above or below a figure/table — are read with rapidocr (its bundled
   PP-OCR models, the engine :mod:`medfig.vision.panel_labels` already loads); a block whose
   first line parses as a caption label (:mod:`medfig.pdf.labels`) becomes a caption
   (:mod:`medfig.pdf.scan_ocr`);
3. detector figure/table boxes are trimmed to the ink inside them (the detector pads its
   boxes by several points) and cut where they run into a caption (ink operations:
   :mod:`medfig.pdf.page_image`);
4. the caller pairs captions and regions with the usual Hungarian pairing.

A scan turned by 0.3-5° is straightened first (:func:`~medfig.pdf.page_image.estimate_skew`,
:func:`~medfig.pdf.page_image.deskew`: the angle with the sharpest row ink profile) and
the boxes are mapped back onto the page as stored (bounding boxes of the turned corners).

A *searchable scan* (:func:`is_scan_with_text`: a page-sized raster under an OCR text
layer) takes its captions from the text layer and its regions from steps 1 and 3.

Everything returned is in PDF points, origin top-left of the page, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import numpy as np

from medfig.geometry import PointBox, area, inside_fraction, intersection, iou
from medfig.pdf.layout import LayoutBox, detect
from medfig.pdf.page_image import OCR_DPI, deskew, estimate_skew, grow_to_ink, map_box, render_page, trim_to_ink
from medfig.pdf.regions import LAYOUT_MIN_SCORE, Region
from medfig.pdf.scan_ocr import ocr_captions
from medfig.pdf.types import PageData, PdfCaption

MAX_TEXT_CHARS = 20  # a page with more text-layer characters than this is not image-only
MIN_IMAGE_COVER = 0.6  # share of the page covered by raster images
FULL_PAGE_COVER = 0.9  # one raster this large under text: a searchable scan
MIN_DESKEW_DEG = 0.3  # below this a 500-pt line drifts < 3 pt: left as it is
MIN_PIECE_PT = 20.0  # a region piece left after cutting out a caption must be this high
SOURCE = "scanned"
# A region left without a caption is reported only when the detector is this sure of it
# (the package's own default): with no PDF objects to check it against, 0.3-0.5 boxes are
# mostly text blocks. Regions that win a caption in the pairing may score lower.
UNCAPTIONED_MIN_SCORE = 0.5


def is_image_only(page: PageData) -> bool:
    """No text layer to speak of, and raster images covering most of the page."""
    if page.width <= 0 or page.height <= 0:
        return False
    if sum(len(w.text) for w in page.words) > MAX_TEXT_CHARS:
        return False
    covered = sum(area(g.box) for g in page.graphics if g.kind == "image")
    return covered >= MIN_IMAGE_COVER * page.width * page.height


def is_scan_with_text(page: PageData) -> bool:
    """A scanned page with a text layer (a searchable scan: invisible OCR text over the page
    image): one raster covers nearly the whole page and the page has text. Its captions come
    from the text layer, its regions from the page image (the only drawn object is the scan)."""
    if page.width <= 0 or page.height <= 0 or not page.words:
        return False
    page_area = page.width * page.height
    return any(g.kind == "image" and area(g.box) >= FULL_PAGE_COVER * page_area for g in page.graphics)


def best_boxes(boxes: list[LayoutBox]) -> list[LayoutBox]:
    """Overlapping detector boxes of one class, surest first: a box overlapping a kept one
    (IoU > 0.5), lying mostly inside it, or spanning two or more kept boxes is dropped. With
    no PDF objects to snap to, a low-score box around several figures (a whole page column)
    must not replace the confident boxes of the figures in it."""
    keep: list[LayoutBox] = []
    for b in sorted(boxes, key=lambda b: -b.score):
        if any(iou(b.box, k.box) > 0.5 or inside_fraction(b.box, k.box) > 0.7 for k in keep):
            continue
        if sum(inside_fraction(k.box, b.box) > 0.7 for k in keep) >= 2:
            continue
        keep.append(b)
    return keep


def split_at_captions(box: PointBox, captions: list[PdfCaption]) -> list[PointBox]:
    """A detector box running over a caption is cut there into the parts above and below it
    (the detector boxes stacked figures with the caption between them as one); pieces
    smaller than ``MIN_PIECE_PT`` high are dropped. Without a caption inside: the box."""
    pieces = [box]
    for cap in sorted(captions, key=lambda c: c.box_pt[1]):
        c = cap.box_pt
        out = []
        for p in pieces:
            if intersection(p, c) <= 0.3 * area(c):
                out.append(p)
                continue
            out += [q for q in ((p[0], p[1], p[2], c[1] - 1), (p[0], c[3] + 1, p[2], p[3])) if q[3] - q[1] >= MIN_PIECE_PT]
        pieces = out
    return pieces


def scanned_page(doc, page: PageData, dpi: float = OCR_DPI,
                 text_captions: list[PdfCaption] | None = None) -> tuple[list[PdfCaption], list[Region]]:
    """Captions and figure/table regions (detector, trimmed to ink) of a scanned page.

    ``text_captions``: the captions found in the page's own (OCR) text layer, for a scan with
    a text layer (:func:`is_scan_with_text`); None for an image-only page, whose captions are
    read by OCR here."""
    rgb = render_page(doc, page.index, dpi)
    back = None
    if text_captions is None:  # an OCR text layer was placed on the page as scanned: keep its frame
        skew = estimate_skew(rgb.mean(axis=2))
        if abs(skew) >= MIN_DESKEW_DEG:  # line cutting and the recogniser need horizontal lines
            rgb, back = deskew(rgb, skew)
    layout = detect(rgb, dpi)
    art = [b for b in layout if b.label in ("figure", "table") and b.score >= LAYOUT_MIN_SCORE]
    gray = rgb.mean(axis=2)
    captions = list(text_captions) if text_captions is not None else ocr_captions(rgb, gray, layout, art, dpi, page.index)
    regions = _scan_regions(gray, art, captions, dpi)
    if back is not None:  # boxes back onto the page as it is stored
        for c in captions:
            c.box_pt = map_box(c.box_pt, back, dpi)
        regions = [Region(map_box(r.box, back, dpi), r.kind, r.source, r.score) for r in regions]
    return captions, regions


def _scan_regions(gray: np.ndarray, art: list[LayoutBox], captions: list[PdfCaption], dpi: float) -> list[Region]:
    regions: list[Region] = []
    for label in ("figure", "table"):
        for lb in best_boxes([b for b in art if b.label == label]):
            if any(intersection(lb.box, c.box_pt) > 0.5 * area(lb.box) for c in captions):
                continue  # a caption the detector also called figure/table
            for piece in split_at_captions(lb.box, captions):
                box = trim_to_ink(gray, piece, dpi)
                if box is None or box[2] - box[0] < 8 or box[3] - box[1] < 8:
                    continue
                regions.append(Region(box, label, SOURCE, lb.score))
    # figures only grow over nearby ink (axis labels, letters); tables keep their footnotes out
    stops = [c.box_pt for c in captions]
    for k, r in enumerate(regions):
        if r.kind == "figure":
            others = [o.box for o in regions if o is not r]
            regions[k] = Region(grow_to_ink(gray, r.box, dpi, stops + others), r.kind, r.source, r.score)
    return regions
