"""Letters that head their panels (eLife, Nature, Cell: a bold "A" at the top-left): each piece
the XY-cut left goes to the nearest letter above-left of it (:func:`partition_on_anchors`), the
first convention :func:`medfig.compound.partition.anchor_panels_on_letters` tries. Boxes are
``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

from medfig.compound.pieces import row_gaps, split_at_letter_rows, split_at_letters
from medfig.geometry import PixelBox, area, intersection, union

# Letter-anchored grouping (eLife / Nature style: a bold "A" at the top-left of each panel,
# charts whose axes, legends and tick labels the XY-cut leaves as separate pieces).
TOP_LEFT_SLACK = 0.2  # a letter sits within this share of its group's width/height from the top-left
ANCHOR_SLACK = 0.02  # share of the figure side a piece's centre may sit left of / above its letter
ANCHOR_MAX_OVERLAP = 0.15  # two panel boxes may overlap by at most this share of the smaller


def partition_on_anchors(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> list[PixelBox] | None:
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
    side = longer_side(everything)
    slack = ANCHOR_SLACK * side
    groups: list[list[PixelBox]] = [[tuple(lb)] for lb in letter_boxes]  # type: ignore[misc]
    pictures = [0] * len(letter_boxes)
    pieces, big = split_at_letters(pieces, big, letter_boxes)
    pieces, big = split_at_letter_rows(pieces, big, letter_boxes)
    shared = shared_beside_panels(pieces, big, letter_boxes)
    pieces = [b for b in pieces if b not in shared]
    gaps = row_gaps(list(pieces) + list(letter_boxes))
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
    boxes = [list(union(g)) for g in groups]
    # A piece the XY-cut could not separate (a plot touching the next panel's axis title)
    # pushes its box over the next letter: a panel ends at the next letter's column (to the
    # right) or row (below).
    for k, box in enumerate(boxes):
        for j, lb in enumerate(letter_boxes):
            if j == k or not intersection(box, boxes[j]):
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
            if j == k or not intersection(box, other):
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
        # ... or one block of small pieces merged as text that is itself panel-sized (a photo of
        # wells with their labels between them, cut by the XY-cut into rows too small to be panels)
        sized = any(min(b[2] - b[0], b[3] - b[1]) >= min_side for b in groups[k][1:])
        if not pictures[k] and ((len(groups[k]) < 3 and not sized) or min(box[2] - box[0], box[3] - box[1]) < min_side):
            return None
    for lb, box in zip(letter_boxes, boxes):
        if lb[0] - box[0] > TOP_LEFT_SLACK * (box[2] - box[0]) or lb[1] - box[1] > TOP_LEFT_SLACK * (box[3] - box[1]):
            return None
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            inter = intersection(a, b)
            smaller = min(area(a), area(b))
            if inter > ANCHOR_MAX_OVERLAP * smaller:
                return None
    return [tuple(b) for b in boxes]  # type: ignore[misc]


def longer_side(boxes: list[PixelBox]) -> float:
    """Longer side of the box round all ``boxes`` (the figure's extent)."""
    u = union(boxes)
    return max(u[2] - u[0], u[3] - u[1])


def _starts(values: list[int], tolerance: float) -> list[int]:
    """Distinct rows (or columns) of letters: their top (left) edges, those within
    ``tolerance`` of the last kept one counted once."""
    out: list[int] = []
    for v in sorted(values):
        if not out or v - out[-1] > tolerance:
            out.append(v)
    return out


def shared_beside_panels(pieces: list[PixelBox], big: set, letter_boxes: list[PixelBox]) -> set:
    """Pieces that no panel owns: a piece with a lettered picture between it and the letters
    (right of a picture a letter heads) that runs across the start of another row of letters,
    by more than a letter's height on both sides, is the figure's, and so are the pieces in
    its column: a legend or colour bar beside stacked panels A-C ("Comparison to COVID-19
    deaths", spanning rows A and B), when no letter stands in that column. MedICaT's panels
    leave such parts out. A legend within one row stays with that row's panel; a panel whose
    letter stands above a title (no picture between) is its letter's."""
    if len(letter_boxes) < 2:
        return set()
    height = max(lb[3] - lb[1] for lb in letter_boxes)
    width = max(lb[2] - lb[0] for lb in letter_boxes)
    headed = [b for b in pieces if b in big and any(
        abs(lb[0] - b[0]) <= max(4 * width, TOP_LEFT_SLACK * (b[2] - b[0])) and lb[1] <= b[1] + TOP_LEFT_SLACK * (b[3] - b[1])
        and b[1] - (b[3] - b[1]) <= lb[1] for lb in letter_boxes)]
    starts = _starts([lb[1] for lb in letter_boxes], height)[1:]
    beside = [b for b in pieces if b not in headed and any(p[2] <= b[0] and p[1] < b[3] and b[1] < p[3] for p in headed)]
    across = [b for b in beside if any(b[1] < st - height and b[3] > st + height for st in starts)]
    column = {b for b in beside if any(b[0] < c[2] and c[0] < b[2] for c in across)}
    if not column:
        return set()
    x0, x1 = min(b[0] for b in column), max(b[2] for b in column)
    # a column with letters of its own holds panels, not the figure's legend
    return set() if any(x0 - 4 * width <= lb[0] < x1 for lb in letter_boxes) else column
