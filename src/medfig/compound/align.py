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

The panels themselves come from the XY-cut (medfig.vision.subfigures), reshaped around the
letters read by :mod:`medfig.compound.partition` and :mod:`medfig.compound.pieces`.
Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

import re

import numpy as np

from medfig.geometry import PixelBox, centre
from medfig.text.subcaptions import ParsedCaption, Subcaption
from medfig.vision.panel_labels import PanelLabel

ROW_TOLERANCE_PX = 50  # MedICaT's heuristic, on figures whose panels are 100 px tall or more ...
ROW_TOLERANCE_SHARE = 0.5  # ... and at most half the shorter box's extent: thumbnails' rows stay apart


def _same_line(a: PixelBox, b: PixelBox, axis: int, tolerance: float = ROW_TOLERANCE_PX) -> bool:
    """Do the boxes start on one row (axis 1: top edges) or column (axis 0: left edges)? Within
    ``tolerance`` px and within ROW_TOLERANCE_SHARE of the shorter box's extent across the line:
    50 px is two rows of a figure read at half size."""
    extent = min(a[axis + 2] - a[axis], b[axis + 2] - b[axis])
    return abs(a[axis] - b[axis]) <= min(tolerance, ROW_TOLERANCE_SHARE * extent)


def reading_order(boxes: list[PixelBox], tolerance: float = ROW_TOLERANCE_PX) -> list[int]:
    """Indices of ``boxes`` in MedICaT's reading order (rows by top edge, then x)."""
    rows: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        for row in rows:
            if any(_same_line(boxes[i], boxes[j], 1, tolerance) for j in row):
                row.append(i)
                break
        else:
            rows.append([i])
    rows.sort(key=lambda r: min(boxes[j][1] for j in r))
    return [i for row in rows for i in sorted(row, key=lambda j: boxes[j][0])]


def heuristic_alignment(boxes: list[PixelBox], parsed: ParsedCaption) -> list[str | None]:
    """MedICaT's heuristic: the subcaption label of each box (None if the caption has none)."""
    labels = parsed.labels
    out: list[str | None] = [None] * len(boxes)
    if not labels:
        return out
    for rank, i in enumerate(reading_order(boxes)):
        out[i] = labels[min(rank, len(labels) - 1)]
    return out


def box_gap(a: PixelBox, b: PixelBox) -> float:
    """Distance between the closest edges of two boxes (0 when they touch or overlap).

    Kept apart from :func:`medfig.geometry.edge_distance`: ``np.hypot`` and ``** 0.5``
    differ in the last bit for about 1% of integer gaps, and the thresholds were set on this."""
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return float(np.hypot(dx, dy))


def _convention_bonus(label: PixelBox, panel: PixelBox) -> float:
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


def _inside(box: PixelBox, panel: PixelBox) -> bool:
    return box[0] >= panel[0] - 2 and box[1] >= panel[1] - 2 and box[2] <= panel[2] + 2 and box[3] <= panel[3] + 2


def _letter_shaped(box: PixelBox) -> bool:
    """A panel letter is about as wide as high; a 20 x 5 px "C" is a piece of rotated text."""
    w, h = box[2] - box[0], box[3] - box[1]
    return w <= 2.5 * max(h, 1) and h <= 3.5 * max(w, 1)


def _mid_height(label: PixelBox, panel: PixelBox) -> bool:
    """Panel letters sit at a panel's top or bottom (corner, or centred under it); a glyph
    in the middle third of the panel's height, near its left edge, is an axis title's."""
    h, w = panel[3] - panel[1], panel[2] - panel[0]
    cy = (label[1] + label[3]) / 2
    return panel[1] + h / 3 < cy < panel[3] - h / 3 and label[0] - panel[0] < 0.1 * w


def sub_panel_letters(labels: list[PanelLabel]) -> set[str]:
    """Letters (lower case) printed with two or more distinct sub-numbers ("Ai", "Aii",
    "a1", "a2"): each of those sub-panels is a panel of its own (MedICaT labels them all "a")."""
    subs: dict[str, set[str]] = {}
    for l in labels:
        if l.sub and l.text.isalpha():
            subs.setdefault(l.text.lower(), set()).add(l.sub)
    return {k for k, v in subs.items() if len(v) >= 2}


# a panel letter at most this much taller or shorter than its family's median (a letter's box
# is not exact: one touching other ink reads smaller, so only a letter twice off is dropped)
FAMILY_SIZE_RATIO = 2.0


def family_readings(labels: list[PanelLabel], key) -> dict[str, PanelLabel]:
    """One reading per label key (``key(label)``), chosen by the figure's own evidence: a
    figure's panel letters share one font size and stand free. The family's size is the median
    height of the keys read once; a key read several times (an "A" at a panel corner and an
    "A" on an ultrasound screen or a gel lane) keeps the free-standing reading nearest that
    size, then the surest. A reading far off the family's size (more than FAMILY_SIZE_RATIO
    taller or shorter, with at least two keys agreeing on the size) is no panel letter."""
    by_key: dict[str, list[PanelLabel]] = {}
    for l in labels:
        by_key.setdefault(key(l), []).append(l)
    single = sorted(ls[0].box[3] - ls[0].box[1] for ls in by_key.values() if len(ls) == 1)
    size = single[len(single) // 2] if len(single) >= 2 else None
    out: dict[str, PanelLabel] = {}
    for k, ls in by_key.items():
        if size is not None:
            ls = [l for l in ls if size / FAMILY_SIZE_RATIO <= l.box[3] - l.box[1] <= size * FAMILY_SIZE_RATIO] or (
                ls if len(ls) == 1 and len(single) < 3 else [])
        if not ls:
            continue
        if size is None:
            out[k] = max(ls, key=lambda l: l.score)
        else:
            out[k] = max(ls, key=lambda l: (l.free, -abs((l.box[3] - l.box[1]) - size) // 3, l.score))
    return out


def label_key(label: PanelLabel, subbed: set[str]) -> str:
    """``"aii"`` for a sub-panel label of a letter in ``subbed``, else the letter alone."""
    return label.key if label.text.lower() in subbed else label.text.lower()


def assign_labels_to_panels(panels: list[PixelBox], labels: list[PanelLabel], wanted: set[str]) -> dict[int, PanelLabel]:
    """Panel index -> the OCR label that names it. Only labels whose letter is one of
    ``wanted`` (lower-cased caption labels; any letter when empty) take part."""
    from scipy.optimize import linear_sum_assignment

    cands = [l for l in labels if (not wanted or l.text.lower() in wanted) and _letter_shaped(l.box)]
    # one reading per letter (per sub-panel label "Ai", "Aii" where a letter has several):
    # keep the most confident
    subbed = sub_panel_letters(cands)
    best = family_readings(cands, lambda l: label_key(l, subbed))
    # a glyph of a rotated axis title ("Tail DNA", "Excess Deaths") is no label of any panel
    cands = [l for l in best.values() if not any(_inside(l.box, p) and _mid_height(l.box, p) for p in panels)]
    if not cands or not panels:
        return {}
    cost = np.zeros((len(cands), len(panels)))
    for i, l in enumerate(cands):
        for j, p in enumerate(panels):
            side = max(p[2] - p[0], p[3] - p[1])
            inside = _inside(l.box, p)
            # labels sit inside a panel or in the margin next to it; far away is no match
            cost[i, j] = 0.0 if inside else box_gap(l.box, p) / side + 0.05 - _convention_bonus(l.box, p)
    rows, cols = linear_sum_assignment(cost)
    out: dict[int, PanelLabel] = {}
    for r, c in zip(rows, cols):
        if cost[r, c] <= 0.35:
            out[int(c)] = cands[r]
    return out


def _position_panel(label: str, boxes: list[PixelBox]) -> int | None:
    """Index of the box at a named position ("left", "top-right", "middle")."""
    if not boxes:
        return None
    centres = [centre(b) for b in boxes]
    cx = np.array([c[0] for c in centres])
    cy = np.array([c[1] for c in centres])
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


_ACROSS = {"left", "right"}  # words that place a panel along a row
_DOWN = {"top", "bottom", "upper", "lower"}  # ... down a column


def _whole_line(label: str, positions: list[str], boxes: list[PixelBox]) -> str | None:
    """A caption that places its panels on one axis only ("MRI (left) and CT (right)") names the
    figure's columns when it has as many columns as such words and more than one row (a 2 x 2
    grid: "left" is the whole left column), its rows likewise ("Upper panels: ... Lower panels:
    ..."): the line's name for :func:`_line_panels` ("column-left", "row-upper"), else None."""
    named = set(positions)
    for words, axis, kind in ((_ACROSS, 0, "column"), (_DOWN, 1, "row")):
        if label in words | {"middle"} and named & words and named <= words | {"middle"} and len(named) >= 2:
            if len(_lines(boxes, axis)) == len(named) and len(_lines(boxes, 1 - axis)) >= 2:
                return f"{kind}-{label}"
    return None


def _lines(boxes: list[PixelBox], axis: int) -> list[list[int]]:
    """Rows (axis=1, by top edge) or columns (axis=0, by left edge) of boxes, in order;
    a box joins a line when its edge is close to a box's in it (:func:`_same_line`)."""
    lines: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][axis]):
        for line in lines:
            if any(_same_line(boxes[i], boxes[j], axis) for j in line):
                line.append(i)
                break
        else:
            lines.append([i])
    return sorted(lines, key=lambda line: min(boxes[j][axis] for j in line))


def _line_panels(label: str, boxes: list[PixelBox]) -> list[int]:
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


def column_order(boxes: list[PixelBox]) -> list[int]:
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


def consistent_letters(boxes: list[PixelBox], read: dict[int, PanelLabel]) -> tuple[dict[int, PanelLabel], list[int]]:
    """Keep the letters that run in order along the layout (row by row, or column by
    column when that explains more of them); a stray "A" (anterior) or "R" marker inside a
    panel breaks the run and is dropped. Returns the kept letters and the layout order."""
    orders = [reading_order(boxes), column_order(boxes)]
    best_keep: list[tuple[int, str]] = []
    best_order = orders[0]
    for order in orders:
        seq = [(i, read[i].key) for i in order if i in read]
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
    kept = [
        l for l in ocr_labels
        if not l.text.isalpha() or l.text.lower() in _SAME_SHAPE or (l.text.isupper() == (case == "upper"))
    ]
    return kept if not _whole_family_in_other_case(ocr_labels, parsed) else ocr_labels


FAMILY_HEIGHT_SPREAD = 1.3  # a figure's panel letters share one font size: tallest / shortest at most this


def _whole_family_in_other_case(ocr_labels: list[PanelLabel], parsed: ParsedCaption) -> bool:
    """Does the image print every panel letter the caption names, in one font size, each
    standing free, only in the other case ("(a)-(d)" in the caption, "A"-"D" in the figure)?
    A stray anatomical "A" or structure letters are a few letters inside a photo, never
    the caption's whole run."""
    letters = {l for l in parsed.labels if len(l) == 1 and l.isalpha()}
    if len(letters) < 2:
        return False
    best: dict[str, PanelLabel] = {}
    for l in ocr_labels:
        k = l.text.lower()
        if l.text.isalpha() and k in letters and (k not in best or l.score > best[k].score):
            best[k] = l
    if set(best) != letters or not all(l.free for l in best.values()):
        return False
    heights = [l.box[3] - l.box[1] for l in best.values()]
    return max(heights) <= FAMILY_HEIGHT_SPREAD * min(heights)


def label_alignment(
    boxes: list[PixelBox], ocr_labels: list[PanelLabel], parsed: ParsedCaption
) -> tuple[list[str | None], dict[int, PanelLabel]]:
    """medfig's alignment: (subcaption label per box, OCR label per box index)."""
    caption_labels = parsed.labels
    out: list[str | None] = [None] * len(boxes)
    letters = [l for l in caption_labels if len(l) == 1]
    positions = [l for l in caption_labels if len(l) > 1]
    read = assign_labels_to_panels(boxes, case_consistent(ocr_labels, parsed), set(letters))
    read, _ = consistent_letters(boxes, read)
    if letters and not read:
        return heuristic_alignment(boxes, parsed), {}
    if not letters and sorted(l.text.lower() for l in read.values()) != [chr(ord("a") + k) for k in range(len(read))]:
        read = {}  # the caption names no panel: only a run from a is the figure's own lettering, a
        # lone "g" or "t" is a glyph of its content ("TLR 2", a gel lane)
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
        line = label if label.startswith(("row-", "column-")) else _whole_line(label, positions, boxes)
        if line is not None:
            for i in _line_panels(line, boxes):
                if out[i] is None:
                    out[i] = label
            continue
        i = _position_panel(label, boxes)
        if i is not None and out[i] is None:
            out[i] = label
    return out, read


# the sub-number inside a caption marker: "(Aii)", "(a1)", "(A-ii)", "(b.2)"
_SUB_IN_MARKER = re.compile(r"([A-Za-z])[\-\u2013.,]?\s*(i{1,3}|iv|vi{0,3}|[1-9])\s*[\)\]]")


def sub_panel_subcaptions(read: dict[int, PanelLabel], parsed: ParsedCaption, subs: list) -> list:
    """A sub-panel whose label was read with its number ("Aii") takes the words its own caption
    marker ("(Aii)") opens, not those of every "A" sub-panel. Without such a marker (the
    caption says "(a)" for the printed "a1" and "a2") the sub-panels share the letter's text."""
    out = list(subs)
    markers = sorted(parsed.markers, key=lambda m: m.start)
    for i, lab in read.items():
        letter = lab.text.lower()
        whole = parsed.get(letter) if lab.sub else None
        if whole is None:
            continue
        for n, m in enumerate(markers):
            found = _SUB_IN_MARKER.search(parsed.caption[m.start : m.end])
            if letter not in m.labels or found is None or (found[1].lower(), found[2].lower()) != (letter, lab.sub):
                continue
            end = markers[n + 1].start if n + 1 < len(markers) else len(parsed.caption)
            spans = [sp for sp in whole.spans if m.end <= sp[0] and sp[1] <= end]
            if spans:
                out[i] = Subcaption(label=letter, spans=spans, text=" ".join(parsed.caption[a:b] for a, b in spans))
            break
    return out
