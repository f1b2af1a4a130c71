"""Panel boxes of a compound figure by recursive XY-cut along background gaps.

A figure image is cut, recursively, at every run of rows (then columns) that is
background from edge to edge of the current region. Background is "light": the
white page or the white separator lines publishers put between panels. In a light
figure dark regions are never gaps. In a dark figure (radiology on black) black runs
are cut only where the pieces look like a layout (:mod:`medfig.vision.dark_cuts`):
a black band inside a CT slice is not a panel boundary. Thin uniform lines of any
colour that pictures abut are rules between them.

The leaves of the cut are then sorted into

- panels: regions big enough to be an image (both sides at least
  ``MIN_PANEL_SIDE_FRACTION`` of the figure's longer side), and
- text blocks: everything smaller (panel letters such as "(a)", axis labels,
  caption lines that DeepFigures-style crops carry along). Neighbouring small
  leaves on one text line are merged so "(", "a", ")" become one block
  (:mod:`medfig.vision.text_blocks`, which also lets a chart panel take in its axis text).

All boxes are ``[x0, y0, x1, y1]`` in pixels of the given image, origin top-left,
x1/y1 exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from medfig.geometry import PixelBox, area
from medfig.vision.glyphs import text_height
from medfig.vision.dark_cuts import dark_cut_ok, dark_lattice
from medfig.vision.figure_edges import ink_bounds, strip_figure_edges
from medfig.vision.gap_checks import between_pictures, one_picture_across, runs, unbridged, untinted_or_unlined
from medfig.vision.seams import split_on_seams
from medfig.vision.text_blocks import absorb_chart_text, is_rule, merge_text

# A row/column is background when at most this fraction of its pixels are ink.
GAP_INK_FRACTION = 0.004
# Pixels at least this bright are background wherever the figure's border is light.
LIGHT_LEVEL = 215
# Panels: both sides >= this fraction of the figure's longer side ...
MIN_PANEL_SIDE_FRACTION = 0.07
# ... and area >= this fraction of the figure area.
MIN_PANEL_AREA_FRACTION = 0.012
# Dark figures: pixels at most this dark are background too (which black gaps part panels:
# medfig.vision.dark_cuts).
DARK_LEVEL = 24
# Thinner slivers are rulers, colour bars or image borders, not panels.
MAX_PANEL_ASPECT = 6.0
# Analysis happens on a copy whose longer side is at most this (speed); boxes are scaled back.
ANALYSIS_MAX_SIDE = 1200


@dataclass(slots=True)
class PanelLayout:
    """Result of :func:`find_panels`. Boxes in pixels of the input image, origin top-left."""

    width: int
    height: int
    panels: list[PixelBox] = field(default_factory=list)
    text_blocks: list[PixelBox] = field(default_factory=list)
    background_light: bool = True
    # height of the figure's own text in pixels of the input image (medfig.vision.glyphs.text_height)
    text_px: float | None = None

    @property
    def compound(self) -> bool:
        return len(self.panels) >= 2


def _gray(image: Image.Image) -> np.ndarray:
    if image.mode in ("RGBA", "LA", "P"):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    return np.asarray(image.convert("L"), dtype=np.uint8)


def _background_mask(gray: np.ndarray) -> tuple[np.ndarray, bool]:
    """True where a pixel is background. Light border -> light pixels are background;
    dark border (an image that fills its crop) -> only near-white pixels are."""
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    light = float(np.median(border)) >= 170
    level = LIGHT_LEVEL if light else 235
    return gray >= level, light


THIN_RULE_SIDE_SHARE = 1 / 3  # of a thin rule's length, the least a picture beside it (one side at least) must differ from it


def _differing_share(values: np.ndarray, level: float, k: int, outward: int, axis: int) -> float:
    """The largest share of pixels differing from ``level`` in the 3 rows/columns from ``k`` outward."""
    n = values.shape[0] if axis == 1 else values.shape[1]
    shares = []
    for j in range(k, k + 3 * outward, outward):
        if 0 <= j < n:
            line = values[j] if axis == 1 else values[:, j]
            shares.append(float((np.abs(line.astype(np.int16) - level) > 12).mean()))
    return max(shares)


RULE_MAX_BREAKS = 0.25  # share of a rule's extent that may be background (a white gap it crosses)
RULE_MIXED_SHARE = 0.95  # below this share of non-light pixels a line is pieces on a light ground


def _continued(values: np.ndarray, light: np.ndarray, s: int, e: int, axis: int) -> bool:
    """Do the non-light pieces of the line [s, e) go on unchanged on both sides of it, along most
    of their length? A row through a chart's bars (the bars' colour on the plot's fill) is one
    such; a rule drawn between two pictures, shorter than its region, has pictures beside it."""
    if s < 1 or e >= (values.shape[0] if axis == 1 else values.shape[1]):
        return False

    def line(k: int) -> np.ndarray:
        return (values[k] if axis == 1 else values[:, k]).astype(np.int16)

    pieces = ~(light[s] if axis == 1 else light[:, s])
    same = (np.abs(line(s - 1) - line(s)) <= 6) & (np.abs(line(e) - line(s)) <= 6)
    return float(same[pieces].mean()) > 0.5


def _broken(light_lines: np.ndarray) -> bool:
    """Is the line (rows of the run, each True where light) background over more than
    RULE_MAX_BREAKS of its extent between its first and last dark pixel? Ragged ends are allowed
    (a rule shorter than its region); a row that crosses a chart's bars, the plot's light fill
    between them, is not a rule."""
    for row in light_lines:
        dark = np.flatnonzero(~row)
        if dark.size and float(row[dark[0] : dark[-1] + 1].mean()) > RULE_MAX_BREAKS:
            return True
    return False


def _thin_uniform_runs(values: np.ndarray, axis: int, max_len: int) -> list[tuple[int, int]]:
    """Thin separator lines of any colour: runs of 1..max_len rows (axis=1) or columns
    (axis=0) whose pixels are all one value, between rows/columns that are not uniform.
    A wide uniform band (the black air around a head CT) is not a separator."""
    v = values.astype(np.int16)
    light = v >= LIGHT_LEVEL
    # white background next to a short rule (ragged rows) does not break the rule
    hi = np.where(light, -1, v).max(axis=axis)
    lo = np.where(light, 999, v).min(axis=axis)
    dark_share = 1.0 - light.mean(axis=axis)
    spread = np.where(dark_share > 0, hi - lo, v.max(axis=axis) - v.min(axis=axis))
    level = np.where(dark_share > 0, lo, np.median(values, axis=axis))
    uniform = (spread <= 6) & ((dark_share >= 0.3) | (dark_share == 0))
    # a run is one tone: a black panel next to a grey rule is two runs
    step = np.abs(np.diff(level, prepend=level[:1])) > 6
    candidates = []
    for s, e in runs(uniform, 1):
        cuts = [s] + [i for i in range(s + 1, e) if step[i]] + [e]
        candidates += [(a, b) for a, b in zip(cuts, cuts[1:])]
    found = []
    for s, e in candidates:
        if s == 0 or e == len(uniform):
            continue
        if e - s > max_len:
            continue
        if _broken(light[s:e] if axis == 1 else light[:, s:e].T):
            continue  # one colour in pieces with background between: bars of a chart, not a rule
        if 0 < dark_share[s] < RULE_MIXED_SHARE and _continued(values, light, s, e, axis):
            continue  # bars on a plot's light fill run on through the line: no rule ends there
        if one_picture_across(values, s, e, axis):
            continue  # a grid line drawn over a heat map: its cells go on across it
        # each side must be textured or of another tone: images abut the line
        line = float(level[s])
        sides_ok = True
        for k in (s - 1, e):
            side = values[k] if axis == 1 else values[:, k]
            if spread[k] <= 40 and abs(float(np.median(side)) - line) < 12:
                sides_ok = False
        # a picture abuts a rule along much of its length, on one side at least (a letter row
        # may run along the other); black between the scattered cells of one micrograph has
        # black on both sides nearly all along. Looked at up to 3 px out: a resized picture's
        # last column is blended into the rule
        if sides_ok and max(_differing_share(values, line, s - 1, -1, axis),
                            _differing_share(values, line, e, 1, axis)) < THIN_RULE_SIDE_SHARE:
            sides_ok = False
        if sides_ok and _white_beside(light, s, e, axis):
            continue  # a chart's axis line or a box's edge, not a rule between pictures
        if sides_ok:
            found.append((s, e))
    return found


RULE_SIDE_BAND = 0.03  # share of the region's extent looked at on each side of a thin rule
RULE_SIDE_MAX_WHITE = 0.5  # a rule with more white page than this on a side is no separator


def _white_beside(light: np.ndarray, s: int, e: int, axis: int) -> bool:
    """Is one side of the thin rule [s, e) mostly white page? A rule between pasted pictures
    (the black lines between CT tiles) has picture on both sides; a bar chart's x-axis has
    white tick-label space below it and white between its bars, so cutting there would
    split the chart into its bars."""
    n = light.shape[0] if axis == 1 else light.shape[1]
    band = max(2, round(RULE_SIDE_BAND * n))
    for lo, hi in ((max(0, s - band), s), (e, min(n, e + band))):
        side = light[lo:hi] if axis == 1 else light[:, lo:hi]
        if side.size and float(side.mean()) > RULE_SIDE_MAX_WHITE:
            return True
    return False


MATRIX_MIN_CELLS = 4


def _is_matrix(cells: list[int], gaps: list[int], longest: int) -> bool:
    """Are these consecutive pieces (extents) and the gaps between them the cells of one
    picture: at least MATRIX_MIN_CELLS, each too thin to be a panel, the inner ones of one extent
    and the two at the ends no longer (grid lines drawn over a picture at its ticks cut half
    cells off its ends), parted by thin gaps of one width?"""
    if len(cells) < MATRIX_MIN_CELLS:
        return False
    inner = cells[1:-1]
    slack = max(2, 0.15 * max(inner))
    return (max(cells) < MIN_PANEL_SIDE_FRACTION * longest
            and max(inner) - min(inner) <= slack and max(cells[0], cells[-1]) <= max(inner) + slack
            and max(gaps) - min(gaps) <= 2)


def _join_cells(edges: list[int], across: int, longest: int) -> list[int]:
    """The cut's edges (piece starts and ends, alternately) with the cells of one picture joined:
    a heatmap drawn with white lines between its cells, or under a white grid, is one picture, not
    cells too small for panels (which end up as text). Only where the cells make a picture of a
    panel's size (``across``: the region's extent across the cut): a dashed line's dashes stay
    apart. A row of panels (each at least a panel's side) or of tick labels (gaps wider than thin)
    is left as it is."""
    thin = max(3, round(0.004 * longest))
    side = MIN_PANEL_SIDE_FRACTION * longest
    pieces = list(zip(edges[::2], edges[1::2]))
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(pieces):
        j = i  # the longest run from i of small pieces parted by thin gaps
        while (j + 1 < len(pieces) and pieces[j + 1][0] - pieces[j][1] <= thin
               and pieces[j + 1][1] - pieces[j + 1][0] < side):
            j += 1
        run = pieces[i : j + 1]
        cells = [b - a for a, b in run]
        gaps = [b[0] - a[1] for a, b in zip(run, run[1:])]
        if across >= side and run[-1][1] - run[0][0] >= side and _is_matrix(cells, gaps, longest):
            out.append((run[0][0], run[-1][1]))
            i = j + 1
        else:
            out.append(pieces[i])
            i += 1
    return [v for piece in out for v in piece]


def _cut(
    ink: np.ndarray,
    gray: np.ndarray,
    box: PixelBox,
    min_gap: int,
    leaves: list[PixelBox],
    depth: int = 0,
    dark: bool = False,
    trim_ink: np.ndarray | None = None,
    gap_ink: float = GAP_INK_FRACTION,
    check_dark_cuts: bool = True,
) -> None:
    def fits(piece: PixelBox) -> bool:
        return _is_panel(piece, ink.shape[1], ink.shape[0])

    # In a dark figure only white margins are trimmed: black borders belong to the images.
    trim_ink = ink if trim_ink is None else trim_ink
    trimmed = ink_bounds(trim_ink, box)
    if trimmed is None:
        return
    x0, y0, x1, y1 = trimmed
    sub = ink[y0:y1, x0:x1]
    if depth > 40 or sub.shape[0] < 2 or sub.shape[1] < 2:
        leaves.append(trimmed)
        return
    g = gray[y0:y1, x0:x1]
    # Separators, tried in order; the first kind present that passes its check is cut.
    # Generated lazily: the thin-rule search (medians over every row and column) cost ~40% of
    # a figure's time when it ran on each of the thousands of regions a chart is cut into,
    # although a white gap is found first in nearly all of them.
    def options():
        if dark:
            # white rules between panels are safe separators even in a dark figure
            white = g >= 235
            yield runs(white.mean(axis=1) >= 1 - GAP_INK_FRACTION, 2), runs(white.mean(axis=0) >= 1 - GAP_INK_FRACTION, 2), False
        row_gap = sub.sum(axis=1) <= gap_ink * sub.shape[1]
        col_gap = sub.sum(axis=0) <= gap_ink * sub.shape[0]
        rows, cols = unbridged(sub, runs(row_gap, min_gap), 1), unbridged(sub, runs(col_gap, min_gap), 0)
        if not dark:
            rows, cols = untinted_or_unlined(g, rows, 1), untinted_or_unlined(g, cols, 0)
        yield rows, cols, dark
        if not dark:
            yield between_pictures(sub, g, 1, min_gap), between_pictures(sub, g, 0, min_gap), False
        yield (
            _thin_uniform_runs(g, 1, max(3, round(0.012 * g.shape[0]))),
            _thin_uniform_runs(g, 0, max(3, round(0.012 * g.shape[1]))),
            False,
        )

    pieces: list[PixelBox] = []
    for rows, cols, checked in options():
        if not rows and not cols:
            continue
        # Cut along the axis with the widest gap first: the outermost layout structure.
        widest_row = max((e - s for s, e in rows), default=0)
        widest_col = max((e - s for s, e in cols), default=0)
        by_rows = widest_row >= widest_col
        edges = [0] + [p for s, e in (rows if by_rows else cols) for p in (s, e)] + [sub.shape[0 if by_rows else 1]]
        # a heatmap's cells parted by thin white lines are one picture
        edges = _join_cells(edges, (x1 - x0) if by_rows else (y1 - y0), max(ink.shape))
        if len(edges) == 2:
            pieces = []
            break
        pieces = [(x0, y0 + a, x1, y0 + b) if by_rows else (x0 + a, y0, x0 + b, y1) for a, b in zip(edges[::2], edges[1::2])]
        if checked and check_dark_cuts:
            lattice = dark_lattice(ink, trimmed, rows, cols, fits)
            if lattice is not None:
                pieces = lattice
                break
            content = [t for t in (ink_bounds(ink, p) for p in pieces) if t is not None]
            if not dark_cut_ok(ink, content, fits):
                pieces = []
                continue
        break
    if not pieces:
        leaves.append(trimmed)
        return
    for p in pieces:
        _cut(ink, gray, p, min_gap, leaves, depth + 1, dark, trim_ink, gap_ink, check_dark_cuts)


FLAT_BLACK = 3  # page black a composite is pasted on: no image noise at all


def _trim_flat_black(gray: np.ndarray, box: PixelBox) -> PixelBox:
    """Cut off the page's flat black (all pixels <= FLAT_BLACK) round a panel of a dark
    figure: the black gaps the XY-cut did not cut leave the outer panels reaching to the
    figure edge. A radiograph's own dark margin carries noise and is kept."""
    x0, y0, x1, y1 = box
    lit = gray > FLAT_BLACK
    trimmed = ink_bounds(lit, box)
    if trimmed is None:
        return box
    # only a margin, never the picture: keep the box when the trim would take most of it (an
    # MRI's own field of pure black round the head), unless what is left is a pasted picture,
    # lit all along its four edges (a narrow radiograph on a black page)
    return trimmed if area(trimmed) >= 0.5 * area(box) or _filled_to_its_edges(lit, trimmed) else box


PASTED_EDGE_LIT = 0.9  # share of a pasted picture's edge pixels that are not page black


def _filled_to_its_edges(lit: np.ndarray, box: PixelBox) -> bool:
    x0, y0, x1, y1 = box
    sub = lit[y0:y1, x0:x1]
    return min(sub[0].mean(), sub[-1].mean(), sub[:, 0].mean(), sub[:, -1].mean()) >= PASTED_EDGE_LIT


def _is_panel(box: PixelBox, width: int, height: int) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    longest = max(width, height)
    return (
        max(w, h) <= MAX_PANEL_ASPECT * min(w, h)
        and min(w, h) >= max(12, MIN_PANEL_SIDE_FRACTION * longest)
        and w * h >= MIN_PANEL_AREA_FRACTION * width * height
    )

def find_panels(image: Image.Image, gap_ink_fraction: float = GAP_INK_FRACTION, check_dark_cuts: bool = True) -> PanelLayout:
    """Split a figure image into panel boxes and small text blocks (see module doc).
    ``gap_ink_fraction``: the share of ink a row or column of a light figure may hold and still be
    a gap; ``check_dark_cuts=False`` cuts a dark figure at every black gap, without
    ``dark_cuts.dark_cut_ok``'s checks (both only where the caption says the figure has panels the default
    found no gap between, and its letters then confirm the split)."""
    width, height = image.size
    scale = 1.0
    work = image
    if max(width, height) > ANALYSIS_MAX_SIDE:
        scale = ANALYSIS_MAX_SIDE / max(width, height)
        # nearest keeps thin separator rules crisp (bilinear would blur them into the images)
        work = image.resize((max(1, round(width * scale)), max(1, round(height * scale))), Image.NEAREST)
    gray = strip_figure_edges(_gray(work), LIGHT_LEVEL)
    text_px = text_height(gray)
    background, light = _background_mask(gray)
    ink = ~background
    h, w = gray.shape
    leaves: list[PixelBox] = []
    # 2 px keeps the thin white rules between tightly packed radiology panels.
    if light:
        _cut(ink, gray, (0, 0, w, h), min_gap=2, leaves=leaves, gap_ink=gap_ink_fraction)
    else:
        # dark figure: black gaps separate panels too, under the checks of dark_cuts.dark_cut_ok
        dark_ink = ~((gray <= DARK_LEVEL) | (gray >= 235))
        _cut(dark_ink, gray, (0, 0, w, h), min_gap=3, leaves=leaves, dark=True, trim_ink=gray < 235,
             check_dark_cuts=check_dark_cuts)
    panels = [b for b in leaves if _is_panel(b, w, h)]
    small = [b for b in leaves if not _is_panel(b, w, h)]
    # where no gap was found at all, pictures pasted edge to edge still meet along a seam. Where the
    # gaps already cut the figure into panels, those are the layout: a straight line inside one of
    # them (a phantom's midline, repeated in every tile) is the picture's own
    if len(panels) == 1:
        pixels = np.asarray(work.convert("RGB"))
        panels = split_on_seams(pixels, panels[0], lambda t: _is_panel(t, w, h))
    # rules stay separate blocks (a chart's axis line bridges its tick labels to the plot)
    text = merge_text([b for b in small if not is_rule(b)]) + [b for b in small if is_rule(b)]
    # A text block can swallow nothing that is a panel; drop specks (JPEG noise).
    text = [b for b in text if area(b) >= 12]
    if light:
        panels = absorb_chart_text(panels, text, ink, max(w, h))
    else:
        # a piece that was mostly page black and trims to a sliver (a picture's lit edge) is no panel
        trimmed = [_trim_flat_black(gray, b) for b in panels]
        panels = [t for t in trimmed if _is_panel(t, w, h)] or trimmed

    def back(b: PixelBox) -> PixelBox:
        if scale == 1.0:
            return b
        return (
            max(0, int(b[0] / scale)),
            max(0, int(b[1] / scale)),
            min(width, int(round(b[2] / scale))),
            min(height, int(round(b[3] / scale))),
        )

    if not panels:
        # Nothing panel-sized: the whole ink area is one image (e.g. a chart of thin strokes).
        whole = ink_bounds(ink, (0, 0, w, h)) or (0, 0, w, h)
        panels = [whole]
    return PanelLayout(
        width=width,
        height=height,
        panels=[back(b) for b in panels],
        text_blocks=[back(b) for b in text],
        background_light=light,
        text_px=None if text_px is None else text_px / scale,
    )
