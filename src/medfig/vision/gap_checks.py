"""Which background runs of a figure region are gaps between panels.

The XY-cut (:mod:`medfig.vision.subfigures`) finds runs of rows or columns that are background;
the checks here keep those that separate panels and drop those inside one chart: a run an axis
line crosses, a strip of a chart's tinted plot fill its grid lines cross; and they add one kind
the ink test misses, a white rule between two photos that holds a JPEG speck; and of the thin
one-tone lines taken for rules they drop those a picture goes on across. Runs are
``(start, end)`` row or column indices of the region, end exclusive.
"""

from __future__ import annotations

import numpy as np

from medfig.vision.seams import is_picture

# A white rule between two pictures may hold one stray pixel (a JPEG speck off a letter plate
# printed in a photo's corner next to it), more than GAP_INK_FRACTION of a short rule allows; it
# is still a gap where pictures (at least PICTURE_EDGE_INK of ink) border it on both sides.
PICTURE_EDGE_INK = 0.9
PICTURE_SIDE_PX = 12  # the strip beside the rule whose texture says "picture"


def between_pictures(ink: np.ndarray, gray: np.ndarray, axis: int, min_gap: int) -> list[tuple[int, int]]:
    """Gap runs (rows: axis=1, columns: axis=0) with at most one ink pixel per line, between two
    pictures: the lines beside the rule nearly all ink, and the strips beside it textured
    (:func:`medfig.vision.seams.is_picture`; the flat bars of a bar chart on their axis line are
    not pictures)."""
    counts = ink.sum(axis=axis)
    n = ink.shape[axis]
    share = counts / max(1, n)
    out = []
    for s, e in runs(counts <= 1, min_gap):
        if share[s - 1] < PICTURE_EDGE_INK or share[e] < PICTURE_EDGE_INK:
            continue
        before = gray[max(0, s - PICTURE_SIDE_PX) : s] if axis == 1 else gray[:, max(0, s - PICTURE_SIDE_PX) : s]
        after = gray[e : e + PICTURE_SIDE_PX] if axis == 1 else gray[:, e : e + PICTURE_SIDE_PX]
        if is_picture(before) and is_picture(after):
            out.append((s, e))
    return out


def runs(is_gap: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of True of length >= min_len, not touching either end."""
    return [(s, e) for s, e in runs_anywhere(is_gap, min_len) if s > 0 and e < len(is_gap)]


FRAME_EDGE_BAND = 3  # px: a line this close to a region's edge is its frame, not an axis inside it


def unbridged(ink: np.ndarray, runs: list[tuple[int, int]], axis: int) -> list[tuple[int, int]]:
    """Gap runs no line crosses inside the region. The few ink pixels a gap may hold
    (GAP_INK_FRACTION) can be a bar chart's axis line running under its bars from one side
    of the gap to the other: the two sides are one chart, so that gap is not cut. A line at
    the region's own edge (a frame drawn round the figure or round a row of panels) crosses
    every gap between the panels it frames and is no evidence against cutting."""
    lines = ink if axis == 0 else ink.T  # rows of ``lines`` run across the gap
    n_lines = lines.shape[0]
    out = []
    for s, e in runs:
        crossing = np.flatnonzero(lines[:, s:e].all(axis=1))
        inside = crossing[(crossing >= FRAME_EDGE_BAND) & (crossing < n_lines - FRAME_EDGE_BAND)]
        if inside.size == 0:
            out.append((s, e))
    return out


WHITE_GAP_LEVEL = 245  # a gap this bright is page white; darker gaps are a tint (a chart's plot fill)
LIGHTER_LINE_STEP = 12  # a line this much lighter than a tinted gap is drawn on it (a grid line)


def untinted_or_unlined(gray: np.ndarray, runs: list[tuple[int, int]], axis: int) -> list[tuple[int, int]]:
    """Gap runs that are page white, or tinted without a lighter line running across them.
    A strip of a chart's grey plot fill between two bars is "background" to the ink test, but
    the chart's white grid lines cross it from one bar to the next: one chart, not two panels.
    A white gap between two panels can hold nothing lighter than itself; where a run holds
    white page between tinted margins (two grey plots on a white page), the white part is the gap.
    A thin white line with one flat fill on both sides is that fill's grid line, no gap."""
    lines = gray if axis == 0 else gray.T  # rows of ``lines`` run across the gap
    out = []
    for s, e in runs:
        band = lines[:, s:e].astype(np.int16)
        level = float(np.median(band))
        white = np.median(band, axis=0) >= WHITE_GAP_LEVEL  # per line across the run
        if level >= WHITE_GAP_LEVEL or not (band >= level + LIGHTER_LINE_STEP).all(axis=1).any():
            gap = (s, e)
            # its page-white lines (a grid line among the fill beside it), or all of it
            idx = np.flatnonzero(white)
            core = (s + int(idx[0]), s + int(idx[-1]) + 1) if idx.size else gap
        else:
            parts = runs_anywhere(white, 2)
            if not parts:
                continue
            a, b = max(parts, key=lambda r: r[1] - r[0])
            gap = core = (s + a, s + b)
        if not _grid_line_in_a_fill(lines, *core):
            out.append(gap)
    return out


GRID_LINE_MAX_PX = 4  # a chart's grid line; gaps between panels that touch a fill are wider
FILL_TOLERANCE = 6  # grey levels a flat fill may vary by (JPEG)
FILL_SHARE = 0.6  # of the run's length along which both sides are that one fill


def _grid_line_in_a_fill(lines: np.ndarray, s: int, e: int) -> bool:
    """Is a thin white run a grid line drawn on one tinted plot area (ggplot's white lines on grey)?
    Then the same flat fill lies on both sides of it along most of its length; between two panels
    the two sides are different pictures, or page white."""
    if e - s > GRID_LINE_MAX_PX or s < 2 or e + 2 > lines.shape[1]:
        return False
    left, right = lines[:, s - 2].astype(np.int16), lines[:, e + 1].astype(np.int16)
    level = float(np.median(left))
    if not 100 <= level < WHITE_GAP_LEVEL or abs(float(np.median(right)) - level) > FILL_TOLERANCE:
        return False
    flat = (np.abs(left - level) <= FILL_TOLERANCE) & (np.abs(right - level) <= FILL_TOLERANCE)
    return float(flat.mean()) >= FILL_SHARE


def runs_anywhere(flags: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of True of length >= min_len, touching the ends or not."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    diff = np.diff(padded)
    return [(int(a), int(b)) for a, b in zip(np.flatnonzero(diff == 1), np.flatnonzero(diff == -1)) if b - a >= min_len]


STEP_TONE = 12  # grey levels between neighbouring pixels along a line: a new cell (or a picture's edge) starts
ACROSS_MIN_STEPS = 3  # steps along each side: cell edges, not a lone edge of two pictures on black
ACROSS_SHARE = 0.8  # of each side's steps with one on the other side (within 1 px), and of pixels alike


def one_picture_across(values: np.ndarray, s: int, e: int, axis: int) -> bool:
    """Does one picture go on across the line [s, e): the tones beside it alike pixel by pixel,
    and the steps between tones along it (a heat map's cell edges) at the same places on both
    sides? A seaborn white grid is drawn at the ticks, through the middle of a column of cells,
    so the cells on both sides of each grid line are one cell. Two pictures abutting a rule
    differ beside it, and two tiles on black (CT slices) are alike only where both are black,
    with their few edges at different places. Looked at 2 and 3 px out (a resized line is blended
    into the pixels next to it)."""
    return any(_alike_across(values, s - out, e - 1 + out, axis) for out in (2, 3))


def _alike_across(values: np.ndarray, before: int, after: int, axis: int) -> bool:
    n = values.shape[0] if axis == 1 else values.shape[1]
    if before < 0 or after >= n:
        return False
    a, b = ((values[before], values[after]) if axis == 1 else (values[:, before], values[:, after]))
    a, b = a.astype(np.int16), b.astype(np.int16)
    if float((np.abs(a - b) <= 6).mean()) < ACROSS_SHARE:
        return False
    steps_a = np.flatnonzero(np.abs(np.diff(a)) > STEP_TONE)
    steps_b = np.flatnonzero(np.abs(np.diff(b)) > STEP_TONE)
    if min(steps_a.size, steps_b.size) < ACROSS_MIN_STEPS:
        return False

    def matched(x: np.ndarray, y: np.ndarray) -> float:
        """Share of the steps ``x`` with a step of ``y`` (ascending) within 1 px."""
        at = np.searchsorted(y, x)
        before = np.abs(x - y[np.clip(at - 1, 0, y.size - 1)])
        after = np.abs(y[np.clip(at, 0, y.size - 1)] - x)
        return float((np.minimum(before, after) <= 1).mean())

    return min(matched(steps_a, steps_b), matched(steps_b, steps_a)) >= ACROSS_SHARE
