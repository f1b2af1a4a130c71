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

A scan turned by 0.3-5° is straightened first (:func:`estimate_skew`, :func:`deskew`: the
angle with the sharpest row ink profile) and the boxes are mapped back onto the page as
stored (bounding boxes of the turned corners).

A *searchable scan* (:func:`is_scan_with_text`: a page-sized raster under an OCR text
layer) takes its captions from the text layer and its regions from steps 1 and 3.

Everything returned is in PDF points, origin top-left of the page, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import re

import numpy as np
from rapidfuzz.distance import Levenshtein

from medfig.geometry import PointBox, area, edge_distance, inside_fraction, intersection, iou
from medfig.pdf.labels import parse_label
from medfig.pdf.layout import LayoutBox, detect
from medfig.pdf.pairing import MAX_PAIR_DISTANCE_PT
from medfig.pdf.page import PageData
from medfig.pdf.regions import LAYOUT_MIN_SCORE, Region
from medfig.pdf.types import PdfCaption

OCR_DPI = 200.0  # 8-pt caption text is ~22 px high: PP-OCR reads it reliably
MAX_TEXT_CHARS = 20  # a page with more text-layer characters than this is not image-only
MIN_IMAGE_COVER = 0.6  # share of the page covered by raster images
FULL_PAGE_COVER = 0.9  # one raster this large under text: a searchable scan
MAX_SKEW_DEG = 5.0  # scans turned more than this are not straightened
MIN_DESKEW_DEG = 0.3  # below this a 500-pt line drifts < 3 pt: left as it is
CAPTION_SEARCH_PT = 40.0  # text lines starting this close below/above a figure/table may be its caption
MAX_CAPTION_PT = 200.0  # longest caption block searched for under/over a figure
MIN_PIECE_PT = 20.0  # a region piece left after cutting out a caption must be this high
ART_GROW_PT = 6.0  # ink this close to a figure box is figure text (axis labels, panel letters)
INK_LEVEL = 235  # grey value below which a pixel is ink (page backgrounds of scans are ~250)
MIN_OCR_SCORE = 0.5
MIN_LINE_PT = 4.5  # smallest caption line height (6-pt type)
WORD_GAP_PT = 10.0  # a caption label set apart from its text is closer than this
LINE_GAP_PT = 5.0  # a caption title line sits this close above the detector's caption box
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


def estimate_skew(gray: np.ndarray) -> float:
    """The rotation (degrees, OpenCV's sense: positive = counter-clockwise) that makes the
    page's text lines horizontal: the angle within ±``MAX_SKEW_DEG`` whose row ink profile
    is sharpest (largest variance), coarse to fine on a ~50-dpi ink mask."""
    import cv2

    step = max(1, gray.shape[1] // 450)
    ink = (gray[::step, ::step] < INK_LEVEL).astype(np.float32)
    h, w = ink.shape
    centre = (w / 2.0, h / 2.0)

    def sharpness(angle: float) -> float:
        m = cv2.getRotationMatrix2D(centre, angle, 1.0)
        return float(cv2.warpAffine(ink, m, (w, h), flags=cv2.INTER_NEAREST).sum(axis=1).var())

    best = max(np.arange(-MAX_SKEW_DEG, MAX_SKEW_DEG + 1e-6, 0.5), key=sharpness)
    return float(max(np.arange(best - 0.4, best + 0.41, 0.1), key=sharpness))


def deskew(rgb: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The page image turned by ``angle`` (white outside) and the 2x3 affine map from the
    turned image's pixels back to the page image's pixels."""
    import cv2

    h, w = rgb.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), angle, 1.0)
    turned = cv2.warpAffine(rgb, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    return turned, cv2.invertAffineTransform(m)


def map_box(box_pt: PointBox, back: np.ndarray, dpi: float) -> PointBox:
    """A box on the deskewed image back onto the page: the bounding box of its turned corners."""
    scale = dpi / 72.0
    x0, y0, x1, y1 = (v * scale for v in box_pt)
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], dtype=float) @ back.T
    return (float(corners[:, 0].min() / scale), float(corners[:, 1].min() / scale),
            float(corners[:, 0].max() / scale), float(corners[:, 1].max() / scale))


def render_page(doc, index: int, dpi: float = OCR_DPI) -> np.ndarray:
    """Page ``index`` of an open pypdfium2 document as an RGB array (the detector's and OCR's input)."""
    page = doc[index]
    try:
        return page.render(scale=dpi / 72.0, rev_byteorder=True).to_numpy()[:, :, :3]
    finally:
        page.close()


def _px(box: PointBox, scale: float, shape: tuple[int, ...], pad_px: int = 0) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0, y0, x1, y1 = (int(round(v * scale)) for v in box)
    return max(0, x0 - pad_px), max(0, y0 - pad_px), min(w, x1 + pad_px), min(h, y1 + pad_px)


def _runs(mask: np.ndarray) -> list[list[int]]:
    """[start, end) runs of True."""
    runs: list[list[int]] = []
    for i, on in enumerate(mask):
        if on and runs and runs[-1][1] == i:
            runs[-1][1] = i + 1
        elif on:
            runs.append([i, i + 1])
    return runs


def text_line_bands(gray: np.ndarray, min_line_px: int = 10) -> list[tuple[int, int, int, int]]:
    """Text lines of a (deskewed) text block by the row ink profile: (x0, y0, x1, y1) in pixels.

    A row is blank when almost none of its pixels are ink. In a low-resolution scan the
    descenders of one line touch the ascenders of the next: a band is also cut where its
    profile drops far below its typical row. A band much thinner than the others (an
    accent, a dotted rule) joins its nearest neighbour. ``min_line_px``: the smallest line height."""
    ink = gray < INK_LEVEL
    profile = ink.sum(axis=1)
    bands = _runs(profile > max(1, 0.004 * gray.shape[1]))
    if not bands:
        return []
    split: list[list[int]] = []
    for y0, y1 in bands:
        # lines run together: cut at the valleys of the profile (rows far emptier than the band's
        # typical row), keeping every piece at least one small line high
        seg = profile[y0:y1]
        low = seg < 0.3 * float(np.median(seg))
        start = y0
        for v0, v1 in _runs(low):
            cut = y0 + v0 + int(np.argmin(seg[v0:v1]))
            if cut - start >= min_line_px and y1 - cut >= min_line_px:
                split.append([start, cut])
                start = cut + 1
        split.append([start, y1])
    typical = float(np.median([b[1] - b[0] for b in split]))
    merged: list[list[int]] = []
    for b in split:
        if merged and ((b[1] - b[0]) < 0.35 * typical or (merged[-1][1] - merged[-1][0]) < 0.35 * typical) \
                and b[0] - merged[-1][1] <= 0.3 * typical:
            merged[-1][1] = b[1]
        else:
            merged.append(list(b))
    out = []
    for y0, y1 in merged:
        cols = np.flatnonzero(ink[y0:y1].any(axis=0))
        if cols.size and y1 - y0 >= 4:
            out.append((int(cols[0]), y0, int(cols[-1]) + 1, y1))
    return out


def grow_text_block(gray: np.ndarray, box_pt: PointBox, dpi: float, art: list[PointBox]) -> PointBox:
    """Grow a detector text box over ink it cut off: the caption label left of it ("Fig. 3"
    set apart from the text) and a title line right above or below. Sideways the ink must
    continue within ``WORD_GAP_PT``; up/down a line must follow within ``LINE_GAP_PT``; the
    block never grows into a figure or table box."""
    scale = dpi / 72.0
    h, w = gray.shape
    ink = gray < INK_LEVEL
    x0, y0, x1, y1 = _px(box_pt, scale, gray.shape)
    if x1 <= x0 or y1 <= y0:
        return box_pt
    word_gap, line_gap = int(WORD_GAP_PT * scale), int(LINE_GAP_PT * scale)
    cols = ink[y0:y1].sum(axis=0) > 0
    while x0 > 0:
        left = np.flatnonzero(cols[max(0, x0 - word_gap):x0])
        if not left.size:
            break
        x0 = max(0, x0 - word_gap) + int(left[0])
    while x1 < w:
        right = np.flatnonzero(cols[x1:x1 + word_gap])
        if not right.size:
            break
        x1 = x1 + int(right[-1]) + 1

    def blocked(top: int, bottom: int) -> bool:
        cand = (x0 / scale, top / scale, x1 / scale, bottom / scale)
        return any(intersection(cand, a) > 0.05 * area(cand) for a in art)

    rows = ink[:, x0:x1].sum(axis=1) > max(1, 0.004 * (x1 - x0))
    for _ in range(3):  # up to three lines above (a title line, a wrapped label)
        above = np.flatnonzero(rows[max(0, y0 - line_gap):y0])
        if not above.size:
            break
        run_end = max(0, y0 - line_gap) + int(above[-1]) + 1
        run_start = run_end
        while run_start > 0 and rows[run_start - 1]:
            run_start -= 1
        if blocked(run_start, run_end) or (y1 - y0) and run_end - run_start > 0.5 * (y1 - y0) + 2 * line_gap:
            break
        y0 = run_start
    return (x0 / scale, y0 / scale, x1 / scale, y1 / scale)


def ocr_lines(rgb: np.ndarray, box_pt: PointBox, dpi: float, max_lines: int | None = None) -> list[tuple[str, PointBox, float]]:
    """Text lines (text, box in points, score) of the block ``box_pt``, top to bottom.

    Lines are cut by the row ink profile and each is read by rapidocr's recogniser only
    (the loader of :mod:`medfig.vision.panel_labels`): its text detector, run single-threaded
    on a wide caption strip, costs seconds per block; one recognition costs tens of ms."""
    from medfig.vision.panel_labels import recognise

    scale = dpi / 72.0
    x0, y0, x1, y1 = _px(box_pt, scale, rgb.shape, pad_px=4)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    block = rgb[y0:y1, x0:x1]
    lines = []
    for bx0, by0, bx1, by1 in text_line_bands(block.mean(axis=2), int(MIN_LINE_PT * scale))[:max_lines]:
        pad = 3
        crop = block[max(0, by0 - pad):by1 + pad, max(0, bx0 - pad):bx1 + pad]
        text, score = recognise(np.ascontiguousarray(crop))
        if text.strip() and score >= MIN_OCR_SCORE:
            lines.append((text.strip(), ((x0 + bx0) / scale, (y0 + by0) / scale, (x0 + bx1) / scale, (y0 + by1) / scale),
                          score))
    return lines


_KIND_WORDS = {"figure": "Figure", "table": "Table", "fig": "Fig."}


def fix_ocr_label(line: str) -> str:
    """Repair an OCR-misread label word at the start of a line: "FiGuRe 5:", "FtGuuz 5:",
    "TAB1E 3:", "TABL.E 1:", "Fig, 4." -> "Figure 5:", "Table 3:", "Fig. 4." (the kind word
    within a small edit distance of figure/table/fig, followed by a number)."""
    numbered = re.match(r"^\s*\d{1,4}\s*(?=[A-Za-z])", line)  # a preprint's margin line number: "565Table 2."
    if numbered and parse_label(fix_ocr_label(line[numbered.end():])) is not None:
        return fix_ocr_label(line[numbered.end():])
    m = re.match(r"^\s*(\S{3,8}?)[,.]?\s+(S?\d{1,3}[A-Za-z]?\b.*)$", line)
    if not m:
        return line
    word = re.sub(r"[^a-z]", "", m[1].lower().replace("1", "l").replace("0", "o").replace("$", "s"))
    for canon, printed in _KIND_WORDS.items():
        if word == canon or (canon == "fig" and len(word) == 3 and word[1:] == "ig") or (len(canon) > 3 and abs(len(word) - len(canon)) <= 1 and word[:1] == canon[0]
                             and Levenshtein.distance(word, canon) <= (3 if len(word) == len(canon) else 2)):
            return f"{printed} {m[2]}"
    return line


def _caption_from_block(rgb: np.ndarray, block: LayoutBox, dpi: float, page_index: int,
                        labelled_by_detector: bool) -> PdfCaption | None:
    first = ocr_lines(rgb, block.box, dpi, max_lines=1)  # most blocks near art are body text: read one line first
    if not first:
        return None
    label = parse_label(fix_ocr_label(first[0][0]))
    if label is None:
        return None
    if not labelled_by_detector and not (label.delimiter or not label.rest):
        return None  # "Figure 2 shows ..." at the start of a body paragraph
    lines = ocr_lines(rgb, block.box, dpi)
    lines[0] = (fix_ocr_label(lines[0][0]), *lines[0][1:]) if lines else first[0]
    text = " ".join(" ".join(t for t, _, _ in lines).split())
    box = (min(b[0] for _, b, _ in lines), min(b[1] for _, b, _ in lines),
           max(b[2] for _, b, _ in lines), max(b[3] for _, b, _ in lines))
    score = 2.0 + (1.0 if labelled_by_detector else 0.0) + (1.0 if label.delimiter else 0.0)
    return PdfCaption(name=label.name, fig_type=label.fig_type, kind=label.kind, number=label.number,
                      label=label.printed, page=page_index, box_pt=box, text=text, score=score)


def trim_to_ink(gray: np.ndarray, box_pt: PointBox, dpi: float) -> PointBox | None:
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


def text_block_at(gray: np.ndarray, x_range: tuple[float, float], y: float, dpi: float, downward: bool,
                  reach_pt: float = CAPTION_SEARCH_PT, max_pt: float = MAX_CAPTION_PT) -> PointBox | None:
    """The run of text lines across ``x_range`` that starts within ``reach_pt`` below ``y``
    (or ends within it above ``y``), lines joined while the gap between them stays below
    one line height. Points in and out. Finds captions the detector gave no box."""
    scale = dpi / 72.0
    h, w = gray.shape
    x0, x1 = max(0, int(x_range[0] * scale)), min(w, int(x_range[1] * scale))
    y_px = int(y * scale)
    lo, hi = (y_px, min(h, y_px + int(max_pt * scale))) if downward else (max(0, y_px - int(max_pt * scale)), y_px)
    if x1 - x0 < 8 or hi - lo < 8:
        return None
    bands = text_line_bands(gray[lo:hi, x0:x1], int(MIN_LINE_PT * scale))
    if not bands:
        return None
    if not downward:
        bands = bands[::-1]
    min_px = MIN_LINE_PT * scale
    while bands and bands[0][3] - bands[0][1] < min_px:
        bands = bands[1:]  # the bottom edge of panel letters or tick labels the figure box cut
    if not bands:
        return None
    reach = int(reach_pt * scale)
    first = bands[0]
    if (first[1] if downward else (hi - lo) - first[3]) > reach:
        return None
    run = [first]
    for b in bands[1:]:
        prev = run[-1]
        gap = b[1] - prev[3] if downward else prev[1] - b[3]
        if gap > max(3, (prev[3] - prev[1])):
            break
        run.append(b)
    bx0, by0 = min(b[0] for b in run), min(b[1] for b in run)
    bx1, by1 = max(b[2] for b in run), max(b[3] for b in run)
    return ((x0 + bx0) / scale, (lo + by0) / scale, (x0 + bx1) / scale, (lo + by1) / scale)


def grow_to_ink(gray: np.ndarray, box_pt: PointBox, dpi: float, stops: list[PointBox]) -> PointBox:
    """Grow a figure box over ink within ``ART_GROW_PT`` of its edges (axis labels and panel
    letters the detector left out), never into a caption or another region (``stops``)."""
    scale = dpi / 72.0
    h, w = gray.shape
    ink = gray < INK_LEVEL
    x0, y0, x1, y1 = _px(box_pt, scale, gray.shape)
    step = max(1, int(ART_GROW_PT * scale))

    def free(b: tuple[int, int, int, int]) -> bool:
        cand = tuple(v / scale for v in b)
        return not any(intersection(cand, s) > 0 for s in stops)

    for _ in range(30):
        changed = False
        below = np.flatnonzero(ink[y1:min(h, y1 + step), x0:x1].any(axis=1))
        if below.size and free((x0, y1, x1, y1 + int(below[-1]) + 1)):
            y1, changed = y1 + int(below[-1]) + 1, True
        above = np.flatnonzero(ink[max(0, y0 - step):y0, x0:x1].any(axis=1))
        if above.size and free((x0, max(0, y0 - step) + int(above[0]), x1, y0)):
            y0, changed = max(0, y0 - step) + int(above[0]), True
        right = np.flatnonzero(ink[y0:y1, x1:min(w, x1 + step)].any(axis=0))
        if right.size and free((x1, y0, x1 + int(right[-1]) + 1, y1)):
            x1, changed = x1 + int(right[-1]) + 1, True
        left = np.flatnonzero(ink[y0:y1, max(0, x0 - step):x0].any(axis=0))
        if left.size and free((max(0, x0 - step) + int(left[0]), y0, x0, y1)):
            x0, changed = max(0, x0 - step) + int(left[0]), True
        if not changed:
            break
    return (x0 / scale, y0 / scale, x1 / scale, y1 / scale)


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


def _caption_candidates(gray: np.ndarray, layout: list[LayoutBox], art: list[LayoutBox], dpi: float) -> list[tuple[PointBox, bool]]:
    """Blocks that may be captions, as (box in points, labelled a caption by the detector),
    most trusted first: the detector's caption boxes; its text blocks within pairing reach of
    a figure/table; text lines right below/above a figure/table that no detector box covers;
    the first line inside a table/figure box (the detector often boxes a caption with its table)."""
    art_boxes = [b.box for b in art]
    out: list[tuple[PointBox, bool]] = []
    for block in layout:
        if block.label in ("figure_caption", "table_caption"):
            out.append((grow_text_block(gray, block.box, dpi, art_boxes), True))
    for block in layout:
        if block.label == "text" and any(edge_distance(block.box, a) <= MAX_PAIR_DISTANCE_PT for a in art_boxes):
            out.append((grow_text_block(gray, block.box, dpi, art_boxes), False))
    covered = [b.box for b in layout if b.label not in ("figure", "table")]
    for a in art_boxes:
        for downward in (True, False):
            edge = a[3] if downward else a[1]
            found = text_block_at(gray, (a[0], a[2]), edge + (1 if downward else -1), dpi, downward)
            if found is not None and not any(inside_fraction(found, c) > 0.5 for c in covered):
                out.append((grow_text_block(gray, found, dpi, [x for x in art_boxes if x != a]), False))
        inner = text_block_at(gray, (a[0], a[2]), a[1], dpi, True, reach_pt=6.0)
        if inner is not None:
            out.append((inner, False))
    return out


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
    captions = list(text_captions) if text_captions is not None else _ocr_captions(rgb, gray, layout, art, dpi, page.index)
    regions = _scan_regions(gray, art, captions, dpi)
    if back is not None:  # boxes back onto the page as it is stored
        for c in captions:
            c.box_pt = map_box(c.box_pt, back, dpi)
        regions = [Region(map_box(r.box, back, dpi), r.kind, r.source, r.score) for r in regions]
    return captions, regions


def _ocr_captions(rgb: np.ndarray, gray: np.ndarray, layout: list[LayoutBox], art: list[LayoutBox], dpi: float,
                  page_index: int) -> list[PdfCaption]:
    captions: list[PdfCaption] = []
    for box, by_detector in _caption_candidates(gray, layout, art, dpi):
        if any(inside_fraction(box, c.box_pt) > 0.5 or inside_fraction(c.box_pt, box) > 0.5 for c in captions):
            continue  # one caption found as a caption box, a text block and a line below the art
        cap = _caption_from_block(rgb, LayoutBox("caption", box, 1.0), dpi, page_index, by_detector)
        if cap is not None and not any(c.name == cap.name for c in captions):
            captions.append(cap)
    return captions


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
