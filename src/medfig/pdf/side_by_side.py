"""Figures set side by side in two columns, each with its caption under (or over) it, that the
layout detector or the graphic clustering took as one region.

The page's own evidence decides: two or more figure captions sit right against the same region
(within a few body-text line heights, or inside it), next to each other with no horizontal
overlap; and the region's content (drawn objects and the words on them) falls apart
at an empty vertical band between each pair of captions, each part wholly above or below its
caption. Then the region is as many figures as captions, each the content on its side of the band. One caption under a wide figure never splits
it, however its panels are spaced. Boxes: PDF points, origin top-left.
"""

from __future__ import annotations

from medfig.geometry import PointBox, centre, edge_distance, horizontal_overlap, union
from medfig.pdf.regions import Region
from medfig.pdf.types import PageData, PdfCaption

# a caption "right against" a region: at most this many body-text line heights away
_ADJACENT_LINES = 3.0


def split_side_by_side(page: PageData, regions: list[Region], captions: list[PdfCaption]) -> list[Region]:
    out: list[Region] = []
    for region in regions:
        out.extend(_split(page, region, captions) or [region])
    return out


def _split(page: PageData, region: Region, captions: list[PdfCaption]) -> list[Region] | None:
    if region.kind != "figure":
        return None
    row = _adjacent(page, region, captions)
    if len(row) < 2:
        return None
    content = _content(page, region, captions)
    if not content:
        return None
    bands = _free_bands(content, region.box)
    cuts = []
    for left, right in zip(row, row[1:]):
        between = [b for b in bands if centre(left.box_pt)[0] < (b[0] + b[1]) / 2 < centre(right.box_pt)[0]]
        if not between:
            return None
        # the band nearest the middle of the space between the two captions
        middle = (left.box_pt[2] + right.box_pt[0]) / 2
        cuts.append(min(between, key=lambda b: abs((b[0] + b[1]) / 2 - middle)))
    parts: list[Region] = []
    edges = [region.box[0]] + [x for cut in cuts for x in cut] + [region.box[2]]
    for (x0, x1), caption in zip(zip(edges[::2], edges[1::2]), row):
        inside = [b for b in content if x0 <= (b[0] + b[2]) / 2 <= x1]
        box = union(inside)
        # each part is its caption's art: wholly above or below the caption, not beside it
        if box is None or not (caption.box_pt[1] >= box[3] - 1 or caption.box_pt[3] <= box[1] + 1):
            return None
        parts.append(Region(box=PointBox(box), kind="figure", source=region.source + "+side-by-side", score=region.score))
    return parts


def _adjacent(page: PageData, region: Region, captions: list[PdfCaption]) -> list[PdfCaption]:
    """Figure captions against or inside the region (captions set at different heights under
    figures of different heights fall inside a region that took both), left to right."""
    reach = _ADJACENT_LINES * page.body_size
    row = [c for c in captions if c.fig_type == "Figure" and horizontal_overlap(c.box_pt, region.box) > 0
           and edge_distance(c.box_pt, region.box) <= reach]
    row.sort(key=lambda c: c.box_pt[0])
    # side by side: each caption starts where the one before it ends
    if any(b.box_pt[0] < a.box_pt[2] for a, b in zip(row, row[1:])):
        return []
    return row


def _content(page: PageData, region: Region, captions: list[PdfCaption]) -> list[tuple]:
    """Drawn objects (not rules) and words whose centre lies in the region, caption words left out."""
    def in_caption(b) -> bool:
        return any(_centred_in(b, c.box_pt) for c in captions)

    # rules and hairlines are left out: a rule under a caption or across the gutter is page
    # furniture here, not art, and would glue the two figures (or a figure and its caption) together
    items = [tuple(g.box) for g in page.graphics if not g.thin and _centred_in(g.box, region.box)]
    items += [tuple(w.box) for w in page.words if _centred_in(w.box, region.box) and not in_caption(w.box)]
    return items


def _centred_in(box, outer) -> bool:
    cx, cy = centre(box)
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def _free_bands(items: list[tuple], box: PointBox) -> list[tuple[float, float]]:
    """x intervals inside ``box`` that no item covers, between items (not at the edges)."""
    spans = sorted((b[0], b[2]) for b in items)
    bands = []
    reach = spans[0][1]
    for a, b in spans[1:]:
        if a > reach:
            bands.append((reach, a))
        reach = max(reach, b)
    return [band for band in bands if box[0] < band[0] and band[1] < box[2]]
