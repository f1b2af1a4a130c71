"""Pieces of the XY-cut reshaped around the panel letters read.

- :func:`merge_unlettered_panels`: a piece without a letter (a colour bar, an EDX map beside
  its STEM image) joins the lettered panel it belongs to, when the caption names fewer
  panels than were cut.
- :func:`split_at_letters`: a piece that holds two or more letters (panels the XY-cut could
  not separate) is cut at the letters.

Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from medfig.compound.align import assign_labels_to_panels, box_gap, case_consistent, consistent_letters
from medfig.geometry import PixelBox, area, intersection, union
from medfig.text.subcaptions import ParsedCaption
from medfig.vision.panel_labels import PanelLabel
from medfig.vision.text_blocks import axis_gap

TEXT_REACH = 0.025  # text pieces this close (share of the figure's longer side) join their panel's box


def _belongs_to(piece: list[int], panel: list[int]) -> bool:
    """A piece belongs to a lettered panel when it is smaller, touches it (gap at most 3% of
    the panel's longer side) and lines up with one of its edges (within 4%)."""
    pw, ph = panel[2] - panel[0], panel[3] - panel[1]
    side = max(pw, ph)
    if area(piece) > 0.6 * pw * ph:
        return False
    if box_gap(tuple(piece), tuple(panel)) > 0.03 * side:  # type: ignore[arg-type]
        return False
    tol = 0.04 * side
    return any(abs(piece[k] - panel[k]) <= tol for k in range(4))


def merge_unlettered_panels(boxes: list[PixelBox], ocr_labels: list[PanelLabel], parsed: ParsedCaption) -> list[PixelBox]:
    """When the caption names fewer panels than were cut and letters were read, a piece
    without a letter (an EDX map beside its STEM image, a colour bar) joins the nearest
    lettered panel, if the joined box overlaps no other panel. MedICaT's subfigure is the
    lettered unit, not every separate picture."""
    letters = [l for l in parsed.labels if len(l) == 1]
    if not letters or len(boxes) <= len(letters) or any(l.sub for l in ocr_labels):
        return boxes  # sub-panel labels read ("a2", "Bii"): the pictures are the units, not the letters
    read, _ = consistent_letters(boxes, assign_labels_to_panels(boxes, case_consistent(ocr_labels, parsed), set(letters)))
    if len(read) < 2:
        return boxes
    merged = {i: list(b) for i, b in enumerate(boxes)}
    lettered = set(read)
    for i in sorted((i for i in merged if i not in lettered), key=lambda i: area(boxes[i])):
        if len(merged) <= len(letters):
            break
        if i not in merged:
            continue  # already taken in with a neighbour
        best = None
        for j in lettered:
            a, b = merged[i], merged[j]
            if not _belongs_to(a, b):
                continue
            joined = list(union((a, b)))
            inside = [k for k, o in merged.items() if k not in (i, j) and k not in lettered and within(o, joined)]
            clash = any(k not in (i, j) and k not in inside and intersection(joined, o) > 0 for k, o in merged.items())
            if not clash:
                gap = box_gap(tuple(a), tuple(b))  # type: ignore[arg-type]
                if best is None or gap < best[0]:
                    best = (gap, j, joined, inside)
        if best is not None:
            merged[best[1]] = best[2]
            for k in [i, *best[3]]:
                del merged[k]
    return [tuple(merged[i]) for i in sorted(merged)]  # type: ignore[misc]


def split_at_letters(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> tuple[list[PixelBox], set]:
    """A piece that holds two or more letters (panels the XY-cut could not separate: a chart
    touching the photos beside it) is cut at the letters, recursively: at a letter's left
    edge (letters side by side) or top edge (stacked), whichever separates the letters by
    the wider margin."""
    out: list[PixelBox] = []
    new_big = set(big)
    for b in pieces:
        parts = _cut_at_letters(b, [lb for lb in letter_boxes if _heads_inside(lb, b)])
        out.extend(parts)
        if b in big and len(parts) > 1:
            new_big.discard(b)
            new_big.update(parts)
    return out, new_big


def split_at_letter_rows(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> tuple[list[PixelBox], set]:
    """Rows of tiles with one letter per row (a microscopy row per condition, one tile per
    channel, the letter left of the row's first tile): a piece no letter heads, with a column of
    two or more stacked letters as its nearest letters to the left, is cut at the top of each of
    those letters that falls inside it, so each row's tiles go to that row's letter. A piece with
    a letter of its own at its top-left (a tall panel beside stacked ones) is left whole."""
    out: list[PixelBox] = []
    new_big = set(big)
    for b in pieces:
        parts = [b]
        ats = _stacked_letter_rows(b, letter_boxes)
        if ats:
            edges = [b[1], *ats, b[3]]
            parts = [(b[0], y0, b[2], y1) for y0, y1 in zip(edges, edges[1:])]
            if b in big:
                new_big.discard(b)
                new_big.update(parts)
        out.extend(parts)
    return out, new_big


def _stacked_letter_rows(b: PixelBox, letter_boxes: list[PixelBox]) -> list[int]:
    """Where the column of stacked letters left of piece ``b`` starts new rows inside it."""
    if not letter_boxes:
        return []
    h = sorted(lb[3] - lb[1] for lb in letter_boxes)[len(letter_boxes) // 2]
    if any(b[0] - 2 * h <= lb[0] <= b[0] + 2 * h and b[1] - 2 * h <= lb[1] <= b[1] + 2 * h for lb in letter_boxes):
        return []  # a letter heads the piece: its own panel
    left = [lb for lb in letter_boxes if lb[2] <= b[0] and lb[3] > b[1] - h and lb[1] < b[3]]
    if len(left) < 2:
        return []
    nearest = max(lb[0] for lb in left)
    column = [lb for lb in left if lb[0] >= nearest - h]
    if len(column) < 2 or any(lb[0] < b[0] and lb not in column and lb[2] > nearest for lb in left):
        return []
    # a row starts at each letter below the first, inside the piece and clear of its edges
    return sorted(lb[1] for lb in column if b[1] + h < lb[1] < b[3] - h)


def row_gaps(boxes: list[PixelBox]) -> list[tuple[int, int]]:
    """Blank horizontal bands [y0, y1) across the whole figure: rows no box covers."""
    spans = sorted((b[1], b[3]) for b in boxes)
    gaps: list[tuple[int, int]] = []
    end = spans[0][1]
    for y0, y1 in spans[1:]:
        if y0 > end:
            gaps.append((end, y0))
        end = max(end, y1)
    return gaps


def _heads_inside(lb: PixelBox, b: PixelBox) -> bool:
    """Does a letter head a part of piece ``b``: inside it, or just above its top edge
    (within the letter's height) over its width?"""
    h = lb[3] - lb[1]
    return b[0] <= lb[0] < b[2] and b[1] - h <= lb[1] < b[3] and lb[2] <= b[2] + 2


def _cut_at_letters(b: PixelBox, inside: list[PixelBox]) -> list[PixelBox]:
    if not inside:
        return [b]
    # the piece's own top-left corner stands for the letter left of / above it (a chart
    # piece that starts right of its letter and runs on into the next panel)
    inside = inside + [(b[0], b[1], b[0], b[1])]
    best = None
    for axis in (1, 0):  # rows first on a tie: rows are usually the outer layout structure
        order = sorted(inside, key=lambda lb: lb[axis])
        extent = b[axis + 2] - b[axis]
        for i in range(1, len(order)):
            at = order[i][axis]
            margin = at - max(lb[axis + 2] for lb in order[:i])
            # no sliver cuts: a letter a few pixels in from the piece's edge heads all of it
            if margin >= 0.1 * extent and b[axis] < at < b[axis + 2] and (best is None or margin > best[0]):
                best = (margin, axis, at)
    if best is None:
        return [b]
    _, axis, at = best
    if axis == 0:
        first, second = (b[0], b[1], at, b[3]), (at, b[1], b[2], b[3])
    else:
        first, second = (b[0], b[1], b[2], at), (b[0], at, b[2], b[3])
    real = inside[:-1]
    return _cut_at_letters(first, [lb for lb in real if _heads_inside(lb, first)]) + _cut_at_letters(
        second, [lb for lb in real if _heads_inside(lb, second)]
    )


def within(a: PixelBox, b: PixelBox) -> bool:
    """Does box ``a`` lie inside box ``b`` (edges may touch)?"""
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


# Pieces a caption does not name are panels only when they look like the tiles of one layout:
# the smallest at least this share of the largest, in area and in aspect ratio (width/height).
# A third: a 3 x 1 strip of equal tiles next to one big tile still passes; a chart and the
# strip of its own tick labels, or a flow chart and one of its boxes, do not.
ALIKE_MIN_RATIO = 1 / 3
LEGEND_MAX_INK = 0.35  # matplotlib legends: 0.15-0.21 of their box; photo tiles 0.7 and more


def pieces_alike(boxes: list[PixelBox]) -> bool:
    """Are the pieces comparable in size and shape, like the tiles of a panel layout?"""
    if len(boxes) < 2:
        return True
    areas = [area(b) for b in boxes]
    aspects = [(b[2] - b[0]) / max(1, b[3] - b[1]) for b in boxes]
    return min(areas) >= ALIKE_MIN_RATIO * max(areas) and min(aspects) >= ALIKE_MIN_RATIO * max(aspects)


def figure_legend_beside(boxes: list[PixelBox], image: Image.Image) -> PixelBox | None:
    """The one piece in a column of its own right of all the others (or a row of its own under
    them), under half the size of any of them and mostly the light page (``LEGEND_MAX_INK`` of its
    pixels away from the figure's commonest tone), while the others are alike: the legend or
    colour key the panels share ("Sham / Control / Vehicle" beside three charts). MedICaT's
    panels leave it out; kept, it made the pieces unlike and the figure one panel. A small photo
    tile at the edge is mostly ink and stays a panel."""
    if len(boxes) < 3:
        return None
    candidates = []
    for axis in (0, 1):
        last = max(boxes, key=lambda b: b[axis])
        others = [b for b in boxes if b != last]
        if (last[axis] >= max(b[2 + axis] for b in others) and pieces_alike(others)
                and 2 * area(last) < min(area(b) for b in others)):
            candidates.append(last)
    if not candidates:
        return None  # (the pixels are read only for a piece placed and sized like a legend)
    gray = np.asarray(image.convert("L"))
    background = int(np.bincount(gray.ravel(), minlength=256).argmax())
    if background < 128:
        return None  # a light page only: on black, a dark CT tile is as "empty" as a legend
    for x0, y0, x1, y1 in candidates:
        tile = gray[y0:y1, x0:x1].astype(np.int16)
        if tile.size and (np.abs(tile - background) > 40).mean() < LEGEND_MAX_INK:
            return (x0, y0, x1, y1)
    return None


def unnamed_and_unlike(boxes: list[PixelBox], caption_letters: list[str], ocr_labels: list[PanelLabel],
                       text_blocks: list[PixelBox] | None = None, side: int = 0) -> bool:
    """A split with no evidence of panels: the caption names no panel, the image shows no two
    panel letters, and the pieces are not alike (a chart cut from its tick labels, a flow
    chart cut into boxes, a chart and its table). Such a figure is one panel. Two or more
    pieces alike that each carry tick labels of their own are charts, evidence enough, whatever
    else was cut out beside them (a shared legend grouped with an axis title)."""
    if caption_letters or len(boxes) < 2:
        return False
    read = {l.text.lower() for l in ocr_labels if l.text.isalpha() and l.free}
    if len(read) >= 2:
        return False
    reach = max(4.0, TEXT_REACH * side)
    charts = [b for b in boxes if has_tick_labels(b, text_blocks, reach)] if text_blocks else []
    if len(charts) >= 2 and pieces_alike(charts):
        return False
    return not pieces_alike(boxes)


# A chart's tick labels: at least this many text blocks in one column beside a panel edge (or
# one row under it), lined up on one edge. A photo's neighbours are a letter or one header.
MIN_TICK_LABELS = 3


def _lined_up(values: list[int], heights: list[int]) -> bool:
    """Do at least MIN_TICK_LABELS of the edges agree within a third of the text height?"""
    if len(values) < MIN_TICK_LABELS:
        return False
    tol = max(2, round(0.35 * sorted(heights)[len(heights) // 2]))
    values = sorted(values)
    return any(values[i + MIN_TICK_LABELS - 1] - values[i] <= tol for i in range(len(values) - MIN_TICK_LABELS + 1))


def has_tick_labels(panel: PixelBox, text_blocks: list[PixelBox], reach: float) -> bool:
    """Is ``panel`` a chart's plot area: a column of right-aligned text blocks just left of it
    (y tick labels), left-aligned just right of it (a second y axis), or a row of top-aligned
    blocks just under it (x tick labels)?"""
    x0, y0, x1, y1 = panel
    left = [t for t in text_blocks if t[2] <= x0 + 2 and x0 - t[2] <= reach and t[1] < y1 and t[3] > y0]
    right = [t for t in text_blocks if t[0] >= x1 - 2 and t[0] - x1 <= reach and t[1] < y1 and t[3] > y0]
    under = [t for t in text_blocks if t[1] >= y1 - 2 and t[1] - y1 <= reach and t[0] < x1 and t[2] > x0]
    return (
        _lined_up([t[2] for t in left], [t[3] - t[1] for t in left])
        or _lined_up([t[0] for t in right], [t[3] - t[1] for t in right])
        or _lined_up([t[1] for t in under], [t[3] - t[1] for t in under])
    )


def grow_charts_over_text(panels: list[PixelBox], text_blocks: list[PixelBox], side: int) -> list[PixelBox]:
    """Chart panels (plot areas with tick labels, :func:`has_tick_labels`) take in the text
    the XY-cut left around them (tick labels, axis titles, chart title), ring by ring within
    ``TEXT_REACH`` of the figure's longer ``side``. A text block goes only to a panel it is
    clearly nearest to (less than half the gap to any other), and a panel never grows into
    another: a legend shared by two charts stays out of both. The splitter's own
    absorption skips panels with much ink (filled bars, patterned bars); the tick labels are
    the evidence here, whatever the ink."""
    if len(panels) < 2 or not text_blocks:
        return panels
    reach = max(4.0, TEXT_REACH * side)
    out = [tuple(p) for p in panels]
    charts = [i for i, p in enumerate(panels) if has_tick_labels(p, text_blocks, reach)]
    rest = [t for t in text_blocks if not any(within(t, p) for p in panels)]
    changed = True
    while changed and charts and rest:
        changed = False
        for t in list(rest):
            gaps = [axis_gap(t, o) for o in out]
            k = min(range(len(out)), key=gaps.__getitem__)
            if k not in charts or gaps[k] > reach:
                continue
            # not clearly nearer one panel (a legend between two charts): evidence for neither
            if any(j != k and gaps[j] <= 2 * gaps[k] + 2 for j in range(len(out))):
                continue
            grown = union((out[k], t))
            if any(j != k and intersection(grown, o) > 0 for j, o in enumerate(out)):
                continue
            out[k] = tuple(grown)
            rest.remove(t)
            changed = True
    return out  # type: ignore[return-value]


CONNECTOR_SPAN = 0.6  # share of the gap a drawn line must cover to join the pieces across it


def _connector_across(ink: np.ndarray, a: PixelBox, b: PixelBox) -> bool:
    """Does a drawn line (an arrow, a connector) cross the blank gap between pieces ``a`` and
    ``b``: one thin run of ink in the gap band, along the gap, over most of it?
    The XY-cut takes such a band for a gap because a 1-2 px line leaves almost no ink in it."""
    import cv2

    if a[3] <= b[1] or b[3] <= a[1]:  # stacked: the band between the bottom of one and the top of the other
        top, bottom = (a, b) if a[3] <= b[1] else (b, a)
        y0, y1 = top[3], bottom[1]
        x0, x1 = min(a[0], b[0]), max(a[2], b[2])
        band = ink[y0:y1, x0:x1]
        axis = 0
    else:  # side by side
        left, right = (a, b) if a[2] <= b[0] else (b, a)
        x0, x1 = left[2], right[0]
        y0, y1 = min(a[1], b[1]), max(a[3], b[3])
        band = ink[y0:y1, x0:x1]
        axis = 1
    if band.size == 0 or min(band.shape) < 1:
        return True  # touching pieces
    gap = band.shape[axis]
    _, _, stats, _ = cv2.connectedComponentsWithStats(band.astype(np.uint8), connectivity=8)
    for x, y, w, h, _ in stats[1:].tolist():
        along, across = (h, w) if axis == 0 else (w, h)
        # a line along the gap over most of it (an arrow may stop short of the boxes it
        # joins), much longer than thick: no glyph of a label or of text is
        if along >= CONNECTOR_SPAN * gap and along >= 4 * across:
            return True
    return False


MAX_DRAWING_NODES = 60  # pieces + text blocks: beyond this the figure is a chart grid, not a flow chart
CONNECTOR_REACH = 0.35  # share of the figure's longer side: the longest gap an arrow is looked for in (bounds the work)


def one_drawing(image, boxes: list[PixelBox], text_blocks: list[PixelBox], caption_letters: list[str],
                ocr_labels: list[PanelLabel]) -> bool:
    """A flow chart or schematic the XY-cut cut at the blank bands between its boxes: the
    caption names fewer than two panels, the image shows no two free-standing letters, and
    lines drawn across the gaps (arrows, connectors) join every piece into one drawing,
    directly or through the text boxes of the chart ("Cannabigerolic acid" between two
    arrows)."""
    if len(caption_letters) >= 2 or len(boxes) < 2:
        return False
    if len({l.text.lower() for l in ocr_labels if l.text.isalpha() and l.free}) >= 2:
        return False
    nodes = list(boxes) + [t for t in text_blocks if not any(within(t, b) for b in boxes)]
    if len(nodes) > MAX_DRAWING_NODES:
        return False
    gray = np.asarray(image.convert("L")).astype(np.int16)
    # a 1 px line is anti-aliased over two pixel columns at half its tone: ink is any pixel
    # 60 grey levels off the figure's background, not only the dark half of the range
    ink = np.abs(gray - int(np.median(gray))) > 60
    reach = CONNECTOR_REACH * max(gray.shape)
    parent = list(range(len(nodes)))  # union-find over nodes joined by a connector

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            a, b = nodes[i], nodes[j]
            overlap_x = min(a[2], b[2]) > max(a[0], b[0])
            overlap_y = min(a[3], b[3]) > max(a[1], b[1])
            if overlap_x == overlap_y or axis_gap(a, b) > reach or root(i) == root(j):
                continue  # diagonal, overlapping or far apart; or already joined
            if _connector_across(ink, a, b):
                parent[root(i)] = root(j)
    return len({root(i) for i in range(len(boxes))}) == 1
