"""Pair captions with regions on a page by Hungarian assignment (scipy), as DeepFigures does.

The cost is the edge-to-edge distance between caption and region boxes (DeepFigures'
``distance_to_other``), plus a penalty when a figure caption would take a table region or
the reverse, plus a penalty when the region lies across a column from the caption with
no horizontal overlap. Pairs farther than ``MAX_PAIR_DISTANCE_PT`` are refused: the caption
becomes *regionless* and the region *uncaptioned*, as in the paper.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from medfig.geometry import area, edge_distance, horizontal_overlap, union
from medfig.pdf.regions import Region
from medfig.pdf.types import PdfCaption

MAX_PAIR_DISTANCE_PT = 150.0
TYPE_MISMATCH_PT = 80.0
NO_OVERLAP_PT = 30.0
_FORBIDDEN = 1e6


def pair_cost(caption: PdfCaption, region: Region) -> float:
    cost = edge_distance(caption.box_pt, region.box)
    if (caption.fig_type == "Table") != (region.kind == "table"):
        cost += TYPE_MISMATCH_PT
    if horizontal_overlap(caption.box_pt, region.box) <= 0:
        cost += NO_OVERLAP_PT
    return cost


def pair(captions: list[PdfCaption], regions: list[Region]) -> tuple[list[tuple[int, int, float]], list[int], list[int]]:
    """Returns (pairs as (caption_i, region_j, cost), unpaired caption indexes, unpaired region indexes)."""
    if not captions or not regions:
        return [], list(range(len(captions))), list(range(len(regions)))
    cost = np.array([[pair_cost(c, r) for r in regions] for c in captions], dtype=float)
    masked = np.where(cost > MAX_PAIR_DISTANCE_PT + TYPE_MISMATCH_PT + NO_OVERLAP_PT, _FORBIDDEN, cost)
    rows, cols = linear_sum_assignment(masked)
    pairs = [(int(i), int(j), float(cost[i, j])) for i, j in zip(rows, cols) if masked[i, j] < _FORBIDDEN]
    paired_c = {i for i, _, _ in pairs}
    paired_r = {j for _, j, _ in pairs}
    return (pairs, [i for i in range(len(captions)) if i not in paired_c],
            [j for j in range(len(regions)) if j not in paired_r])


MERGE_GAP_PT = 16.0


def absorb_fragments(paired: list[Region], lonely: list[Region], captions: list[PdfCaption]) -> tuple[list[Region], list[Region]]:
    """Merge uncaptioned figure fragments into the captioned figure right above or below.

    The detector sometimes cuts one figure in two (a diagram and its legend); pairing then
    gives the caption the nearer half. A lonely figure region within ``MERGE_GAP_PT`` of a
    paired figure, overlapping it horizontally by half the narrower width, with no caption
    in between, is the same figure. Returns (paired regions updated, still-lonely regions).
    """
    still: list[Region] = []
    for frag in lonely:
        host = None
        if frag.kind == "figure":
            for k, r in enumerate(paired):
                if r.kind != "figure":
                    continue
                gap = max(frag.box[1] - r.box[3], r.box[1] - frag.box[3])
                narrow = min(frag.box[2] - frag.box[0], r.box[2] - r.box[0])
                if gap > MERGE_GAP_PT or horizontal_overlap(frag.box, r.box) < 0.5 * narrow:
                    continue
                between = (max(frag.box[0], r.box[0]), min(frag.box[3], r.box[3]), min(frag.box[2], r.box[2]), max(frag.box[1], r.box[1]))
                if any(horizontal_overlap(c.box_pt, between) > 0 and c.box_pt[1] < between[3] and c.box_pt[3] > between[1]
                       for c in captions):
                    continue
                host = k
                break
        if host is None:
            still.append(frag)
        else:
            r = paired[host]
            paired[host] = Region(union([r.box, frag.box]), r.kind, r.source, r.score)
    return paired, still


CROSS_PAGE_MIN_AREA_SHARE = 0.03  # of the art page: page furniture (logos, rules) is smaller


def cross_page_targets(caption_page: int, caption_top: float, page_height: float, n_pages: int) -> list[int]:
    """Pages where a caption left without a region may have its art, nearest guess first.

    A caption at the top of its page continues a figure from the page before (the art
    filled that page); otherwise the art follows on the next page (a legend page, or the
    caption on the page facing the figure)."""
    before, after = caption_page - 1, caption_page + 1
    order = [before, after] if caption_top < page_height / 3 else [after, before]
    return [q for q in order if 0 <= q < n_pages]


def pair_across_pages(captions: list[PdfCaption], regions: list[Region], page_area: float) -> list[tuple[int, Region]]:
    """Captions (from pages next to the art page) with that page's uncaptioned regions.

    Only regions of the caption's kind covering at least ``CROSS_PAGE_MIN_AREA_SHARE`` of
    the page count. One caption takes the largest region and any fragment next to it; with
    several captions, captions in reading order (page, then top) take the regions in reading
    order, and only when the counts agree — otherwise nothing is paired (no guessing).
    Returns (caption index, region)."""
    pairs: list[tuple[int, Region]] = []
    kinds = {"Table": "table", "Figure": "figure"}
    for fig_type, kind in kinds.items():
        caps = [i for i, c in enumerate(captions) if c.fig_type == fig_type]
        cands = [r for r in regions if r.kind == kind and area(r.box) >= CROSS_PAGE_MIN_AREA_SHARE * page_area]
        if not caps or not cands:
            continue
        if len(caps) == 1:
            main = max(cands, key=lambda r: area(r.box))
            merged, _ = absorb_fragments([main], [r for r in cands if r is not main], [])
            pairs.append((caps[0], merged[0]))
        elif len(caps) == len(cands):
            caps.sort(key=lambda i: (captions[i].page, captions[i].box_pt[1]))
            cands.sort(key=lambda r: (round(r.box[1] / 20), r.box[0]))
            pairs.extend(zip(caps, cands))
    return pairs
