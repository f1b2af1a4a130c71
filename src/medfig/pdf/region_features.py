"""Candidate figure boxes for one caption, and the page evidence that describes each one.

The rule path (:mod:`medfig.pdf.regions` + :mod:`medfig.pdf.pairing`) gives each caption one
region. The judgement calls inside it (grow to this cluster? snap to this frame? keep this
paragraph?) are where it fails on layouts it was not tuned on, so here the same evidence
becomes a handful of *alternative* boxes per caption:

- ``rules``: the region the rule path chose;
- ``raw``: a layout-detector figure box overlapping it, as the detector drew it;
- ``snap``: that detector box snapped to the drawn objects inside it (no frame, no grow);
- ``cluster``: a graphic cluster near the caption, alone and grown with its figure text;
- ``union``: the rule region joined with a cluster in its column (no caption in between);
- ``tight``: the drawn objects and figure words inside the rule region, without a frame rule
  spanning it and without the body-text lines it holds;
- ``trim``: the rule region cut where it runs into a caption;

and each box is described by scale-free numbers (:data:`FEATURES`) read from the page itself
(sizes as shares of the page and of the text column, distances in body-text line heights,
shares of body lines, drawn objects and figure words inside, edges on thin rules), never by
how it was made. A small model (:mod:`medfig.pdf.region_model`) scores them and decides
whether one replaces the rule region.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

import numpy as np

from medfig.geometry import PointBox, area, clip, expand, horizontal_overlap, inside_fraction, iou, union
from medfig.pdf.graphics import GraphicCluster, cluster_graphics
from medfig.pdf.layout import LayoutBox
from medfig.pdf.regions import GROW_PT, LAYOUT_MIN_SCORE, Region, figure_words, grow_with_text, rules_inside, snap_layout_box, trim_captions
from medfig.pdf.types import Line, PageData, PdfCaption, Word

_BODY_LINE_MIN_CHARS = 40  # as regions._FIGURE_TEXT_MAX_CHARS: longer lines at body size are running text
_NEAR_COLUMNS = 0.25  # the neighbourhood whose drawn objects a box should cover: a quarter column around it


@dataclass(slots=True)
class PageEvidence:
    """What every candidate of a page is measured against (computed once per page)."""

    page: PageData
    captions: list[PdfCaption]
    detector_figures: list[LayoutBox]
    clusters: list[GraphicCluster]
    words: list[Word]  # words that may belong to a figure (regions.figure_words)
    body_lines: list[Line]
    column_width: float  # median width of body lines, PDF points
    objects: np.ndarray  # (n, 4) boxes of drawn objects that are not hairlines
    thin: np.ndarray  # (m, 4) boxes of hairlines (rules, frames, axes)
    word_boxes: np.ndarray  # (k, 4) figure words
    body_boxes: np.ndarray  # (b, 4) body lines
    _snapped: dict = field(default_factory=dict)


def _boxes(items) -> np.ndarray:
    arr = np.array([tuple(b) for b in items], dtype=float)
    return arr.reshape(-1, 4)


def page_evidence(page: PageData, layout: list[LayoutBox] | None, captions: list[PdfCaption]) -> PageEvidence:
    clusters = [c for c in cluster_graphics(page) if not c.only_rules]
    words = figure_words(page, captions, clusters)
    body = [ln for ln in page.lines if len(ln.text) > _BODY_LINE_MIN_CHARS and ln.size >= page.body_size - 0.5
            and not any(inside_fraction(ln.box, c.box_pt) > 0.5 for c in captions)]
    widths = [ln.box[2] - ln.box[0] for ln in body]
    column = median(widths) if widths else page.width * 0.8
    dets = [b for b in layout or () if b.label == "figure" and b.score >= LAYOUT_MIN_SCORE]
    return PageEvidence(
        page=page, captions=captions, detector_figures=dets, clusters=clusters, words=words, body_lines=body,
        column_width=max(column, 1.0),
        objects=_boxes(g.box for g in page.graphics if not g.thin),
        thin=_boxes(g.box for g in page.graphics if g.thin),
        word_boxes=_boxes(w.box for w in words), body_boxes=_boxes(ln.box for ln in body))


def _inside(boxes: np.ndarray, outer: PointBox) -> np.ndarray:
    """Share of each box's area inside ``outer`` (a degenerate box: 1 when its centre is inside)."""
    if not len(boxes):
        return np.zeros(0)
    w = np.clip(np.minimum(boxes[:, 2], outer[2]) - np.maximum(boxes[:, 0], outer[0]), 0, None)
    h = np.clip(np.minimum(boxes[:, 3], outer[3]) - np.maximum(boxes[:, 1], outer[1]), 0, None)
    a = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    centre_in = ((cx >= outer[0]) & (cx <= outer[2]) & (cy >= outer[1]) & (cy <= outer[3])).astype(float)
    return np.where(a > 0, w * h / np.where(a > 0, a, 1), centre_in)


def _snapped(ev: PageEvidence, lb: LayoutBox) -> PointBox:
    key = tuple(lb.box)
    if key not in ev._snapped:
        ev._snapped[key] = snap_layout_box(ev.page, lb, ev.clusters, ev.words, ev.captions).box
    return ev._snapped[key]


def _caption_between(ev: PageEvidence, a: PointBox, b: PointBox) -> bool:
    """A caption lies in the vertical gap between two boxes, under both of them horizontally."""
    top, bottom = (a, b) if a[1] <= b[1] else (b, a)
    gap = (max(a[0], b[0]), top[3], min(a[2], b[2]), bottom[1])
    return any(c.box_pt[1] < gap[3] and c.box_pt[3] > gap[1] and horizontal_overlap(c.box_pt, gap) > 0
               for c in ev.captions)


def _tight(ev: PageEvidence, box: PointBox) -> PointBox | None:
    """The drawn objects and figure words (never body-text lines: see ``figure_words``) inside
    ``box``, without a hairline spanning (almost) all of one side (a frame)."""
    parts = []
    if len(ev.objects):
        parts += [tuple(b) for b in ev.objects[_inside(ev.objects, box) > 0.6]]
    if len(ev.thin):
        w, h = box[2] - box[0], box[3] - box[1]
        for b in ev.thin[_inside(ev.thin, box) > 0.6]:
            if (b[2] - b[0]) < 0.9 * w and (b[3] - b[1]) < 0.9 * h:
                parts.append(tuple(b))
    if len(ev.word_boxes):
        parts += [tuple(b) for b in ev.word_boxes[_inside(ev.word_boxes, box) > 0.6]]
    return union(parts)


def candidates(ev: PageEvidence, caption: PdfCaption, region: Region) -> list[tuple[PointBox, str]]:
    """Distinct candidate boxes (PDF points) for ``caption`` whose rule region is ``region``, with their origin."""
    page, base = ev.page, region.box
    out: list[tuple[PointBox, str]] = [(base, "rules")]
    for lb in ev.detector_figures:
        if iou(lb.box, base) > 0.1 or inside_fraction(lb.box, base) > 0.5 or inside_fraction(base, lb.box) > 0.5:
            out.append((lb.box, "raw"))
            out.append((_snapped(ev, lb), "snap"))
            inner = [tuple(b) for b in ev.objects[_inside(ev.objects, expand(lb.box, 4.0)) > 0.6]] if len(ev.objects) else []
            if inner:
                out.append((union(inner), "snap"))
    reach = expand(base, 2 * page.body_size)
    near = [cl for cl in ev.clusters if area(cl.box) > 0 and (inside_fraction(cl.box, reach) > 0
                                                              or horizontal_overlap(cl.box, caption.box_pt) > 0)]
    for cl in near:
        if any(inside_fraction(cl.box, c.box_pt) > 0.5 for c in ev.captions):
            continue
        out.append((cl.box, "cluster"))
        out.append((trim_captions(grow_with_text(cl.box, ev.words, rules_inside(page, expand(cl.box, 2 * GROW_PT))), ev.captions),
                    "cluster"))
        if horizontal_overlap(cl.box, base) > 0.3 * min(cl.box[2] - cl.box[0], base[2] - base[0]) \
                and not _caption_between(ev, cl.box, base) and inside_fraction(cl.box, base) < 0.9:
            out.append((union([base, cl.box]), "union"))
    tight = _tight(ev, base)
    if tight is not None:
        out.append((tight, "tight"))
    out.append((trim_captions(base, [c for c in ev.captions if c is not caption] + [caption]), "trim"))
    seen, unique = set(), []
    for box, origin in out:
        box = clip(box, page.width, page.height)
        if box[2] - box[0] < 8 or box[3] - box[1] < 8:
            continue
        key = tuple(round(v * 2) for v in box)
        if key in seen:
            continue
        seen.add(key)
        unique.append((tuple(float(v) for v in box), origin))
    return unique


# Evidence only: nothing says which candidate the rules chose or how a box was made, so the
# model judges a box by what the page shows (a model that saw "rules" learned to copy them).
FEATURES = (
    "width_page", "height_page", "width_column", "log_aspect", "text_width_columns",
    "det_iou", "det_score", "det_inside", "inside_det",
    "body_lines", "body_share", "caption_side", "caption_gap", "caption_inside", "caption_overlap_x",
    "caption_offset_x", "other_caption_inside",
    "objects_covered", "objects_near_missed", "fill", "margin_top", "margin_bottom", "margin_side",
    "objects_cut", "words_cut", "frame_edges", "page_margin", "crosses_middle",
)


def _sum_area(boxes: np.ndarray) -> float:
    return float(((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])).sum()) if len(boxes) else 0.0


def _frame_edges(ev: PageEvidence, box: PointBox) -> int:
    """Sides of ``box`` lying on a hairline that spans most of that side."""
    if not len(ev.thin):
        return 0
    t, (x0, y0, x1, y1) = ev.thin, box
    w, h, tol = x1 - x0, y1 - y0, 1.5
    span_x = np.clip(np.minimum(t[:, 2], x1) - np.maximum(t[:, 0], x0), 0, None) >= 0.8 * w
    span_y = np.clip(np.minimum(t[:, 3], y1) - np.maximum(t[:, 1], y0), 0, None) >= 0.8 * h
    n = 0
    for coord, lo, hi, span in ((y0, 1, 3, span_x), (y1, 1, 3, span_x), (x0, 0, 2, span_y), (x1, 0, 2, span_y)):
        n += bool((span & (t[:, lo] - tol <= coord) & (t[:, hi] + tol >= coord)).any())
    return n


def features(ev: PageEvidence, caption: PdfCaption, box: PointBox) -> list[float]:
    """The numbers of :data:`FEATURES` for one candidate box (all scale-free)."""
    page, col, bs = ev.page, ev.column_width, max(ev.page.body_size, 1.0)
    x0, y0, x1, y1 = box
    w, h = max(x1 - x0, 1e-3), max(y1 - y0, 1e-3)
    det = max(ev.detector_figures, key=lambda b: iou(b.box, box), default=None)
    det_iou = iou(det.box, box) if det else 0.0
    body_in = _inside(ev.body_boxes, box) > 0.5 if len(ev.body_boxes) else np.zeros(0, bool)
    cap = caption.box_pt
    side = 1.0 if cap[1] >= y1 - 1 else (-1.0 if cap[3] <= y0 + 1 else 0.0)
    gap = (cap[1] - y1) if side > 0 else ((y0 - cap[3]) if side < 0 else 0.0)
    others = [inside_fraction(c.box_pt, box) for c in ev.captions if c is not caption]
    obj_in = _inside(ev.objects, box) if len(ev.objects) else np.zeros(0)
    near = expand(box, _NEAR_COLUMNS * col)
    obj_near = _inside(ev.objects, near) > 0.5 if len(ev.objects) else np.zeros(0, bool)
    covered = _sum_area(ev.objects[obj_in > 0.6]) if len(ev.objects) else 0.0
    near_area = _sum_area(ev.objects[obj_near]) if len(ev.objects) else 0.0
    words_in = _inside(ev.word_boxes, box) if len(ev.word_boxes) else np.zeros(0)
    # what is drawn inside the box: objects, hairlines (axes, rules, a frame round the art) and figure words;
    # the margins and the fill say how much of the box is empty
    thin_in = ev.thin[_inside(ev.thin, box) > 0.6] if len(ev.thin) else ev.thin
    drawn = [tuple(b) for b in ev.objects[obj_in > 0.6]] if len(obj_in) else []
    drawn += [tuple(b) for b in thin_in] + ([tuple(b) for b in ev.word_boxes[words_in > 0.6]] if len(words_in) else [])
    content = union(drawn) or box
    cut_obj = float(((obj_in > 0.05) & (obj_in < 0.95)).sum()) / max(1.0, float((obj_in > 0.6).sum()))
    cut_words = float(((words_in > 0.1) & (words_in < 0.9)).sum()) / max(1.0, float((words_in > 0.6).sum()))
    text_x0 = min((ln.box[0] for ln in ev.body_lines), default=0.0)
    text_x1 = max((ln.box[2] for ln in ev.body_lines), default=page.width)
    mid = page.width / 2
    row = [
        w / page.width, h / page.height, w / col, float(np.log(w / h)), (text_x1 - text_x0) / col,
        det_iou, det.score if det else 0.0, inside_fraction(box, det.box) if det else 0.0,
        inside_fraction(det.box, box) if det else 0.0,
        float(body_in.sum()), _sum_area(ev.body_boxes[body_in]) / (w * h) if len(body_in) else 0.0,
        side, gap / bs, inside_fraction(cap, box), horizontal_overlap(cap, box) / max(cap[2] - cap[0], 1e-3),
        ((x0 + x1) / 2 - (cap[0] + cap[2]) / 2) / col, max(others, default=0.0),
        covered / near_area if near_area > 0 else 1.0,
        float((obj_near & (obj_in < 0.05)).sum()) / max(1.0, float(obj_near.sum())),
        area(content) / (w * h),
        max(0.0, content[1] - y0) / bs, max(0.0, y1 - content[3]) / bs,
        max(0.0, content[0] - x0, x1 - content[2]) / bs,
        cut_obj, cut_words, float(_frame_edges(ev, box)),
        min(x0, page.width - x1, y0, page.height - y1) / page.width,
        float(x0 < mid - 0.05 * col and x1 > mid + 0.05 * col),
    ]
    return row
