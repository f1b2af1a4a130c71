"""Glyph geometry for panel-letter reading: is a glyph alone on its background, does more
text follow it on its line (the "ii" of "Aii"), is a text block one more tick label of an
axis already read, is a glyph one of a row of significance letters, is a text block shaped
like a label or set at a panel's top-left corner. Pixel arithmetic only
(numpy); the recogniser is in :mod:`medfig.vision.panel_labels`. Boxes are ``[x0, y0, x1, y1]``
in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

import re

import numpy as np

from medfig.geometry import PixelBox
from medfig.vision.text_blocks import axis_gap

INK_CONTRAST = 80  # grey levels off the background: a pixel this far from it is ink
FREE_MARGIN = 0.4  # of the glyph height: the ring round a label that must be blank
FREE_MAX_INK = 0.01  # share of that ring's pixels that may be ink (JPEG noise, a stray dot)


def stands_free(gray: np.ndarray, box: PixelBox, lines_allowed: bool = False) -> bool:
    """Is the glyph in ``box`` (pixels, origin top-left) alone on its background: no ink in a
    ring of ``FREE_MARGIN`` of its height round it? Ink is any pixel far (> INK_CONTRAST grey levels)
    from the ring's median tone, so dark letters on white and white letters on a flat dark
    panel both count. A letter of a word or of a rotated axis title ("E" of "Max Excitatory
    Enh.") has its neighbouring glyphs in that ring; a letter on a photo has texture there.
    ``lines_allowed``: rows and columns of the window that are ink all across (a frame or an axis
    line passing the letter) do not count."""
    x0, y0, x1, y1 = box
    m = max(2, round(FREE_MARGIN * (y1 - y0)))
    H, W = gray.shape[:2]
    X0, Y0, X1, Y1 = max(0, x0 - m), max(0, y0 - m), min(W, x1 + m), min(H, y1 + m)
    window = gray[Y0:Y1, X0:X1].astype(np.int16)
    ring = np.ones(window.shape, dtype=bool)
    ring[y0 - Y0 : y1 - Y0, x0 - X0 : x1 - X0] = False
    if not ring.any():
        return True
    ink = np.abs(window - np.median(window[ring])) > INK_CONTRAST
    if lines_allowed:
        # a frame or axis line running past the letter (through the whole ring) is no neighbour:
        # a panel letter is often set just inside a chart's frame, a word's next glyph is a blob
        ink[:, ink.mean(axis=0) >= 0.9] = False
        ink[ink.mean(axis=1) >= 0.9, :] = False
    return float(ink[ring].mean()) <= FREE_MAX_INK


SUB_GAP = 0.45  # of the letter height: the widest blank between a letter and its sub-number


def reach_right(gray: np.ndarray, box: PixelBox) -> int:
    """Right end of the ink that follows the glyph in ``box`` on its line (the "ii" of "Aii",
    the "2" of "a2"): columns with ink (> INK_CONTRAST grey levels off the background) over the glyph's
    rows, blanks of at most ``SUB_GAP`` of its height between them, up to 2.5 heights on.
    ``box[2]`` when nothing follows."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    W = gray.shape[1]
    strip = gray[y0:y1, x1 : min(W, x1 + int(2.5 * h))].astype(np.int16)
    if strip.size == 0:
        return x1
    ring = np.concatenate([gray[max(0, y0 - 2), x0:x1], gray[min(gray.shape[0] - 1, y1 + 1), x0:x1]]).astype(np.int16)
    background = int(np.median(ring)) if ring.size else int(np.median(strip))
    inked = (np.abs(strip - background) > INK_CONTRAST).any(axis=0)
    end, blank = x1, 0
    for k, ink in enumerate(inked):
        if ink:
            end, blank = x1 + k + 1, 0
        else:
            blank += 1
            if blank > SUB_GAP * h:
                break
    return end


NUMBER = re.compile(r"^[-\u2212]?\d+(?:[.,]\d+)?%?$")
ALIGN_SHARE = 0.2  # of the text height: edges of one axis's labels this close are lined up


def same_axis(box: PixelBox, tick: PixelBox) -> bool:
    """Is ``box`` another tick label of the axis ``tick`` belongs to: the same text height
    (within ALIGN_SHARE of it, at least 2 px), lined up with it (right or left edges in a column, tops in a row) and
    near it (within 4 text heights: tick labels are spaced evenly and closely)?"""
    h = tick[3] - tick[1]
    # 2 px on the 9 px text of a 144-dpi crop; the same share of larger text (a file saved at
    # 1.5-2x puts its anti-aliased edges 3-4 px apart)
    tol = max(2.0, ALIGN_SHARE * h)
    if abs((box[3] - box[1]) - h) > tol:
        return False
    dy = max(0, max(box[1], tick[1]) - min(box[3], tick[3]))
    column = (abs(box[2] - tick[2]) <= tol or abs(box[0] - tick[0]) <= tol) and dy <= 4 * h
    return column or same_row(box, tick)


def same_row(box: PixelBox, tick: PixelBox) -> bool:
    """:func:`same_axis` along a row only: the next x tick label of the row ``tick`` is in."""
    h = tick[3] - tick[1]
    tol = max(2.0, ALIGN_SHARE * h)
    dx = max(0, max(box[0], tick[0]) - min(box[2], tick[2]))
    return abs((box[3] - box[1]) - h) <= tol and abs(box[1] - tick[1]) <= tol and dx <= 4 * h


ROW_MIN_GLYPHS = 3  # a compact letter display ("a  a  ab  b" over a chart's bars) has one per bar
# Blank between neighbours of one such row, in the taller one's height: more than a word space
# ("0 h" beside a panel's "C" is half a letter height), at most ROW_GAP_HEIGHTS (panels are many
# letter heights wide: a figure's one letter per panel is never this close to the next)
ROW_MIN_GAP_HEIGHTS = 0.6
ROW_GAP_HEIGHTS = 4.0
ROW_HEIGHT_SPREAD = 1.45  # tallest / shortest glyph of one row: one font size, "b" beside "a"


def in_letter_row(gray: np.ndarray, box: PixelBox) -> bool:
    """Is the glyph in ``box`` one of a row of at least ROW_MIN_GLYPHS glyphs of its size on its
    line, with only blank between neighbours, wider than a word space and narrower than
    ROW_GAP_HEIGHTS: the significance letters over a chart's bars? Each stands free and reads as
    a letter (mdpi agronomy charts: the "b" of "a b a b" was taken for panel b), but a figure
    prints one letter per panel, and panels are many letter heights apart. The glyphs of a word or
    heading after a panel letter are closer than a word space, so they make no row."""
    import cv2

    x0, y0, x1, y1 = box
    h = y1 - y0
    if h < 3:
        return False
    reach = round((ROW_GAP_HEIGHTS + 1.3) * h * (ROW_MIN_GLYPHS - 1))
    H, W = gray.shape[:2]
    X0, X1 = max(0, x0 - reach), min(W, x1 + reach)
    pad = round((ROW_HEIGHT_SPREAD - 1) * h) + 2  # room for a taller neighbour ("b" beside "a")
    Y0, Y1 = max(0, y0 - pad), min(H, y1 + pad)
    strip = gray[Y0:Y1, X0:X1].astype(np.int16)
    ink = (np.abs(strip - np.median(strip)) > INK_CONTRAST).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    others = []  # components on the glyph's line, left or right of it
    own = []  # heights of the glyph itself as its ink measures (the box may hold an anti-aliased rim)
    for i in range(1, n):
        bx, by, bw, bh, _ = (int(v) for v in stats[i])
        top, bottom = Y0 + by, Y0 + by + bh
        if min(bottom, y1) - max(top, y0) <= 0:
            continue  # off the line
        if X0 + bx < x1 and X0 + bx + bw > x0:
            own.append(bh)
            continue
        cut = (by == 0 and Y0 > 0) or (by + bh == Y1 - Y0 and Y1 < H)  # runs on past the strip: a bar, a line
        others.append((X0 + bx, X0 + bx + bw, bh, top, bottom, cut))
    h = max(own) if own else h
    # every component on the line, in order: neighbours in a row have nothing but blank between them
    line = [(x0, x1, h, True)] + [
        (a, b, bh, not cut and max(bh, h) <= ROW_HEIGHT_SPREAD * min(bh, h) and b - a <= 1.3 * bh
         and min(bottom, y1) - max(top, y0) >= 0.6 * min(bh, h))
        for a, b, bh, top, bottom, cut in others]
    line.sort()

    def close(a, b) -> bool:  # further apart than the words of a label, closer than panels
        return a[3] and b[3] and ROW_MIN_GAP_HEIGHTS * max(a[2], b[2]) <= b[0] - a[1] <= ROW_GAP_HEIGHTS * max(a[2], b[2])

    left = right = line.index((x0, x1, h, True))
    while left > 0 and close(line[left - 1], line[left]):
        left -= 1
    while right + 1 < len(line) and close(line[right], line[right + 1]):
        right += 1
    return right - left + 1 >= ROW_MIN_GLYPHS


WORD_GAP = 0.25  # of the text height: a blank wider than this ends a word (letters sit closer)


def first_word(gray: np.ndarray, box: PixelBox) -> PixelBox:
    """The first word of the text line in ``box``: from its left edge to the first blank run
    of columns wider than ``WORD_GAP`` of its height ("A:" of "A: 60 x 120 Networks",
    "(A)" of "(A) Change in HIV incidence"). ``box`` itself when no such blank is found."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    strip = gray[y0:y1, x0:x1].astype(np.int16)
    if strip.size == 0:
        return box
    background = int(np.median(strip))  # a text line is mostly background
    inked = (np.abs(strip - background) > INK_CONTRAST).any(axis=0)
    end, blank, started = x0, 0, False
    for k, ink in enumerate(inked):
        if ink:
            end, blank, started = x0 + k + 1, 0, True
        elif started:
            blank += 1
            if blank > WORD_GAP * h:
                return (x0, y0, end, y1)
    return box


# Glyphs that measure a figure's text size: at least this share of its longer side tall (below:
# JPEG specks and stipple, which a larger file resolves into more, smaller blobs) and at most
# TEXT_MAX_SHARE (above: markers, shapes, whole pictures); proportioned like a letter or digit.
TEXT_MIN_SHARE = 0.005
TEXT_MAX_SHARE = 0.05
TEXT_MIN_GLYPHS = 30  # a chart has dozens (ticks, titles, legend); a photo grid only its few panel letters, set larger than text
TEXT_PAGE_SHARE = 0.6  # of the area round a glyph (one height on each side) that is light page


def text_height(gray: np.ndarray) -> float | None:
    """The figure's own text size in pixels: the median height of the dark glyphs printed on the
    light page (tick labels, axis titles, legends, panel letters). It grows with the resolution
    the figure was saved at -- the same chart as a 144-dpi crop and as a 3x original file
    measures 9 and 27 px -- so it says at which scale a figure is being read. Texture inside
    a photo is not on light page and does not count. None when the figure shows too little
    text (a photo grid)."""
    import cv2

    H, W = gray.shape[:2]
    side = max(H, W)
    dark = (gray < 128).astype(np.uint8)
    page = cv2.integral((gray >= 200).astype(np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    heights = []
    for x, y, w, h, ink in stats[1:].tolist():
        if not max(3, TEXT_MIN_SHARE * side) <= h <= TEXT_MAX_SHARE * side or not 0.2 * h <= w <= 1.5 * h:
            continue
        if not 0.15 <= ink / (w * h) <= 0.9:
            continue
        X0, Y0, X1, Y1 = max(0, x - h), max(0, y - h), min(W, x + w + h), min(H, y + 2 * h)
        light = page[Y1, X1] - page[Y0, X1] - page[Y1, X0] + page[Y0, X0]
        if light >= TEXT_PAGE_SHARE * (X1 - X0) * (Y1 - Y0):
            heights.append(h)
    return float(np.median(heights)) if len(heights) >= TEXT_MIN_GLYPHS else None


PLATE_MIN_TEXT_HEIGHTS, PLATE_MAX_TEXT_HEIGHTS = 1.2, 5.0  # a plate's side, in the figure's text heights
PLATE_NO_TEXT_MAX_SIDE = 0.06  # ... of the figure's longer side where its text cannot be measured
PLATE_ASPECT = (0.7, 1.5)  # width / height of a plate: about square
PLATE_DARK_SHARE = (0.5, 0.95)  # of its box that is dark: filled, less the glyph cut out of it
PLATE_GLYPH_SHARE = (0.05, 0.45)  # of its box that is light: one letter's strokes
PLATE_EDGE_DARK = 0.9  # share of its outline that is dark: a rectangle, the glyph inside it


def letter_plates(gray: np.ndarray, text_px: float | None) -> list[PixelBox]:
    """Dark, about square plates with one light glyph cut out of them: panel letters set white on a
    black square (Veterinary World, many radiology figures). They need no text block of their own
    and no panel corner: a plate at a panel's foot often touches its frame or rule, which merges it
    into a larger block. Boxes are pixels of ``gray``, origin top-left, largest plates first."""
    import cv2

    if text_px is None:  # too little text on the page to measure: any plate up to 6% of the side
        lo, hi = 8.0, PLATE_NO_TEXT_MAX_SIDE * max(gray.shape)
    else:
        lo, hi = max(8.0, PLATE_MIN_TEXT_HEIGHTS * text_px), PLATE_MAX_TEXT_HEIGHTS * text_px
    dark = (gray <= 80).astype(np.uint8)
    # a rule or frame side the plate sits on would join it into one long component: runs of dark
    # longer than two plates are lines, not plates, and are taken out first
    reach = max(20, int(2 * hi))
    lines = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((1, reach), np.uint8)) | cv2.morphologyEx(
        dark, cv2.MORPH_OPEN, np.ones((reach, 1), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(dark & (1 - lines), connectivity=4)
    plates = []
    for x, y, w, h, n in stats[1:].tolist():
        if not (lo <= h <= hi and PLATE_ASPECT[0] * h <= w <= PLATE_ASPECT[1] * h):
            continue
        if not PLATE_DARK_SHARE[0] <= n / (w * h) <= PLATE_DARK_SHARE[1]:
            continue
        box = gray[y : y + h, x : x + w]
        edge = np.concatenate([box[0], box[-1], box[:, 0], box[:, -1]])
        if float((edge <= 80).mean()) < PLATE_EDGE_DARK:
            continue  # a bold glyph ("B", "M"): dark and holed too, but not a filled rectangle
        light = float((box >= 170).mean())
        if PLATE_GLYPH_SHARE[0] <= light <= PLATE_GLYPH_SHARE[1]:
            plates.append((x, y, x + w, y + h))
    return sorted(plates, key=lambda b: -(b[3] - b[1]))


def letter_shaped(box: PixelBox) -> bool:
    """Width/height of one glyph ("A", "m"), a letter with its full stop ("C.") or in brackets
    ("(a)"; a bold "(A)" is only 1.4 times as wide as high); rotated axis titles and tick-label
    columns are taller and thinner, numbers like "1000" wider. Two-digit tick labels are in this
    shape too: once one is read, the rest of its axis is passed over."""
    ratio = (box[2] - box[0]) / max(1, box[3] - box[1])
    return 0.45 <= ratio <= 3.0


def label_proportioned(box: PixelBox) -> bool:
    """Could the box hold a printed panel label ("A", "A.", "(a)", "12")? A sliver four times
    wider than high (a piece of a rotated axis title, a tick mark) that the recogniser still
    reads as a letter is not one: such a read cut a chart in two at its "C". No lower bound:
    "i" and "l" are thin."""
    ratio = (box[2] - box[0]) / max(1, box[3] - box[1])
    return ratio <= 3.2


HEAD_REACH = 0.5  # of a panel's longer side: how far above-left of it its label may sit (the cut may leave a chart's title and axis text outside its box)


def heads_a_panel(box: PixelBox, panels: list[PixelBox]) -> bool:
    """Does the text block sit at a panel's top-left corner: left of its top, or above its top
    edge in its left half ("A: 60 x 120 Networks" over a chart)? A letter inside a line of text ("CYP 719 A 23" in a pathway) or
    under a chart's axis heads nothing."""
    for p in panels:
        pw, ph = p[2] - p[0], p[3] - p[1]
        slack = 0.1 * min(pw, ph)
        # above the panel's top in its left half (a heading's first word), or left of its top
        if box[0] <= p[0] + max(slack, 0.5 * pw if box[3] <= p[1] + slack else 0) and box[1] <= p[1] + slack:
            if np.hypot(p[0] - box[0], p[1] - box[1]) <= HEAD_REACH * max(pw, ph):
                return True
    return False


def has_close_neighbour(box: PixelBox, blocks: list[PixelBox]) -> bool:
    """Another text block within 0.4 of this one's height, beside or above/below it."""
    reach = 0.4 * (box[3] - box[1])
    for o in blocks:
        if o == box:
            continue
        if axis_gap(o, box) <= reach:
            return True
    return False
