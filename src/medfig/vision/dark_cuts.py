"""Black gaps in a dark figure: which of them part panels.

In a dark figure (radiology on black) the XY-cut of :mod:`medfig.vision.subfigures` finds black
runs between panels, but also between two legs in one CT slice, round an inset on a black MRI,
or between clusters of cells in one fluorescence micrograph. A cut along black is kept only
where the pieces it gives look like a layout: pasted pictures with straight edges, lined up; three
or more evenly spaced pictures of nearly one size; or a regular grid crossing the region both ways.
Boxes are ``(x0, y0, x1, y1)`` pixel boxes of the analysed image, origin top-left; ``ink`` is the
figure's non-background mask.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from medfig.geometry import PixelBox, area
from medfig.vision.figure_edges import ink_bounds

DARK_SPLIT_BALANCE = 0.2  # the smallest piece of a dark cut has at least this share of the largest's area


def rectangular(ink: np.ndarray, box: PixelBox) -> bool:
    """Does the content fill its box like a pasted image (ink all along its edges)?
    An object photographed on black (a leg in a CT slice) touches its box at a few points."""
    x0, y0, x1, y1 = box
    sub = ink[y0:y1, x0:x1]
    edges = [sub[0].mean(), sub[-1].mean(), sub[:, 0].mean(), sub[:, -1].mean()]
    return float(np.mean(edges)) >= 0.6


def dark_cut_ok(ink: np.ndarray, pieces: list[PixelBox], is_panel: Callable[[PixelBox], bool]) -> bool:
    """A cut along a dark gap is kept only between two or more rectangular pieces of
    comparable size, so an inset on a black MRI, two legs in one CT slice, or a letter
    in a black corner are not split off."""
    big = [p for p in pieces if is_panel(p)]
    if len(big) < 2:
        return False  # cutting a letter or a ruler off a dark image would shrink the panel
    areas = [area(p) for p in big]
    if min(areas) < DARK_SPLIT_BALANCE * max(areas):
        return False
    if all(rectangular(ink, p) for p in big):
        return True
    # A row (or column) of pasted pictures: one of them has visible rectangular edges and all
    # line up along the cut (same top and bottom, or same left and right). Two legs in one CT
    # slice have no straight edge; an inset on a black MRI does not line up with it.
    if any(rectangular(ink, p) for p in big) and lined_up(big):
        return True
    # Radiology panels on black have no visible edge; three or more of nearly one size, evenly
    # spaced in a row or column, are a layout (an MRI series), two are not (two legs in one CT
    # slice), nor are clusters of cells scattered over one micrograph.
    return len(big) >= 3 and min(areas) >= 0.5 * max(areas) and evenly_spaced(big)


EVEN_SPACING = 1.25  # a layout's pictures: largest / smallest distance between neighbours' centres ...
EVEN_GAP_SLACK = 0.25  # ... or between their facing edges: at most this share of the widest gap apart


def evenly_spaced(pieces: list[PixelBox]) -> bool:
    """Do the pieces stand evenly along their line: their centres evenly spaced (pictures of one
    width), or the gaps between them of one width (a designer's spacing, pictures of any width)?"""
    side_by_side = all(a[2] <= b[0] or b[2] <= a[0] for i, a in enumerate(pieces) for b in pieces[i + 1 :])
    axis = 0 if side_by_side else 1
    ordered = sorted(pieces, key=lambda p: p[axis])
    centres = [(p[axis] + p[axis + 2]) / 2 for p in ordered]
    steps = [b - a for a, b in zip(centres, centres[1:])]
    gaps = [b[axis] - a[axis + 2] for a, b in zip(ordered, ordered[1:])]
    even_centres = min(steps) > 0 and max(steps) <= EVEN_SPACING * min(steps)
    return even_centres or max(gaps) - min(gaps) <= max(3, EVEN_GAP_SLACK * max(gaps))


LATTICE_SPACING_SPREAD = 1.15  # a layout grid's rows are one height, its columns one width: longest / shortest
LATTICE_MIN_CELLS = 4


def dark_lattice(ink: np.ndarray, box: PixelBox, rows: list[tuple[int, int]], cols: list[tuple[int, int]],
                 is_panel: Callable[[PixelBox], bool]) -> list[PixelBox] | None:
    """The cells of a grid of black gaps crossing a dark region both ways (an MRI or CT series
    set in rows and columns, no edges, no letters), or None. Cut one way at a time, two rows of
    such pictures look like two legs in one CT slice; the grid as a whole is the evidence: kept
    when it is regular, its rows of one height and its columns of one width, as a layout's
    are, with at least 2 x 2 cells each holding a panel-size picture of nearly one size
    (one empty cell at most, a series of five in a 2 x 3 grid). Black between the objects of
    one photograph does not line up into equal rows and columns."""
    x0, y0, x1, y1 = box

    def bands(gaps: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
        edges = [0] + [p for s, e in gaps for p in (s, e)] + [n]
        return [(a, b) for a, b in zip(edges[::2], edges[1::2]) if b > a]

    ys, xs = bands(rows, y1 - y0), bands(cols, x1 - x0)
    if len(ys) < 2 or len(xs) < 2 or len(ys) * len(xs) < LATTICE_MIN_CELLS:
        return None
    for spans in (ys, xs):
        sizes = [b - a for a, b in spans]
        if max(sizes) > LATTICE_SPACING_SPREAD * min(sizes):
            return None
    cells = [(x0 + a, y0 + c, x0 + b, y0 + d) for c, d in ys for a, b in xs]
    content = [t for t in (ink_bounds(ink, c) for c in cells) if t is not None]
    if len(content) < max(LATTICE_MIN_CELLS, len(cells) - 1) or not all(is_panel(t) for t in content):
        return None
    areas = [area(t) for t in content]
    return cells if min(areas) >= 0.5 * max(areas) else None


ALIGN_TOLERANCE = 0.05  # of the pieces' extent: edges this close count as lined up


def lined_up(pieces: list[PixelBox]) -> bool:
    """Do the pieces share their top and bottom (side by side) or left and right (stacked)?"""
    for lo, hi in ((1, 3), (0, 2)):
        extent = max(p[hi] for p in pieces) - min(p[lo] for p in pieces)
        tol = ALIGN_TOLERANCE * extent
        if max(p[lo] for p in pieces) - min(p[lo] for p in pieces) <= tol and max(p[hi] for p in pieces) - min(p[hi] for p in pieces) <= tol:
            return True
    return False
