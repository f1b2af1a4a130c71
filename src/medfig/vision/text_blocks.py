"""Text blocks of a compound figure: the small leaves of the XY-cut (panel letters such as
"(a)", axis and tick labels, legend entries, caption lines that DeepFigures-style crops
carry along).

- :func:`merge_text`: neighbouring small leaves on one text line become one block, so "(",
  "a", ")" are read as one label;
- :func:`is_rule`: thin lines stay out of that merge;
- :func:`absorb_chart_text`: a chart's axis labels, ticks and title, cut off its plot area
  by white gaps, join its panel box.

Boxes are ``[x0, y0, x1, y1]`` in pixels of the analysed image, origin top-left.
"""

from __future__ import annotations

import numpy as np

from medfig.geometry import PixelBox, intersection, union

# Charts and diagrams (ink covers less than this share of the panel box) take in the text
# blocks within this fraction of the figure's longer side: axis labels, ticks, titles.
CHART_INK_DENSITY = 0.3
CHART_TEXT_REACH = 0.02


def is_rule(box: PixelBox) -> bool:
    """A thin line (a frame edge, an underline, a bracket bar): not text, and merged with
    text it would join everything along its length into one block."""
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) <= 3 and max(w, h) >= 8 * min(w, h)


def axis_gap(a: PixelBox, b: PixelBox) -> int:
    """The larger of the horizontal and vertical gaps between two boxes (0 when they touch
    or overlap): how far one block stands beside, above or below the other."""
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return max(dx, dy)


def merge_text(boxes: list[PixelBox]) -> list[PixelBox]:
    """Join small leaves that sit on one text line with small horizontal gaps.

    Pairs are tested all at once (numpy) and merged in passes (each block joins at most one
    other per pass, closest gap first) until nothing joins: a chart leaves hundreds of tick
    and legend glyphs, and a pairwise Python loop over them cost ~0.1 s per figure."""
    blocks = np.array(sorted(boxes, key=lambda b: (b[1], b[0])), dtype=np.int64).reshape(-1, 4)
    line_h = blocks[:, 3] - blocks[:, 1]  # tallest original piece in each block: its line height
    while len(blocks) > 1:
        x0, y0, x1, y1 = (blocks[:, k] for k in range(4))
        h = y1 - y0
        hmax = np.maximum(h[:, None], h[None, :])
        lmax = np.maximum(line_h[:, None], line_h[None, :])
        v_overlap = np.minimum(y1[:, None], y1[None, :]) - np.maximum(y0[:, None], y0[None, :])
        h_gap = np.maximum(x0[:, None], x0[None, :]) - np.minimum(x1[:, None], x1[None, :])
        merged_h = np.maximum(y1[:, None], y1[None, :]) - np.minimum(y0[:, None], y0[None, :])
        # one text line: the join must stay about one line tall, otherwise a chain of
        # overlapping pieces (tick labels, a rotated axis title, legend rows) snowballs
        # into one block that covers a whole chart and hides its panel letter
        ok = (v_overlap >= 0.4 * np.minimum(h[:, None], h[None, :])) & (h_gap <= 0.6 * hmax) & (merged_h <= 1.5 * lmax)
        ok = np.triu(ok, 1)
        ii, jj = np.nonzero(ok)
        if ii.size == 0:
            break
        order = np.argsort(h_gap[ii, jj], kind="stable")
        used = np.zeros(len(blocks), dtype=bool)
        keep = np.ones(len(blocks), dtype=bool)
        for i, j in zip(ii[order], jj[order]):
            if used[i] or used[j]:
                continue
            used[i] = used[j] = True
            a, b = blocks[i], blocks[j]
            blocks[i] = list(union((a, b)))
            line_h[i] = max(line_h[i], line_h[j])
            keep[j] = False
        blocks, line_h = blocks[keep], line_h[keep]
    return [tuple(int(v) for v in b) for b in blocks]  # type: ignore[misc]


def _ink_density(ink: np.ndarray, box: PixelBox) -> float:
    x0, y0, x1, y1 = box
    return float(ink[y0:y1, x0:x1].mean()) if x1 > x0 and y1 > y0 else 0.0


def absorb_chart_text(panels: list[PixelBox], text: list[PixelBox], ink: np.ndarray, side: int) -> list[PixelBox]:
    """A chart's axis labels, tick labels and title are cut off its plot area by white
    gaps; they belong to the panel. Sparse panels (charts, diagrams: little ink inside)
    take in the text blocks next to them, one ring at a time, never growing into another
    panel. Dense panels (photographs, radiology) keep their edges: a letter or a caption
    line under them is not part of the image."""
    reach = max(4, round(CHART_TEXT_REACH * side))
    out = list(panels)
    # each text block belongs to the panel it is nearest to: a rotated y-axis title sits
    # between its own chart and the chart to its left, and the first chart to grow must not
    # take it (it then cuts its own chart's title off and overlaps it)
    nearest = {t: min(range(len(panels)), key=lambda j: axis_gap(t, panels[j])) for t in text} if panels else {}
    for idx, panel in enumerate(panels):
        if _ink_density(ink, panel) >= CHART_INK_DENSITY:
            continue
        box = list(panel)
        changed = True
        while changed:
            changed = False
            for t in text:
                if nearest[t] != idx and axis_gap(t, panels[nearest[t]]) < axis_gap(t, panel):
                    continue
                if t[0] >= box[0] and t[1] >= box[1] and t[2] <= box[2] and t[3] <= box[3]:
                    continue
                if axis_gap(t, box) > reach:
                    continue
                grown = list(union((box, t)))
                if any(j != idx and intersection(grown, o) > 0 for j, o in enumerate(out)):
                    continue
                box = grown
                changed = True
        out[idx] = tuple(box)  # type: ignore[assignment]
    return out
