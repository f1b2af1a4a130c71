"""A page as an image: rendering (the layout detector's and OCR's input), straightening a
turned scan, and the ink operations of the scanned-page path (:mod:`medfig.pdf.scanned`):
text lines by the row ink profile, boxes trimmed to their ink or grown over ink nearby.

Boxes in and out are PDF points, origin top-left of the page, ``[x0, y0, x1, y1]``; images
are the page rendered at ``dpi``.
"""

from __future__ import annotations

import numpy as np

from medfig.geometry import PointBox, area, intersection

OCR_DPI = 200.0  # 8-pt caption text is ~22 px high: PP-OCR reads it reliably
MAX_SKEW_DEG = 5.0  # scans turned more than this are not straightened
CAPTION_SEARCH_PT = 40.0  # text lines starting this close below/above a figure/table may be its caption
MAX_CAPTION_PT = 200.0  # longest caption block searched for under/over a figure
ART_GROW_PT = 6.0  # ink this close to a figure box is figure text (axis labels, panel letters)
INK_LEVEL = 235  # grey value below which a pixel is ink (page backgrounds of scans are ~250)
MIN_LINE_PT = 4.5  # smallest caption line height (6-pt type)
WORD_GAP_PT = 10.0  # a caption label set apart from its text is closer than this
LINE_GAP_PT = 5.0  # a caption title line sits this close above the detector's caption box


def render_page(doc, index: int, dpi: float = OCR_DPI) -> np.ndarray:
    """Page ``index`` of an open pypdfium2 document as an RGB array (the detector's and OCR's input).

    A page whose render would be over the pixel budget (a 200-inch MediaBox) raises
    :class:`medfig.images.ImageTooLarge` (a ValueError) before any bitmap is allocated."""
    from medfig.images import check_pixels

    page = doc[index]
    try:
        width_pt, height_pt = page.get_size()
        check_pixels(f"page {index + 1}", int(width_pt * dpi / 72.0) + 1, int(height_pt * dpi / 72.0) + 1)
        return page.render(scale=dpi / 72.0, rev_byteorder=True).to_numpy()[:, :, :3]
    finally:
        page.close()


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


def to_px(box: PointBox, scale: float, shape: tuple[int, ...], pad_px: int = 0) -> tuple[int, int, int, int]:
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
    x0, y0, x1, y1 = to_px(box_pt, scale, gray.shape)
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


def trim_to_ink(gray: np.ndarray, box_pt: PointBox, dpi: float) -> PointBox | None:
    """Shrink a box to the rows and columns inside it that hold ink (None: blank)."""
    scale = dpi / 72.0
    x0, y0, x1, y1 = to_px(box_pt, scale, gray.shape)
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
    x0, y0, x1, y1 = to_px(box_pt, scale, gray.shape)
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
