"""Panels <-> panel labels <-> subcaptions.

Two alignments:

- :func:`label_alignment` (medfig's): every OCR-read panel letter is matched to the
  panel it sits in or next to (Hungarian assignment, scipy), and a panel takes the
  subcaption of its letter. Panels left without a readable letter take the remaining
  caption labels in reading order. Position subcaptions ("left", "top-right") go to
  the panel at that place.
- :func:`heuristic_alignment` (MedICaT's baseline): rows of boxes (a box joins a row
  when its top edge is within 50 px of a box already in the row), rows top to bottom,
  boxes in a row left to right; the i-th box gets the i-th subcaption and extra boxes
  the last one.

Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

import numpy as np

from medfig.text.subcaptions import ParsedCaption
from medfig.vision.panel_labels import PanelLabel
from medfig.vision.subfigures import Box

ROW_TOLERANCE_PX = 50  # MedICaT's heuristic


def reading_order(boxes: list[Box], tolerance: float = ROW_TOLERANCE_PX) -> list[int]:
    """Indices of ``boxes`` in MedICaT's reading order (rows by top edge, then x)."""
    rows: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        for row in rows:
            if any(abs(boxes[i][1] - boxes[j][1]) <= tolerance for j in row):
                row.append(i)
                break
        else:
            rows.append([i])
    rows.sort(key=lambda r: min(boxes[j][1] for j in r))
    return [i for row in rows for i in sorted(row, key=lambda j: boxes[j][0])]


def heuristic_alignment(boxes: list[Box], parsed: ParsedCaption) -> list[str | None]:
    """MedICaT's heuristic: the subcaption label of each box (None if the caption has none)."""
    labels = parsed.labels
    out: list[str | None] = [None] * len(boxes)
    if not labels:
        return out
    for rank, i in enumerate(reading_order(boxes)):
        out[i] = labels[min(rank, len(labels) - 1)]
    return out


def _gap(a: Box, b: Box) -> float:
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return float(np.hypot(dx, dy))


def _convention_bonus(label: Box, panel: Box) -> float:
    """Publishing conventions settle a letter in the gap between two stacked panels:
    "(a)" centred under a panel names that panel (Hindawi, Elsevier); a letter above a
    panel's left edge names the panel below it (Nature, Cell)."""
    w = panel[2] - panel[0]
    lcx = (label[0] + label[2]) / 2
    below = label[1] >= panel[3] - 2
    above = label[3] <= panel[1] + 2
    if below and abs(lcx - (panel[0] + panel[2]) / 2) <= 0.15 * w:
        return 0.04
    if above and abs(label[0] - panel[0]) <= 0.1 * w:
        return 0.04
    return 0.0


def assign_labels_to_panels(panels: list[Box], labels: list[PanelLabel], wanted: set[str]) -> dict[int, PanelLabel]:
    """Panel index -> the OCR label that names it. Only labels whose letter is one of
    ``wanted`` (lower-cased caption labels; any letter when empty) take part."""
    from scipy.optimize import linear_sum_assignment

    cands = [l for l in labels if not wanted or l.text.lower() in wanted]
    # one reading per letter: keep the most confident
    best: dict[str, PanelLabel] = {}
    for l in cands:
        k = l.text.lower()
        if k not in best or l.score > best[k].score:
            best[k] = l
    cands = list(best.values())
    if not cands or not panels:
        return {}
    cost = np.zeros((len(cands), len(panels)))
    for i, l in enumerate(cands):
        for j, p in enumerate(panels):
            side = max(p[2] - p[0], p[3] - p[1])
            inside = l.box[0] >= p[0] - 2 and l.box[1] >= p[1] - 2 and l.box[2] <= p[2] + 2 and l.box[3] <= p[3] + 2
            # labels sit inside a panel or in the margin next to it; far away is no match
            cost[i, j] = 0.0 if inside else _gap(l.box, p) / side + 0.05 - _convention_bonus(l.box, p)
    rows, cols = linear_sum_assignment(cost)
    out: dict[int, PanelLabel] = {}
    for r, c in zip(rows, cols):
        if cost[r, c] <= 0.35:
            out[int(c)] = cands[r]
    return out


def _position_panel(label: str, boxes: list[Box]) -> int | None:
    """Index of the box at a named position ("left", "top-right", "middle")."""
    if not boxes:
        return None
    cx = np.array([(b[0] + b[2]) / 2 for b in boxes])
    cy = np.array([(b[1] + b[3]) / 2 for b in boxes])
    score = np.zeros(len(boxes))
    words = label.split("-")
    for w in words:
        if w == "left":
            score -= cx
        elif w == "right":
            score += cx
        elif w in ("top", "upper"):
            score -= cy
        elif w in ("bottom", "lower"):
            score += cy
        elif w in ("middle", "center", "centre"):
            score -= np.abs(cx - cx.mean()) + np.abs(cy - cy.mean())
    return int(np.argmax(score))


def _lines(boxes: list[Box], axis: int) -> list[list[int]]:
    """Rows (axis=1, by top edge) or columns (axis=0, by left edge) of boxes, in order;
    a box joins a line when its edge is within ROW_TOLERANCE_PX of a box in it."""
    lines: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][axis]):
        for line in lines:
            if any(abs(boxes[i][axis] - boxes[j][axis]) <= ROW_TOLERANCE_PX for j in line):
                line.append(i)
                break
        else:
            lines.append([i])
    return sorted(lines, key=lambda line: min(boxes[j][axis] for j in line))


def _line_panels(label: str, boxes: list[Box]) -> list[int]:
    """Indices of the boxes in a named row/column ("row-top", "column-1", "column-left")."""
    kind, _, where = label.partition("-")
    lines = _lines(boxes, 1 if kind == "row" else 0)
    if not lines:
        return []
    first = ("top", "upper", "left", "1")
    last = ("bottom", "lower", "right")
    if where in first:
        return lines[0]
    if where in last:
        return lines[-1]
    if where in ("middle", "center", "centre"):
        return lines[len(lines) // 2]
    if where.isdigit() and 1 <= int(where) <= len(lines):
        return lines[int(where) - 1]
    return []


def column_order(boxes: list[Box]) -> list[int]:
    """Indices of ``boxes`` column by column (columns by left edge, top to bottom inside)."""
    return [i for col in _lines(boxes, 0) for i in sorted(col, key=lambda j: boxes[j][1])]


def _increasing(seq: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Longest run of (panel, letter) pairs whose letters increase (patience sorting)."""
    if not seq:
        return []
    best: list[list[tuple[int, str]]] = []
    for item in seq:
        pos = 0
        while pos < len(best) and best[pos][-1][1] < item[1]:
            pos += 1
        chain = (best[pos - 1] if pos else []) + [item]
        if pos == len(best):
            best.append(chain)
        elif len(chain) <= len(best[pos]) and chain[-1][1] < best[pos][-1][1]:
            best[pos] = chain
    return max(best, key=len)


def _consistent(boxes: list[Box], read: dict[int, PanelLabel]) -> tuple[dict[int, PanelLabel], list[int]]:
    """Keep the letters that run in order along the layout (row by row, or column by
    column when that explains more of them); a stray "A" (anterior) or "R" marker inside a
    panel breaks the run and is dropped. Returns the kept letters and the layout order."""
    orders = [reading_order(boxes), column_order(boxes)]
    best_keep: list[tuple[int, str]] = []
    best_order = orders[0]
    for order in orders:
        seq = [(i, read[i].text.lower()) for i in order if i in read]
        keep = _increasing(seq)
        if len(keep) > len(best_keep):
            best_keep, best_order = keep, order
    kept = {i for i, _ in best_keep}
    return {i: l for i, l in read.items() if i in kept}, best_order


# Letters whose capital and small forms look alike: OCR case is no evidence for them.
_SAME_SHAPE = set("cosuvwxz")


def case_consistent(ocr_labels: list[PanelLabel], parsed: ParsedCaption) -> list[PanelLabel]:
    """Letters read in the case the caption uses: a caption with "(a)" is not answered by
    an "A" (anterior) or "B–D" structure letters printed inside a histology panel."""
    case = parsed.letter_case
    if case is None:
        return ocr_labels
    return [
        l for l in ocr_labels
        if not l.text.isalpha() or l.text.lower() in _SAME_SHAPE or (l.text.isupper() == (case == "upper"))
    ]


def label_alignment(
    boxes: list[Box], ocr_labels: list[PanelLabel], parsed: ParsedCaption
) -> tuple[list[str | None], dict[int, PanelLabel]]:
    """medfig's alignment: (subcaption label per box, OCR label per box index)."""
    caption_labels = parsed.labels
    out: list[str | None] = [None] * len(boxes)
    letters = [l for l in caption_labels if len(l) == 1]
    positions = [l for l in caption_labels if len(l) > 1]
    read = assign_labels_to_panels(boxes, case_consistent(ocr_labels, parsed), set(letters))
    read, _ = _consistent(boxes, read)
    if letters and not read:
        return heuristic_alignment(boxes, parsed), {}
    for i, l in read.items():
        out[i] = l.text.lower()
    # panels without a readable letter take the unused caption letters in the order (row by
    # row, or column by column) that leaves the figure's letters most nearly sorted
    unused = [l for l in letters if l not in out]
    best: list[str | None] | None = None
    best_inv = None
    for order in (reading_order(boxes), column_order(boxes)):
        filled = list(out)
        queue = list(unused)
        for i in order:
            if filled[i] is None and queue:
                filled[i] = queue.pop(0)
        seq = [filled[i] for i in order if filled[i] is not None]
        inv = sum(1 for x in range(len(seq)) for y in range(x + 1, len(seq)) if seq[x] > seq[y])
        if best_inv is None or inv < best_inv:
            best, best_inv = filled, inv
    out = best if best is not None else out
    for label in positions:
        if label.startswith(("row-", "column-")):
            for i in _line_panels(label, boxes):
                if out[i] is None:
                    out[i] = label
            continue
        i = _position_panel(label, boxes)
        if i is not None and out[i] is None:
            out[i] = label
    return out, read


def _belongs_to(piece: list[int], panel: list[int]) -> bool:
    """A piece belongs to a lettered panel when it is smaller, touches it (gap at most 3% of
    the panel's longer side) and lines up with one of its edges (within 4%)."""
    pw, ph = panel[2] - panel[0], panel[3] - panel[1]
    side = max(pw, ph)
    if (piece[2] - piece[0]) * (piece[3] - piece[1]) > 0.6 * pw * ph:
        return False
    if _gap(tuple(piece), tuple(panel)) > 0.03 * side:  # type: ignore[arg-type]
        return False
    tol = 0.04 * side
    return any(abs(piece[k] - panel[k]) <= tol for k in range(4))


def merge_unlettered_panels(boxes: list[Box], ocr_labels: list[PanelLabel], parsed: ParsedCaption) -> list[Box]:
    """When the caption names fewer panels than were cut and letters were read, a piece
    without a letter (an EDX map beside its STEM image, a colour bar) joins the nearest
    lettered panel, if the joined box overlaps no other panel. MedICaT's subfigure is the
    lettered unit, not every separate picture."""
    letters = [l for l in parsed.labels if len(l) == 1]
    if not letters or len(boxes) <= len(letters):
        return boxes
    read, _ = _consistent(boxes, assign_labels_to_panels(boxes, case_consistent(ocr_labels, parsed), set(letters)))
    if len(read) < 2:
        return boxes
    merged = {i: list(b) for i, b in enumerate(boxes)}
    lettered = set(read)
    for i in sorted((i for i in merged if i not in lettered), key=lambda i: (boxes[i][2] - boxes[i][0]) * (boxes[i][3] - boxes[i][1])):
        if len(merged) <= len(letters):
            break
        if i not in merged:
            continue  # already taken in with a neighbour
        best = None
        for j in lettered:
            a, b = merged[i], merged[j]
            if not _belongs_to(a, b):
                continue
            union = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
            inside = [
                k for k, o in merged.items()
                if k not in (i, j) and k not in lettered and o[0] >= union[0] and o[1] >= union[1] and o[2] <= union[2] and o[3] <= union[3]
            ]
            clash = any(
                k not in (i, j) and k not in inside
                and min(union[2], o[2]) > max(union[0], o[0]) and min(union[3], o[3]) > max(union[1], o[1])
                for k, o in merged.items()
            )
            if not clash:
                gap = _gap(tuple(a), tuple(b))  # type: ignore[arg-type]
                if best is None or gap < best[0]:
                    best = (gap, j, union, inside)
        if best is not None:
            merged[best[1]] = best[2]
            for k in [i, *best[3]]:
                del merged[k]
    return [tuple(merged[i]) for i in sorted(merged)]  # type: ignore[misc]


# Letter-anchored grouping (eLife / Nature style: a bold "A" at the top-left of each panel,
# charts whose axes, legends and tick labels the XY-cut leaves as separate pieces).
TEXT_REACH = 0.025  # text pieces this close (share of the figure side) join their panel's box
TOP_LEFT_SLACK = 0.2  # a letter sits within this share of its group's width/height from the top-left


SLAB_OVERLAP = 0.015  # pieces overlapping by less than this share of the extent still separate


def _slabs(items: list[tuple[Box, int | None]], axis: int) -> list[list[tuple[Box, int | None]]]:
    """Items grouped into runs along ``axis`` (0: x, 1: y) separated by uncovered intervals
    (a sliver of overlap is allowed: a chart box grown over its neighbour's letter)."""
    lo, hi = axis, axis + 2
    order = sorted(items, key=lambda it: it[0][lo])
    extent = max(b[hi] for b, _ in items) - min(b[lo] for b, _ in items)
    tol = max(2.0, SLAB_OVERLAP * extent)
    out: list[list[tuple[Box, int | None]]] = []
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
    items: list[tuple[Box, int | None]], big: set, depth: int = 0, foot: bool = False
) -> list[list[tuple[Box, int | None]]] | None:
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
    groups: list[list[tuple[Box, int | None]]] = []
    if foot:
        pending: list[tuple[Box, int | None]] = []
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
    out: list[list[tuple[Box, int | None]]] = []
    for g in groups:
        sub = _group(g, big, depth + 1, foot)
        if sub is None:
            return None
        out.extend(sub)
    return out


def anchor_panels_on_letters(
    panels: list[Box], text_blocks: list[Box], ocr_labels: list[PanelLabel], parsed: ParsedCaption
) -> list[Box] | None:
    """Panels rebuilt around the letters read, when the figure follows the top-left letter
    convention: every caption letter was read once, the pieces of the figure (panels and
    text blocks) can be cut into one group per letter, and each letter heads its group
    (within ``TOP_LEFT_SLACK`` of its top-left corner). Returns one box per letter (the union
    of its group) or None when the figure does not fit (then the pieces are kept)."""
    letters = [l for l in parsed.labels if len(l) == 1 and l.isalpha()]
    if len(letters) < 2:
        return None
    by_letter: dict[str, PanelLabel] = {}
    for lab in case_consistent(ocr_labels, parsed):
        key = lab.text.lower()
        if key in letters and (key not in by_letter or lab.score > by_letter[key].score):
            by_letter[key] = lab
    if set(by_letter) != set(letters):
        inferred = infer_missing_letters(by_letter, letters)
        if inferred is None:
            return None
        letter_boxes = [tuple(by_letter[l].box) if l in by_letter else inferred[l] for l in letters]
    else:
        letter_boxes = [tuple(by_letter[l].box) for l in letters]
    items: list[tuple[Box, int | None]] = [(tuple(b), k) for k, b in enumerate(letter_boxes)]  # type: ignore[misc]
    for b in list(panels) + list(text_blocks):
        if any(_inside(lb, b) and _inside(b, lb) for lb in letter_boxes):
            continue  # the letter itself
        items.append((tuple(b), None))  # type: ignore[arg-type]
    big = {tuple(p) for p in panels}
    out = partition_on_anchors([b for b, l in items if l is None], big, letter_boxes + _next_letters(ocr_labels, parsed, by_letter))
    if out is not None:
        return out
    out = partition_on_foot_letters([b for b, l in items if l is None], big, letter_boxes)
    if out is not None:
        return out
    for foot in (False, True):
        out = _letter_groups(items, letter_boxes, big, foot)
        if out is not None:
            return out
    return None


def partition_on_foot_letters(pieces: list[Box], big: set, letter_boxes: list[Box]) -> list[Box] | None:
    """Label-anchored partition for figures whose letters sit under their panels (Hindawi,
    Elsevier: "(a)" centred below a row of pictures). Each picture goes to the letter below
    it that is nearest (horizontal offset of the centres + the gap down to the letter), so
    "(a)" under a 2 x 2 block of blots takes all four. Returns one box per letter (its
    pictures only), or None when a letter has no picture, a picture has no letter below it,
    or a letter does not sit under the middle part of its pictures."""
    pics = [b for b in pieces if b in big]
    if len(letter_boxes) < 2 or not pics:
        return None
    groups: list[list[Box]] = [[] for _ in letter_boxes]
    for b in pics:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        best = None
        for k, lb in enumerate(letter_boxes):
            if lb[1] < cy:
                continue
            d = abs(cx - (lb[0] + lb[2]) / 2) + max(0, lb[1] - b[3])
            if best is None or d < best[0]:
                best = (d, k)
        if best is None:
            return None
        groups[best[1]].append(b)
    boxes = []
    for lb, g in zip(letter_boxes, groups):
        if not g:
            return None
        box = (min(b[0] for b in g), min(b[1] for b in g), max(b[2] for b in g), max(b[3] for b in g))
        w = box[2] - box[0]
        lcx = (lb[0] + lb[2]) / 2
        if not (box[0] + 0.2 * w <= lcx <= box[2] - 0.2 * w) or lb[1] < box[3] - TOP_LEFT_SLACK * (box[3] - box[1]):
            return None
        boxes.append(box)
    # a chart's axis and tick labels (text pieces next to its plot, above its letter) join it
    everything = pics + list(letter_boxes)
    side = max(max(b[2] for b in everything) - min(b[0] for b in everything), max(b[3] for b in everything) - min(b[1] for b in everything))
    reach = max(4.0, TEXT_REACH * side)
    rest = [b for b in pieces if b not in big]
    grown = [list(b) for b in boxes]
    changed = True
    while changed:
        changed = False
        for t in list(rest):
            for k, lb in enumerate(letter_boxes):
                box = grown[k]
                if t[3] > lb[1] + 2 or _gap(tuple(box), t) > reach:  # type: ignore[arg-type]
                    continue
                union = [min(box[0], t[0]), min(box[1], t[1]), max(box[2], t[2]), max(box[3], t[3])]
                if any(j != k and _overlap_area(union, o) for j, o in enumerate(grown)):
                    continue
                grown[k] = union
                rest.remove(t)
                changed = True
                break
    boxes = [tuple(b) for b in grown]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if _overlap_area(boxes[i], boxes[j]):
                return None
    return boxes  # type: ignore[return-value]


MAX_INFERRED = 2  # letters the grid may supply, at most half as many as were read


def _clusters(values: list[float], tol: float) -> list[float]:
    """Centres of 1-D clusters (values within ``tol`` of the cluster's first value), sorted."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][0] <= tol:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(c) / len(c) for c in out]


def infer_missing_letters(by_letter: dict[str, PanelLabel], letters: list[str]) -> dict[str, Box] | None:
    """Where the caption letters OCR did not read must be, when the letters read form a grid.

    The read letters' left edges give the grid's columns and their top edges its rows
    (within one letter height). The cells no read letter occupies must be exactly as many as
    the missing letters, and filling them with the missing letters must put all the letters
    in alphabetical order row by row (or column by column); then each missing letter gets a
    box the size of the median read letter at its cell's row and column. Example: A, B, D
    read in a 2 x 2 layout: the empty cell (row 2, column 1) is C's. None when the layout is
    not such a grid, when a cell is ambiguous, or when too many letters are missing: the
    partition then falls back to the XY-cut pieces (no guess, no false split)."""
    missing = [l for l in letters if l not in by_letter]
    read = [l for l in letters if l in by_letter]
    if not missing or len(read) < 3 or len(missing) > min(MAX_INFERRED, len(read) // 2):
        return None
    boxes = [by_letter[l].box for l in read]
    hs = sorted(b[3] - b[1] for b in boxes)
    ws = sorted(b[2] - b[0] for b in boxes)
    h, w = hs[len(hs) // 2], ws[len(ws) // 2]
    if hs[-1] > 1.5 * hs[0]:
        return None  # not one family of panel letters
    cols = _clusters([b[0] for b in boxes], h)
    rows = _clusters([b[1] for b in boxes], h)

    def nearest(centres: list[float], v: float) -> int:
        return min(range(len(centres)), key=lambda k: abs(centres[k] - v))

    cell_of = {l: (nearest(rows, by_letter[l].box[1]), nearest(cols, by_letter[l].box[0])) for l in read}
    if len(set(cell_of.values())) != len(read):
        return None  # two letters in one cell: not a grid
    empty = [(r, c) for r in range(len(rows)) for c in range(len(cols)) if (r, c) not in cell_of.values()]
    if len(empty) != len(missing):
        return None
    for key in (lambda rc: rc, lambda rc: (rc[1], rc[0])):  # row by row, then column by column
        cells = sorted(list(cell_of.values()) + empty, key=key)
        filled = dict(zip(sorted(empty, key=key), sorted(missing)))
        by_cell = {**{v: k for k, v in cell_of.items()}, **filled}
        sequence = [by_cell[c] for c in cells]
        if sequence == sorted(sequence):
            return {
                l: (round(cols[c]), round(rows[r]), round(cols[c]) + w, round(rows[r]) + h)
                for (r, c), l in filled.items()
            }
    return None


EXTRA_LETTER_MIN_SCORE = 0.9  # recogniser score a letter beyond the caption's last one needs


def _next_letters(ocr_labels: list[PanelLabel], parsed: ParsedCaption, by_letter: dict[str, PanelLabel]) -> list[Box]:
    """Boxes of letters printed after the caption's last one, in sequence and at the same
    size ("G" in a figure whose caption names its seventh panel "(C)" a second time): they
    still head a panel of their own."""
    heights = [l.box[3] - l.box[1] for l in by_letter.values()]
    lo, hi = 0.75 * min(heights), 1.3 * max(heights)
    # A letter the caption does not name needs stronger evidence than one it does: a sure
    # reading of a glyph that stands free. A glyph of a rotated axis title read as the next
    # letter ("E" after a-d, touching the "n" of "Enh.") would otherwise cut a panel in two.
    read = {
        l.text.lower(): l for l in case_consistent(ocr_labels, parsed)
        if l.text.isalpha() and lo <= l.box[3] - l.box[1] <= hi and l.free and l.score >= EXTRA_LETTER_MIN_SCORE
    }
    out: list[Box] = []
    nxt = chr(ord(max(by_letter)) + 1)
    while nxt in read and nxt not in by_letter:
        out.append(tuple(read[nxt].box))  # type: ignore[arg-type]
        nxt = chr(ord(nxt) + 1)
    return out


ANCHOR_SLACK = 0.02  # share of the figure side a piece's centre may sit left of / above its letter
ANCHOR_MAX_OVERLAP = 0.15  # two panel boxes may overlap by at most this share of the smaller


def partition_on_anchors(pieces: list[Box], big: set, letter_boxes: list[Box]) -> list[Box] | None:
    """Label-anchored partition for figures whose letters head their panels (eLife, Nature,
    Cell: a bold "A" at the top-left). Each piece the XY-cut left (plot area, legend, tick-label
    strip, colour bar, title) goes to the letter above-left of its centre that is nearest in
    reading distance (dx + dy), so a panel reaches right and down to the next letter's column
    or row, whatever the white gaps inside it. Pieces above or left of every letter (a page
    header) are dropped. Returns one box per letter (letter + its pieces), or None when the
    figure does not fit the convention: a letter without a picture, a letter not at the
    top-left of its box, or boxes that overlap (then whitespace pieces are kept)."""
    if len(letter_boxes) < 2 or not pieces:
        return None
    everything = list(pieces) + list(letter_boxes)
    side = max(max(b[2] for b in everything) - min(b[0] for b in everything), max(b[3] for b in everything) - min(b[1] for b in everything))
    slack = ANCHOR_SLACK * side
    groups: list[list[Box]] = [[tuple(lb)] for lb in letter_boxes]  # type: ignore[misc]
    pictures = [0] * len(letter_boxes)
    pieces, big = _split_at_letters(pieces, big, letter_boxes)
    gaps = _row_gaps(list(pieces) + list(letter_boxes))
    for b in pieces:
        # a piece's left edge and its vertical centre: a chart piece from the XY-cut often
        # carries the tick labels of the panel above it, never the axis of the panel left of it
        px, cy = b[0], (b[1] + b[3]) / 2
        # a rotated y-axis title may stand left of its panel's letter
        eligible = [
            k for k, lb in enumerate(letter_boxes) if lb[0] <= px + slack + 1.5 * (lb[3] - lb[1]) and lb[1] <= cy + slack
        ]
        # a letter above a blank band that runs across the whole figure does not reach a piece
        # below the band when a letter starts a new row after it (a wide panel under two
        # narrow ones: its right part belongs to its own letter, not to the one above it)
        open_ = [
            k for k in eligible
            if not any(
                letter_boxes[k][3] <= g0 and g1 <= b[1] and any(letter_boxes[j][1] >= g1 - 2 for j in eligible)
                for g0, g1 in gaps
            )
        ] or eligible
        best = None
        for k in open_:
            lb = letter_boxes[k]
            d = (px - lb[0]) + (cy - lb[1])
            if best is None or d < best[0]:
                best = (d, k)
        if best is None:
            if b in big:
                return None  # a picture above or left of every letter: letters do not head panels
            continue  # a page header or a title above the first letter
        groups[best[1]].append(b)
        pictures[best[1]] += b in big
    boxes = [[min(b[0] for b in g), min(b[1] for b in g), max(b[2] for b in g), max(b[3] for b in g)] for g in groups]
    # A piece the XY-cut could not separate (a plot touching the next panel's axis title)
    # pushes its box over the next letter: a panel ends at the next letter's column (to the
    # right) or row (below).
    for k, box in enumerate(boxes):
        for j, lb in enumerate(letter_boxes):
            if j == k or not _overlap_area(box, boxes[j]):
                continue
            dx, dy = lb[0] - letter_boxes[k][0], lb[1] - letter_boxes[k][1]
            if dx > 0 and dx >= abs(dy):  # the other letter is to the right
                if box[2] > lb[0] > box[0]:
                    box[2] = lb[0]
            elif dy > 0 and dy >= abs(dx) and box[3] > lb[1] > box[1]:  # below
                box[3] = lb[1]
    # ... and a later panel whose piece reaches back over an earlier one (tick labels of the
    # panel above it) starts where the earlier one ends, if its letter stays inside
    for k, box in enumerate(boxes):
        for j, other in enumerate(boxes):
            if j == k or not _overlap_area(box, other):
                continue
            dx, dy = letter_boxes[k][0] - letter_boxes[j][0], letter_boxes[k][1] - letter_boxes[j][1]
            if dy > 0 and dy >= abs(dx):  # the other panel is above
                if box[1] < other[3] <= letter_boxes[k][1]:
                    box[1] = other[3]
            elif dx > 0 and dx >= abs(dy) and box[0] < other[2] <= letter_boxes[k][0]:
                box[0] = other[2]
    # every letter needs a picture: a panel-sized piece, or (blot strips, a table: pieces
    # each too thin to be a panel) a group of pieces that is panel-sized as a whole
    min_side = 0.07 * side
    for k, box in enumerate(boxes):
        if not pictures[k] and (len(groups[k]) < 3 or min(box[2] - box[0], box[3] - box[1]) < min_side):
            return None
    for lb, box in zip(letter_boxes, boxes):
        if lb[0] - box[0] > TOP_LEFT_SLACK * (box[2] - box[0]) or lb[1] - box[1] > TOP_LEFT_SLACK * (box[3] - box[1]):
            return None
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            inter = _overlap_area(a, b)
            smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if inter > ANCHOR_MAX_OVERLAP * smaller:
                return None
    return [tuple(b) for b in boxes]  # type: ignore[misc]


def _split_at_letters(pieces: list[Box], big: set, letter_boxes: list[Box]) -> tuple[list[Box], set]:
    """A piece that holds two or more letters (panels the XY-cut could not separate: a chart
    touching the photos beside it) is cut at the letters, recursively: at a letter's left
    edge (letters side by side) or top edge (stacked), whichever separates the letters by
    the wider margin."""
    out: list[Box] = []
    new_big = set(big)
    for b in pieces:
        parts = _cut_at_letters(b, [lb for lb in letter_boxes if _heads_inside(lb, b)])
        out.extend(parts)
        if b in big and len(parts) > 1:
            new_big.discard(b)
            new_big.update(parts)
    return out, new_big


def _row_gaps(boxes: list[Box]) -> list[tuple[int, int]]:
    """Blank horizontal bands [y0, y1) across the whole figure: rows no box covers."""
    spans = sorted((b[1], b[3]) for b in boxes)
    gaps: list[tuple[int, int]] = []
    end = spans[0][1]
    for y0, y1 in spans[1:]:
        if y0 > end:
            gaps.append((end, y0))
        end = max(end, y1)
    return gaps


def _heads_inside(lb: Box, b: Box) -> bool:
    """Does a letter head a part of piece ``b``: inside it, or just above its top edge
    (within the letter's height) over its width?"""
    h = lb[3] - lb[1]
    return b[0] <= lb[0] < b[2] and b[1] - h <= lb[1] < b[3] and lb[2] <= b[2] + 2


def _cut_at_letters(b: Box, inside: list[Box]) -> list[Box]:
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


def _overlap_area(a, b) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _letter_groups(items: list[tuple[Box, int | None]], letter_boxes: list[Box], big: set, foot: bool) -> list[Box] | None:
    """One box per letter under one convention (head: top-left letters, boxes include the
    letter; foot: letters under their panels, boxes are the pictures only), or None."""
    groups = _group(items, big, foot=foot)
    if groups is None or len(groups) != len(letter_boxes):
        return None
    side = max(max(b[2] for b, _ in items) - min(b[0] for b, _ in items), max(b[3] for b, _ in items) - min(b[1] for b, _ in items))
    reach = max(4.0, TEXT_REACH * side)
    out: list[Box | None] = [None] * len(letter_boxes)
    for g in groups:
        ks = [l for _, l in g if l is not None]
        if len(ks) != 1 or not any(l is None and b in big for b, l in g):
            return None
        lb = letter_boxes[ks[0]]
        if foot:
            pics = [b for b, l in g if l is None and b in big]
            box = (min(b[0] for b in pics), min(b[1] for b in pics), max(b[2] for b in pics), max(b[3] for b in pics))
            if lb[1] < box[3] - TOP_LEFT_SLACK * (box[3] - box[1]):
                return None  # the letter must sit under (or at the bottom of) its pictures
        else:
            box = _grow_over_text(g, big, reach)
            if lb[0] - box[0] > TOP_LEFT_SLACK * (box[2] - box[0]) or lb[1] - box[1] > TOP_LEFT_SLACK * (box[3] - box[1]):
                return None
        out[ks[0]] = box
    return out  # type: ignore[return-value]


def _grow_over_text(group: list[tuple[Box, int | None]], big: set, reach: float) -> Box:
    """Box of a head-letter group: its letter and pictures, then the text pieces (axis and
    tick labels, legends, titles) within ``reach`` of it, ring by ring. An arrow or a stray
    label further away stays out."""
    core = [b for b, l in group if l is not None or b in big]
    box = [min(b[0] for b in core), min(b[1] for b in core), max(b[2] for b in core), max(b[3] for b in core)]
    rest = [b for b, l in group if l is None and b not in big]
    changed = True
    while changed:
        changed = False
        for b in list(rest):
            if _gap(tuple(box), b) <= reach:  # type: ignore[arg-type]
                box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
                rest.remove(b)
                changed = True
    return tuple(box)  # type: ignore[return-value]


def _inside(a: Box, b: Box) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]

