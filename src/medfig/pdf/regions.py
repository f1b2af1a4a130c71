"""Figure and table region proposals from three kinds of evidence, snapped to PDF objects.

1. The layout detector's figure/table boxes (rapid-layout), which find figures of any
   kind but are padded by several points.
2. Graphic clusters: embedded raster placements and vector paths drawn close together.
3. Text drawn inside or around graphics (axis labels, panel letters): short lines, or
   rotated words, next to a graphic region.

A detector box is *snapped*: its region becomes the union of the drawn objects inside it
(plus figure text touching them), so the box is exactly the PDF's own art — tight boxes
are what IoU >= 0.9 needs. Graphic clusters the detector missed (vector charts) become
proposals of their own. Tables snap to their words and rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from medfig.geometry import (PointBox, area, edge_distance, expand, horizontal_overlap, inside_fraction, intersection, iou,
                             union)
from medfig.pdf.graphics import GraphicCluster, cluster_graphics
from medfig.pdf.layout import LayoutBox
from medfig.pdf.types import PageData, PdfCaption, Word

MIN_FIGURE_SIDE_PT = 30.0
LAYOUT_MIN_SCORE = 0.3
GROW_PT = 11.0  # figure text and rules within this distance of the art belong to it (tick labels stack ~8 pt apart, legends ~10)
_FIGURE_TEXT_MAX_CHARS = 40  # longer lines are body text, not axis labels


@dataclass(slots=True)
class Region:
    box: PointBox  # PDF points, origin top-left
    kind: str  # figure | table
    source: str  # images | vector | layout | layout-raw
    score: float = 1.0


def figure_words(page: PageData, captions: list[PdfCaption], clusters: list[GraphicCluster]) -> list[Word]:
    """Words that may belong to a figure, never caption words: rotated words, words of short
    lines or of lines set smaller than the body text (axis titles, legends), words on graphics."""
    figure_line_words = set()
    for line in page.lines:
        if len(line.text) <= _FIGURE_TEXT_MAX_CHARS or line.size < page.body_size - 0.5:
            figure_line_words.update(id(w) for w in line.words)
    out = []
    for w in page.words:
        if any(inside_fraction(w.box, c.box_pt) > 0.5 for c in captions):
            continue
        if not w.upright or id(w) in figure_line_words or any(inside_fraction(w.box, cl.box) > 0.5 for cl in clusters):
            out.append(w)
    return out


def grow_with_text(box: PointBox, words: list[Word], rules: list[PointBox] = ()) -> PointBox:
    """Add figure words and rules (grid lines, axes) near the region, a few passes:
    tick labels stack next to tick labels, grid lines next to grid lines."""
    items = [w.box for w in words] + list(rules)
    for _ in range(8):
        grown = [b for b in items if edge_distance(b, box) <= GROW_PT]
        new = union([box, *grown])
        if new == box:
            break
        box = new
    return box


def _horizontal_rules(page: PageData) -> list[PointBox]:
    """Thin horizontal paths joined into whole rules: many PDFs draw one rule per cell."""
    segs = sorted((g.box for g in page.graphics if g.kind == "path" and g.thin and (g.box[2] - g.box[0]) > (g.box[3] - g.box[1])),
                  key=lambda b: (round(b[1]), b[0]))
    rules: list[list[float]] = []
    for b in segs:
        last = rules[-1] if rules else None
        if last and abs(last[1] - b[1]) < 0.8 and b[0] <= last[2] + 1.5:
            last[2] = max(last[2], b[2])
            last[3] = max(last[3], b[3])
        else:
            rules.append(list(b))
    return [tuple(r) for r in rules]


def _grow_table(page: PageData, box: PointBox, captions: list[PdfCaption]) -> PointBox:
    """Extend a table to its rules and rows the detector cut off (header rows above, last rows below).

    A line joins when it sits within one line height of the table, inside its columns,
    and is not a caption; a horizontal rule joins when it spans most of the table's width.
    Below a bottom rule only rows that are themselves closed by a rule join (grid tables):
    footnotes under the last rule stay out.
    """
    cap_boxes = [c.box_pt for c in captions]
    rules = _horizontal_rules(page)
    for _ in range(40):
        changed = False
        reach = 1.0 * page.body_size
        for r in rules:
            if horizontal_overlap(r, box) < 0.6 * (box[2] - box[0]):
                continue
            if any(intersection(expand(r, 0.5), c) > 0 for c in cap_boxes):
                continue
            if -reach <= box[1] - r[3] <= reach and r[1] < box[1] - 0.1:
                box, changed = (min(box[0], r[0]), r[1], max(box[2], r[2]), box[3]), True
            if -reach <= r[1] - box[3] <= reach and r[3] > box[3] + 0.1:
                box, changed = (min(box[0], r[0]), box[1], max(box[2], r[2]), r[3]), True
        bottom_rule = any(abs(r[3] - box[3]) < 1.0 and horizontal_overlap(r, box) > 0.6 * (box[2] - box[0]) for r in rules)
        for line in page.lines:
            lb = line.box
            if any(inside_fraction(lb, c) > 0.5 for c in cap_boxes) or inside_fraction(lb, box) > 0.99:
                continue
            if lb[0] < box[0] - 2 or lb[2] > box[2] + 2:
                continue
            above = 0 <= box[1] - lb[3] <= 0.6 * line.size
            below = 0 <= lb[1] - box[3] <= 0.6 * line.size
            if below and bottom_rule:
                below = any(0 <= r[1] - lb[3] <= 0.8 * line.size and horizontal_overlap(r, box) > 0.6 * (box[2] - box[0])
                            for r in rules)
            if above or below:
                box, changed = union([box, lb]), True
        if not changed:
            break
    return box


def trim_captions(box: PointBox, captions: list[PdfCaption]) -> PointBox:
    """Cut a region where it runs into a caption: keep the larger side."""
    for cap in captions:
        c = cap.box_pt
        if intersection(box, c) <= 0:
            continue
        above = (box[0], box[1], box[2], min(box[3], c[1] - 1))
        below = (box[0], max(box[1], c[3] + 1), box[2], box[3])
        box = above if area(above) >= area(below) else below
    return box


def _nms_contained(boxes: list[LayoutBox]) -> list[LayoutBox]:
    """Drop detector boxes mostly inside a higher-scoring or larger box of the same class."""
    keep: list[LayoutBox] = []
    for b in sorted(boxes, key=lambda b: -area(b.box)):
        if any(inside_fraction(b.box, k.box) > 0.7 or iou(b.box, k.box) > 0.5 for k in keep):
            continue
        keep.append(b)
    return keep


def rules_inside(page: PageData, near: PointBox) -> list[PointBox]:
    """Thin paths (grid lines, axes, ticks) inside ``near``: a chart's rules, not the page's."""
    return [g.box for g in page.graphics if g.thin and inside_fraction(g.box, near) > 0.9]


FRAME_MARGIN_PT = 24.0


def _enclosing_frame(page: PageData, box: PointBox, captions: list[PdfCaption] = ()) -> PointBox | None:
    """A hairline frame drawn around the art (eLife draws one round every figure): four thin
    paths, each within ``FRAME_MARGIN_PT`` of the art's side and spanning it. The frame is
    what the reader sees as the figure's edge, so it becomes the region. A frame that also
    holds a caption (BMC and Frontiers box figure and caption together) is the publisher's
    panel around both, not the art's edge: the art keeps its own box."""
    x0, y0, x1, y1 = box
    m = FRAME_MARGIN_PT
    thin = [g.box for g in page.graphics if g.thin]
    hor = [b for b in _horizontal_rules(page) if b[0] <= x0 + 1 and b[2] >= x1 - 1]
    top = [b for b in hor if y0 - m <= b[1] <= y0 + 0.5]
    bottom = [b for b in hor if y1 - 0.5 <= b[3] <= y1 + m]
    ver = [b for b in thin if (b[3] - b[1]) > (b[2] - b[0]) and b[1] <= y0 + 1 and b[3] >= y1 - 1]
    left = [b for b in ver if x0 - m <= b[0] <= x0 + 0.5]
    right = [b for b in ver if x1 - 0.5 <= b[2] <= x1 + m]
    if not (top and bottom and left and right):
        return None
    # the nearest rule on each side, not a page-wide border farther out
    frame = (max(b[0] for b in left), max(b[1] for b in top), min(b[2] for b in right), min(b[3] for b in bottom))
    if any(inside_fraction(c.box_pt, frame) > 0.5 for c in captions):
        return None
    return union([frame, box])


def _mostly_caption(box: PointBox, captions: list[PdfCaption]) -> bool:
    """A detector 'figure'/'table' box that is really a caption (the model confuses them)."""
    return any(intersection(box, c.box_pt) > 0.5 * area(box) for c in captions)


def snap_layout_box(page: PageData, lb: LayoutBox, clusters: list[GraphicCluster], words: list[Word],
                    captions: list[PdfCaption]) -> Region:
    limit = expand(lb.box, 4.0)
    if lb.label == "table":
        inner = [w.box for w in page.words if inside_fraction(w.box, limit) > 0.6
                 and not any(inside_fraction(w.box, c.box_pt) > 0.5 for c in captions)]
        rules = [g.box for g in page.graphics if inside_fraction(g.box, limit) > 0.8]
        box = union(inner + rules)
        if box is None:
            return Region(lb.box, "table", "layout-raw", lb.score)
        box = _grow_table(page, box, captions)
        return Region(trim_captions(box, captions), "table", "layout", lb.score)
    objs = [g.box for cl in clusters for g in cl.members if inside_fraction(g.box, limit) > 0.6]
    # whole clusters that the detector box mostly covers (it often misses a panel edge)
    for cl in clusters:
        if not cl.only_rules and inside_fraction(cl.box, limit) > 0.5:
            objs.append(cl.box)
    art = union(objs)
    if art is not None:
        # clusters touching the art are the same figure (a panel the detector cut off)
        art = union([art, *(cl.box for cl in clusters if not cl.only_rules and intersection(cl.box, expand(art, 1.0)) > 0)])
    if art is None:
        inner = [w.box for w in words if inside_fraction(w.box, limit) > 0.8]
        art = union(inner)
        if art is None or area(art) < 0.2 * area(lb.box):
            return Region(lb.box, "figure", "layout-raw", lb.score)
    box = grow_with_text(art, words, rules_inside(page, limit))
    box = _enclosing_frame(page, box, captions) or box
    trimmed = trim_captions(box, captions)
    if trimmed != box:
        # a detector box spanning several figures was cut at a caption: shrink what is left
        # back onto the objects inside it, or it keeps the white space the cut left behind
        inner = [g.box for g in page.graphics if inside_fraction(g.box, trimmed) > 0.9]
        inner += [w.box for w in words if inside_fraction(w.box, trimmed) > 0.9]
        trimmed = union(inner) or trimmed
    return Region(trimmed, "figure", "layout", lb.score)


def propose_regions(page: PageData, layout: list[LayoutBox] | None, captions: list[PdfCaption]) -> list[Region]:
    """All figure/table region proposals on a page (layout=None: PDF objects only, cheap mode)."""
    clusters = [c for c in cluster_graphics(page) if not c.only_rules]
    words = figure_words(page, captions, clusters)
    regions: list[Region] = []
    if layout:
        wanted = [b for b in layout if b.label in ("figure", "table") and b.score >= LAYOUT_MIN_SCORE
                  and not _mostly_caption(b.box, captions)]
        for label in ("figure", "table"):
            for lb in _nms_contained([b for b in wanted if b.label == label]):
                regions.append(snap_layout_box(page, lb, clusters, words, captions))
    for cl in clusters:
        w, h = cl.box[2] - cl.box[0], cl.box[3] - cl.box[1]
        if w < MIN_FIGURE_SIDE_PT or h < MIN_FIGURE_SIDE_PT:
            continue
        if any(inside_fraction(cl.box, r.box) > 0.5 for r in regions):
            continue
        if any(inside_fraction(cl.box, c.box_pt) > 0.5 for c in captions):
            continue
        source = "images" if cl.n_images else "vector"
        box = trim_captions(grow_with_text(cl.box, words, rules_inside(page, expand(cl.box, 2 * GROW_PT))), captions)
        regions.append(Region(box, "figure", source, 0.9))
    return _dedupe(regions)


def _dedupe(regions: list[Region]) -> list[Region]:
    out: list[Region] = []
    for r in sorted(regions, key=lambda r: (r.source == "layout-raw", -area(r.box))):
        if r.box[2] - r.box[0] < 8 or r.box[3] - r.box[1] < 8:
            continue  # nothing left after trimming a caption away
        if any(iou(r.box, o.box) > 0.6 or (inside_fraction(r.box, o.box) > 0.85 and r.kind == o.kind) for o in out):
            continue
        out.append(r)
    return out
