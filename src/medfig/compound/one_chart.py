"""Pieces that are the plot parts of one chart, not panels.

The XY-cut cuts a bar chart without an axis line between its bars, and a chart faceted into
strips at the blank bands between the strips. What tells such pieces from a row (or column) of
charts is the chart's own axis: a row of charts repeats its y tick labels left of each chart,
while the bars of one chart share the one column of tick labels left of the first bar; a
column of charts repeats its x tick labels under each, while the facets of one chart share the
row under the last facet.
Photos are never such pieces, and pieces that carry panel letters of their own stay apart.

Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

import numpy as np

from medfig.compound.pieces import MIN_TICK_LABELS, within
from medfig.geometry import PixelBox
from medfig.vision.panel_labels import PanelLabel
from medfig.vision.seams import is_picture

# Internally a layout is seen along one axis: u runs along the row (x for a row of pieces
# with y tick labels before it; for a column with x tick labels under it, u is y flipped, so
# that the tick labels come "before" the pieces there too) and v across it.
Span = tuple[int, int, int, int]  # u0, v0, u1, v1


def _to_uv(b: PixelBox, axis: int) -> Span:
    return (b[0], b[1], b[2], b[3]) if axis == 0 else (-b[3], b[0], -b[1], b[2])


def _from_uv(s: Span, axis: int) -> PixelBox:
    return (s[0], s[1], s[2], s[3]) if axis == 0 else (s[1], -s[2], s[3], -s[0])


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return min(a1, b1) - max(a0, b0)


def _ticks(blocks: list[Span], axis: int) -> list[Span]:
    """At least MIN_TICK_LABELS blocks whose edge nearest the plot (u1) agrees within a third
    of the text height: the tick labels of one axis. Of several such columns (tick labels and
    the pieces of a rotated axis title beside them) the nearest the plot."""
    if len(blocks) < MIN_TICK_LABELS:
        return []
    heights = sorted((b[3] - b[1]) if axis == 0 else (b[2] - b[0]) for b in blocks)
    tol = max(2, round(0.35 * heights[len(heights) // 2]))
    for edge in sorted({b[2] for b in blocks}, reverse=True):
        run = [b for b in blocks if abs(b[2] - edge) <= tol]
        if len(run) >= MIN_TICK_LABELS:
            return run
    return []


def _spans(ticks: list[Span], pieces: list[Span]) -> bool:
    """Does the tick run reach along every piece (within two text sizes)?"""
    size = sorted(min(t[2] - t[0], t[3] - t[1]) for t in ticks)[len(ticks) // 2]
    lo, hi = min(t[1] for t in ticks), max(t[3] for t in ticks)
    return all(p[1] >= lo - 2 * size and p[3] <= hi + 2 * size for p in pieces)


def _bands(pieces: list[Span]) -> list[list[Span]]:
    """Pieces grouped into rows: each overlaps the row across (v) by half its own extent."""
    bands: list[list[Span]] = []
    for p in sorted(pieces, key=lambda s: (s[1], s[0])):
        for band in bands:
            v0, v1 = min(q[1] for q in band), max(q[3] for q in band)
            if _overlap(p[1], p[3], v0, v1) >= 0.5 * (p[3] - p[1]):
                band.append(p)
                break
        else:
            bands.append([p])
    return [sorted(band) for band in bands]


def _charts_in_band(band: list[Span], texts: list[Span], axis: int) -> list[list[Span]]:
    """The band's pieces grouped into charts: a new chart starts at a piece with tick labels
    of its own before it. [] when the first piece has no axis spanning its group."""
    v0, v1 = min(p[1] for p in band), max(p[3] for p in band)
    reach = (v1 - v0) // 6  # the top tick label may sit above the tallest bar
    v0, v1 = v0 - reach, v1 + reach
    groups: list[list[Span]] = []
    axes: list[list[Span]] = []
    previous_end = None
    for p in band:
        before = [t for t in texts if t[2] <= p[0] + 2 and (previous_end is None or t[0] >= previous_end - 2)
                  and _overlap(t[1], t[3], v0, v1) > 0]
        # a block beside the piece as tall as half of it (a colour bar merged with the next chart's
        # axis title and tick labels) is an axis of its own too: the bars of one chart have
        # nothing between them
        ticks = _ticks(before, axis) or [t for t in before if t[3] - t[1] >= 0.5 * (p[3] - p[1])]
        if ticks or not groups:
            groups.append([p])
            axes.append(ticks)
        else:
            groups[-1].append(p)
        previous_end = p[2]
    if not axes[0] or not all(_spans(ticks, group) for ticks, group in zip(axes, groups) if ticks):
        return []
    return groups


def plot_parts_of_one_chart(image, boxes: list[PixelBox], text_blocks: list[PixelBox],
                            ocr_labels: list[PanelLabel]) -> bool:
    """Are all the pieces the plot parts of one chart (see module doc): one row (column) on one
    axis, no two of them lettered, none a photo? Pieces that hold their chart's tick labels
    inside them (a framed chart) give no evidence here, so a partial join (four bars of two
    charts into two) is not made: a row of framed charts would look like the bars of the first
    one's axis."""
    if len(boxes) < 2:
        return False
    for axis in (0, 1):
        bands = _bands([_to_uv(b, axis) for b in boxes])
        if len(bands) == 1 and len(_charts_in_band(bands[0], [_to_uv(t, axis) for t in text_blocks], axis)) == 1:
            letters = [l.box for l in ocr_labels if l.text.isalpha() and l.free]
            if sum(any(within(lb, b) for lb in letters) for b in boxes) >= 2:
                return False
            gray = np.asarray(image.convert("L"))
            return not any(is_picture(gray[b[1] : b[3], b[0] : b[2]]) for b in boxes)
    return False
