"""Label-anchored partition: panels rebuilt around the panel letters read.

:func:`anchor_panels_on_letters` takes the pieces the XY-cut left (panels and text blocks)
and, when the figure follows one of the lettering conventions, returns one box per caption
letter. Conventions tried in order:

1. :func:`medfig.compound.anchors.partition_on_anchors`: letters head their panels (eLife, Nature, Cell: a bold
   "A" at the top-left); each piece goes to the nearest letter above-left of it.
2. :func:`partition_on_foot_letters`: letters sit under their panels (Hindawi, Elsevier:
   "(a)" centred below).
3. an XY-cut that cuts only between pieces carrying letters (head or foot letters).

Letters the OCR did not read may be supplied by :mod:`medfig.compound.letter_grid`.
Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

from medfig.compound.align import box_gap, case_consistent, family_readings, label_key, sub_panel_letters
from medfig.compound.anchors import TOP_LEFT_SLACK, longer_side, partition_on_anchors
from medfig.compound.letter_grid import cluster_centres, infer_missing_letters, next_letters
from medfig.compound.pieces import TEXT_REACH, within
from medfig.geometry import PixelBox, centre, intersection, union
from medfig.text.subcaptions import ParsedCaption
from medfig.vision.panel_labels import PanelLabel

SLAB_OVERLAP = 0.015  # pieces overlapping by less than this share of the extent still separate


def _slabs(items: list[tuple[PixelBox, int | None]], axis: int) -> list[list[tuple[PixelBox, int | None]]]:
    """Items grouped into runs along ``axis`` (0: x, 1: y) separated by uncovered intervals
    (a sliver of overlap is allowed: a chart box grown over its neighbour's letter)."""
    lo, hi = axis, axis + 2
    order = sorted(items, key=lambda it: it[0][lo])
    extent = max(b[hi] for b, _ in items) - min(b[lo] for b, _ in items)
    tol = max(2.0, SLAB_OVERLAP * extent)
    out: list[list[tuple[PixelBox, int | None]]] = []
    end = None
    end_len = 0.0  # length of the piece that reaches ``end``: small pieces allow little overlap
    for it in order:
        length = it[0][hi] - it[0][lo]
        if end is None or it[0][lo] >= end - min(tol, 0.25 * end_len, 0.25 * length):
            out.append([it])
            end, end_len = it[0][hi], length
        else:
            out[-1].append(it)
            if it[0][hi] > end:
                end, end_len = it[0][hi], length
    return out


def _group(
    items: list[tuple[PixelBox, int | None]], big: set, depth: int = 0, foot: bool = False
) -> list[list[tuple[PixelBox, int | None]]] | None:
    """Recursive XY-cut over the pieces, cutting only between pieces that carry letters:
    a piece without a letter joins the lettered run before it (the letter heads its panel),
    or the one after it when it comes first; with ``foot`` (an "(a)" printed under its
    panel) it joins the lettered run after it. None when the letters cannot be separated."""
    n_letters = sum(1 for _, l in items if l is not None)
    if n_letters <= 1:
        return [items]
    if depth > 12:
        return None
    best = None
    for axis in (1, 0):
        slabs = _slabs(items, axis)
        lettered = [k for k, s in enumerate(slabs) if any(l is not None for _, l in s)]
        if len(lettered) < 2:
            continue
        # widest gap between two lettered runs: the outermost layout structure
        gaps = [slabs[k][0][0][axis] - max(b[axis + 2] for b, _ in slabs[k - 1]) for k in lettered[1:]]
        width = min(gaps)
        if best is None or width > best[0]:
            best = (width, slabs, lettered)
    if best is None:
        return None
    _, slabs, lettered = best
    groups: list[list[tuple[PixelBox, int | None]]] = []
    if foot:
        pending: list[tuple[PixelBox, int | None]] = []
        for k, s in enumerate(slabs):
            pending.extend(s)
            if k in lettered:
                groups.append(pending)
                pending = []
        groups[-1].extend(pending)
    else:
        for k, s in enumerate(slabs):
            if k in lettered or not groups:
                groups.append(list(s))
            else:
                groups[-1].extend(s)
    # pieces before the first letter: a page header or a title row (dropped when text only)
    if not foot and not any(l is not None for _, l in groups[0]):
        head = groups.pop(0)
        if any(b in big for b, _ in head):
            groups[0] = head + groups[0]
    out: list[list[tuple[PixelBox, int | None]]] = []
    for g in groups:
        sub = _group(g, big, depth + 1, foot)
        if sub is None:
            return None
        out.extend(sub)
    return out


def anchor_panels_on_letters(
    panels: list[PixelBox], text_blocks: list[PixelBox], ocr_labels: list[PanelLabel], parsed: ParsedCaption
) -> list[PixelBox] | None:
    """Panels rebuilt around the letters read, when the figure follows the top-left letter
    convention: every caption letter was read once, the pieces of the figure (panels and
    text blocks) can be cut into one group per letter, and each letter heads its group
    (within ``TOP_LEFT_SLACK`` of its top-left corner). Returns one box per letter (the union
    of its group) or None when the figure does not fit (then the pieces are kept)."""
    consistent = case_consistent(ocr_labels, parsed)
    names = [l for l in parsed.labels if len(l) == 1 and l.isalpha()] or image_letter_run(consistent)
    # a letter printed with sub-numbers ("Ai", "Aii", "Aiii") heads one panel per sub-number
    subbed = sub_panel_letters([l for l in consistent if l.text.lower() in names])
    letters: list[str] = []
    for l in names:
        if len(l) == 1 and l.isalpha():
            letters += sorted({x.key for x in consistent if x.text.lower() == l and x.sub}) if l in subbed else [l]
    if len(letters) < 2:
        return None
    by_letter = family_readings([l for l in consistent if label_key(l, subbed) in letters], lambda l: label_key(l, subbed))
    if set(by_letter) != set(letters):
        inferred = infer_missing_letters(by_letter, letters)
        if inferred is None:
            return None
        letter_boxes = [tuple(by_letter[l].box) if l in by_letter else inferred[l] for l in letters]
    else:
        letter_boxes = [tuple(by_letter[l].box) for l in letters]
    items: list[tuple[PixelBox, int | None]] = [(tuple(b), k) for k, b in enumerate(letter_boxes)]  # type: ignore[misc]
    for b in list(panels) + list(text_blocks):
        if any(within(lb, b) and within(b, lb) for lb in letter_boxes):
            continue  # the letter itself
        items.append((tuple(b), None))  # type: ignore[arg-type]
    big = {tuple(p) for p in panels}
    unnamed = next_letters(ocr_labels, parsed, by_letter)
    out = partition_on_anchors([b for b, l in items if l is None], big, letter_boxes + unnamed)
    if out is not None:
        return out
    out = partition_on_foot_letters([b for b, l in items if l is None], big, letter_boxes + unnamed)
    if out is not None:
        return out
    out = partition_on_corner_feet([b for b, l in items if l is None], big, letter_boxes + unnamed)
    if out is not None:
        return out
    for foot in (False, True):
        out = _letter_groups(items, letter_boxes, big, foot)
        if out is not None:
            return out
    if len(panels) == 1:  # one piece: charts stacked on shared axes, letters in their corners
        return partition_on_letter_offsets(tuple(panels[0]), letter_boxes)  # type: ignore[arg-type]
    return None


def partition_on_corner_feet(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> list[PixelBox] | None:
    """Letters at the bottom-left corner of their panels (Veterinary World and others: "a" in
    the lower-left corner of a photo grid, "A" in a box under a chart's legend): the top-left
    convention upside down. The boxes are mirrored top to bottom, partitioned as letters that
    head their panels (:func:`partition_on_anchors`, with all its refusals), and mirrored back."""
    pictures = [b for b in pieces if b in big]
    if len(letter_boxes) < 2 or not pictures:
        return None
    # text above every picture (the page's lines over the figure, a figure title) would fall to
    # the top row's panels upside down, as a page footer would to the last row's the right way up
    # ... and so would the slivers of a frame drawn round the figure (a 1 px edge line)
    top = min(b[1] for b in pictures)
    pieces = [b for b in pieces if b in big or (b[3] > top and min(b[2] - b[0], b[3] - b[1]) > 2)]
    height = max(b[3] for b in list(pieces) + list(letter_boxes))

    def mirror(b: PixelBox) -> PixelBox:
        return (b[0], height - b[3], b[2], height - b[1])

    out = partition_on_anchors([mirror(b) for b in pieces], {mirror(b) for b in big}, [mirror(b) for b in letter_boxes])
    return None if out is None else [mirror(b) for b in out]


def partition_on_letter_offsets(region: PixelBox, letter_boxes: list[PixelBox]) -> list[PixelBox] | None:
    """One piece holding a grid of panels without blank gaps (charts stacked on shared axes)
    whose letters all sit at the same place in their panels (top-right corners, say): the
    letters' columns and rows are the grid's, and every panel starts where its letter starts
    less the offset the first letter has from the piece's top-left corner. None unless the
    letters fill the grid exactly, one per cell, in reading order, each panel at least three
    letter heights on each side."""
    hs = sorted(b[3] - b[1] for b in letter_boxes)
    h = hs[len(hs) // 2]
    if len(letter_boxes) < 2 or hs[-1] > 1.5 * hs[0]:
        return None
    cols = cluster_centres([b[0] for b in letter_boxes], h)
    rows = cluster_centres([b[1] for b in letter_boxes], h)
    if cols is None or rows is None or len(cols) * len(rows) != len(letter_boxes):
        return None
    xs = [region[0]] + [c - (cols[0] - region[0]) for c in cols[1:]] + [region[2]]
    ys = [region[1]] + [r - (rows[0] - region[1]) for r in rows[1:]] + [region[3]]
    if any(b - a < 3 * h for a, b in zip(xs, xs[1:])) or any(b - a < 3 * h for a, b in zip(ys, ys[1:])):
        return None
    cells: list[PixelBox] = []
    for lb in letter_boxes:
        c = min(range(len(cols)), key=lambda k: abs(cols[k] - lb[0]))
        r = min(range(len(rows)), key=lambda k: abs(rows[k] - lb[1]))
        cell = (round(xs[c]), round(ys[r]), round(xs[c + 1]), round(ys[r + 1]))
        if cell in cells or not within(lb, cell):
            return None
        cells.append(cell)
    order = sorted(range(len(cells)), key=lambda k: (cells[k][1], cells[k][0]))
    if order != list(range(len(cells))):
        return None  # the letters do not run row by row: no evidence for this grid
    return cells


def image_letter_run(labels: list[PanelLabel]) -> list[str]:
    """Panel letters the image prints when the caption names none: free-standing letters of
    one case and one size (within 1.5x), each read once, running a, b, c ... from "a". []
    when the letters read are not such a run (a stray "R" marker, tick letters)."""
    free = [l for l in labels if l.text.isalpha() and l.free and not l.sub]
    keys = [l.text.lower() for l in free]
    if len(free) < 2 or len(set(keys)) != len(keys) or len({l.text.isupper() for l in free}) != 1:
        return []
    if sorted(keys) != [chr(ord("a") + k) for k in range(len(keys))]:
        return []
    hs = [l.box[3] - l.box[1] for l in free]
    return sorted(keys) if max(hs) <= 1.5 * min(hs) else []


def partition_on_foot_letters(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> list[PixelBox] | None:
    """Label-anchored partition for figures whose letters sit under their panels (Hindawi,
    Elsevier: "(a)" centred below a row of pictures). Each picture goes to the letter below
    it that is nearest (horizontal offset of the centres + the gap down to the letter), so
    "(a)" under a 2 x 2 block of blots takes all four. Returns one box per letter (its
    pictures only), or None when a letter has no picture, a picture has no letter below it,
    or a letter does not sit under the middle part of its pictures."""
    pics = [b for b in pieces if b in big]
    if len(letter_boxes) < 2 or not pics:
        return None
    groups: list[list[PixelBox]] = [[] for _ in letter_boxes]
    for b in pics:
        cx, cy = centre(b)
        best = None
        for k, lb in enumerate(letter_boxes):
            if lb[1] < cy:
                continue
            d = abs(cx - (lb[0] + lb[2]) / 2) + max(0, lb[1] - b[3])
            if best is None or d < best[0]:
                best = (d, k)
        if best is None:
            return None
        # a letter line between the picture and the letter it would join: that line foots the
        # picture's row, and the picture's own letter in it was not read
        mine = letter_boxes[best[1]]
        if any(b[3] <= lb[1] and lb[3] <= mine[1] for lb in letter_boxes):
            return None
        groups[best[1]].append(b)
    boxes = []
    for lb, g in zip(letter_boxes, groups):
        if not g:
            return None
        box = union(g)
        w = box[2] - box[0]
        lcx = (lb[0] + lb[2]) / 2
        if not (box[0] + 0.2 * w <= lcx <= box[2] - 0.2 * w) or lb[1] < box[3] - TOP_LEFT_SLACK * (box[3] - box[1]):
            return None
        boxes.append(box)
    # a chart's axis and tick labels (text pieces next to its plot, above its letter) join it
    everything = pics + list(letter_boxes)
    side = longer_side(everything)
    reach = max(4.0, TEXT_REACH * side)
    rest = [b for b in pieces if b not in big]
    grown = [list(b) for b in boxes]
    changed = True
    while changed:
        changed = False
        for t in list(rest):
            for k, lb in enumerate(letter_boxes):
                box = grown[k]
                if t[3] > lb[1] + 2 or box_gap(tuple(box), t) > reach:  # type: ignore[arg-type]
                    continue
                joined = list(union((box, t)))
                if any(j != k and intersection(joined, o) for j, o in enumerate(grown)):
                    continue
                grown[k] = joined
                rest.remove(t)
                changed = True
                break
    boxes = [tuple(b) for b in grown]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if intersection(boxes[i], boxes[j]):
                return None
    return boxes  # type: ignore[return-value]

def _letter_groups(items: list[tuple[PixelBox, int | None]], letter_boxes: list[PixelBox], big: set, foot: bool) -> list[PixelBox] | None:
    """One box per letter under one convention (head: top-left letters, boxes include the
    letter; foot: letters under their panels, boxes are the pictures only), or None."""
    groups = _group(items, big, foot=foot)
    if groups is None or len(groups) != len(letter_boxes):
        return None
    side = longer_side([b for b, _ in items])
    reach = max(4.0, TEXT_REACH * side)
    out: list[PixelBox | None] = [None] * len(letter_boxes)
    for g in groups:
        ks = [l for _, l in g if l is not None]
        if len(ks) != 1 or not any(l is None and b in big for b, l in g):
            return None
        lb = letter_boxes[ks[0]]
        if foot:
            pics = [b for b, l in g if l is None and b in big]
            box = union(pics)
            if lb[1] < box[3] - TOP_LEFT_SLACK * (box[3] - box[1]):
                return None  # the letter must sit under (or at the bottom of) its pictures
        else:
            box = _grow_over_text(g, big, reach)
            if lb[0] - box[0] > TOP_LEFT_SLACK * (box[2] - box[0]) or lb[1] - box[1] > TOP_LEFT_SLACK * (box[3] - box[1]):
                return None
        out[ks[0]] = box
    return out  # type: ignore[return-value]


def _grow_over_text(group: list[tuple[PixelBox, int | None]], big: set, reach: float) -> PixelBox:
    """PixelBox of a head-letter group: its letter and pictures, then the text pieces (axis and
    tick labels, legends, titles) within ``reach`` of it, ring by ring. An arrow or a stray
    label further away stays out."""
    core = [b for b, l in group if l is not None or b in big]
    box = list(union(core))
    rest = [b for b, l in group if l is None and b not in big]
    changed = True
    while changed:
        changed = False
        for b in list(rest):
            if box_gap(tuple(box), b) <= reach:  # type: ignore[arg-type]
                box = list(union((box, b)))
                rest.remove(b)
                changed = True
    return tuple(box)  # type: ignore[return-value]
