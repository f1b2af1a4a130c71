"""Where panel letters must be: letters the OCR missed in a grid of letters, and letters
printed after the caption's last one.

Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.
"""

from __future__ import annotations

from medfig.compound.align import case_consistent
from medfig.geometry import PixelBox
from medfig.text.subcaptions import ParsedCaption
from medfig.vision.panel_labels import PanelLabel


MAX_INFERRED = 2  # letters the grid may supply, at most half as many as were read


def cluster_centres(values: list[float], tol: float) -> list[float]:
    """Centres of 1-D clusters (values within ``tol`` of the cluster's first value), sorted."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][0] <= tol:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(c) / len(c) for c in out]


def infer_missing_letters(by_letter: dict[str, PanelLabel], letters: list[str]) -> dict[str, PixelBox] | None:
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
    cols = cluster_centres([b[0] for b in boxes], h)
    rows = cluster_centres([b[1] for b in boxes], h)

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


def next_letters(ocr_labels: list[PanelLabel], parsed: ParsedCaption, by_letter: dict[str, PanelLabel]) -> list[PixelBox]:
    """Boxes of letters printed after the caption's last one, or before its first one, in
    sequence and at the same size ("G" in a figure whose caption names its seventh panel "(C)"
    a second time; "(a)" under a chart whose caption only discusses "(b) and (c)"): they still
    name a panel of their own."""
    heights = [l.box[3] - l.box[1] for l in by_letter.values()]
    lo, hi = 0.75 * min(heights), 1.3 * max(heights)
    # A letter the caption does not name needs stronger evidence than one it does: a sure
    # reading of a glyph that stands free. A glyph of a rotated axis title read as the next
    # letter ("E" after a-d, touching the "n" of "Enh.") would otherwise cut a panel in two.
    read = {
        l.text.lower(): l for l in case_consistent(ocr_labels, parsed)
        if l.text.isalpha() and lo <= l.box[3] - l.box[1] <= hi and l.free and l.score >= EXTRA_LETTER_MIN_SCORE
    }
    out: list[PixelBox] = []
    nxt = chr(ord(max(k[0] for k in by_letter)) + 1)  # keys may be sub-panels ("b2")
    while nxt in read and nxt not in by_letter:
        out.append(tuple(read[nxt].box))  # type: ignore[arg-type]
        nxt = chr(ord(nxt) + 1)
    before = chr(ord(min(k[0] for k in by_letter)) - 1)
    while before in read and before not in by_letter:
        out.append(tuple(read[before].box))  # type: ignore[arg-type]
        before = chr(ord(before) - 1)
    return out
