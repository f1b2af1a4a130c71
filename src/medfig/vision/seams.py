"""Seams between pictures that touch: panel boundaries without a white gap.

CT and MRI series, histology grids and clinical photo montages are often pasted edge to
edge, or with a rule of one or two pixels of any colour between the tiles. The XY-cut of
:mod:`medfig.vision.subfigures` finds no background run there, so such a grid comes out
as one panel. This module looks for the evidence the pixels themselves give:

- **an abrupt change across a straight line.** Inside a picture the mean of a few rows is
  close to the mean of the next few (optics, interpolation and JPEG blur every edge), and
  where it is not (an object's outline) the outline curves, so the largest step falls on
  different rows at different places. Across the border of two pasted pictures the two
  bands come from different images, and all along the border the step peaks on the same
  line. A line's *evidence* is the share of its length where the step between the ``BAND``
  rows before and after it is the local maximum and stands out from the image's own
  typical step (its noise and texture). A thin rule of any colour peaks there too.
- **which lines are seams is decided against the image's own lines**: a seam is a robust
  outlier among all lines of the region (median + ``OUTLIER_Z`` scaled MADs), and it is
  stronger than every line inside the tiles it creates (a picture's own straight edge, a
  CT table or a horizon, is then a line like the others).
- **the tiles must look like a layout**: each one panel-sized and filled with picture (not
  the flat fills of a chart or diagram, whose panels the white gaps separate), along one
  axis of one size up to ``MAX_TILE_RATIO``, and the grid must repeat: three or more tiles
  one way, or seams both ways that run through the figure (:func:`split_on_seams`).

All boxes are ``[x0, y0, x1, y1]`` in pixels of the analysed image, origin top-left.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import cv2
import numpy as np

from medfig.geometry import PixelBox

# Robust outlier cut, in MADs scaled to a normal's standard deviation: a normal line score
# passes it with p < 3e-7, so not one of an image's ~1000 lines does by chance. (4 let the
# faint stitching lines of a microscope mosaic through: a real seam between two pictures
# stands 5-20 MADs out.)
OUTLIER_Z = 5.0
# Rows averaged on each side of a candidate line: evens out pixel noise and the 1-3 px blur
# that rendering or resampling puts on a pasted picture's border.
BAND = 3
# A step counts where it is this many times the image's median step (its noise and texture).
PEAK_OVER_TYPICAL = 2.0
# Two peaks this close (px) are one seam.
RULE_MAX_PX = 4
# Tiles along one axis: longest / shortest at most this (a grid repeats its spacing; a
# series cropped by hand varies a little).
MAX_TILE_RATIO = 1.5
# A tile is a picture when at most this share of it is flat fill or blank page (is_picture).
MAX_FLAT_SHARE = 0.5
BLANK_LEVEL = 245
BLACK_LEVEL = 24  # the black that radiology is shown on (medfig.vision.subfigures.DARK_LEVEL)
# Lines this close to a tile's edge (share of its extent) are not compared with the seam:
# panel letters, frames and scale bars sit there.
EDGE_BAND = 0.1
# At most this many strongest candidate seams are combined into a layout (2**n subsets).
MAX_CANDIDATES = 10


def line_evidence(pixels: np.ndarray, axis: int = 0) -> np.ndarray:
    """Evidence for a seam before each row (``axis`` 0) or column (1) of ``pixels`` (H x W or
    H x W x C): entry ``y`` is the share of the line's length where the step between the
    mean of the ``BAND`` lines before ``y`` and the mean of the ``BAND`` lines from ``y`` on
    is the largest within ``BAND`` lines and stands out from the image's typical step.
    Entries too near either end stay 0."""
    values = np.ascontiguousarray(pixels, dtype=np.uint8)
    length = values.shape[axis]
    out = np.zeros(length, dtype=np.float64)
    if length < 4 * BAND:
        return out
    # mean of the BAND lines from each line on, rounded to a grey level (cv2 sizes and
    # anchors are (x, y)); whole grey levels keep every step below in fast 8-bit arithmetic
    ahead = cv2.blur(values, (1, BAND) if axis == 0 else (BAND, 1), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    if axis == 1:
        ahead = np.ascontiguousarray(np.swapaxes(ahead, 0, 1))  # lines first from here on
    step = cv2.absdiff(ahead[BAND : length - BAND + 1], ahead[: length - 2 * BAND + 1])
    if step.ndim == 3:  # a colour step counts even where brightness stays
        step = np.maximum.reduce([step[..., c] for c in range(step.shape[2])])
    # the image's own typical step (noise, texture): a seam's step must clearly exceed it
    # (a strided sample gives the median to well under a grey level, at a fraction of the cost)
    floor = PEAK_OVER_TYPICAL * max(float(np.median(step[::2, ::5])), 1.0)
    local_max = cv2.dilate(step, np.ones((2 * BAND + 1, 1), np.uint8), borderType=cv2.BORDER_REPLICATE)
    peak = (step >= local_max) & (step > floor)
    out[BAND : length - BAND + 1] = peak.mean(axis=1)
    return out


def _merge_rules(positions: list[int]) -> list[int]:
    """Outlier lines within RULE_MAX_PX of each other are one seam (a blurred border, a thin
    rule's two edges); it is placed at the middle of the group."""
    merged: list[list[int]] = []
    for p in sorted(positions):
        if merged and p - merged[-1][-1] <= RULE_MAX_PX:
            merged[-1].append(p)
        else:
            merged.append([p])
    return [round((g[0] + g[-1]) / 2) for g in merged]


def _candidates(evidence: np.ndarray, min_tile: int) -> list[int]:
    """Lines whose evidence is a robust outlier among the region's lines, at least
    ``min_tile`` from either end (a seam must leave a panel on both sides)."""
    scores = evidence[1:-1]
    med = float(np.median(scores))
    mad = 1.4826 * float(np.median(np.abs(scores - med)))
    if med <= 0 or mad <= 0:
        # most lines show no change at all: drawn graphics (flat fills), not a picture whose
        # texture gives every line some evidence; an outlier among zeros means nothing
        return []
    floor = med + OUTLIER_Z * mad
    n = len(evidence)
    strong = [int(y) for y in np.flatnonzero(evidence > floor) if min_tile <= y <= n - min_tile]
    return _merge_rules(strong)


def _strength(evidence: np.ndarray, y: int) -> float:
    return float(evidence[max(0, y - RULE_MAX_PX) : y + RULE_MAX_PX + 1].max())


def _interior_max(evidence: np.ndarray, start: int, end: int) -> float:
    band = max(RULE_MAX_PX + 1, round(EDGE_BAND * (end - start)))
    inner = evidence[start + band : end - band]
    return float(inner.max()) if inner.size else 0.0


def best_seams(evidence: np.ndarray, min_tile: int) -> list[int]:
    """The largest set of candidate seams that cuts the line range into tiles of one size
    (up to MAX_TILE_RATIO), each at least ``min_tile`` long, every seam stronger than any
    line inside its two tiles. [] when there is none."""
    n = len(evidence)
    found = _candidates(evidence, min_tile)
    found = sorted(sorted(found, key=lambda y: -_strength(evidence, y))[:MAX_CANDIDATES])
    for count in range(len(found), 0, -1):
        best: tuple[float, list[int]] | None = None
        for subset in combinations(found, count):
            edges = [0, *subset, n]
            sizes = [b - a for a, b in zip(edges, edges[1:])]
            if min(sizes) < min_tile or max(sizes) > MAX_TILE_RATIO * min(sizes):
                continue
            strengths = [_strength(evidence, y) for y in subset]
            inside = [_interior_max(evidence, a, b) for a, b in zip(edges, edges[1:])]
            if any(s <= max(inside[i], inside[i + 1]) for i, s in enumerate(strengths)):
                continue
            weakest = min(strengths)
            if best is None or weakest > best[0]:
                best = (weakest, list(subset))
        if best is not None:
            return best[1]
    return []


def is_picture(pixels: np.ndarray) -> bool:
    """Is the region a picture (photo, scan, micrograph) rather than drawn graphics? A
    picture carries sensor noise and texture nearly everywhere; a chart, diagram or page is
    mostly flat fill (white page, a grey plot background, coloured bars), and its panels are
    separated by the gaps the XY-cut finds. Flat: a pixel equal to its right and lower
    neighbours, unless black (the air round a CT slice or an MRI is flat black, and a grid
    of them is still pictures); blank: near-white."""
    gray = pixels if pixels.ndim == 2 else np.maximum.reduce([pixels[..., c] for c in range(pixels.shape[2])])
    if min(gray.shape) < 2:
        return False
    g = gray.astype(np.int16)
    flat = (g[:-1, :-1] == g[1:, :-1]) & (g[:-1, :-1] == g[:-1, 1:]) & (g[:-1, :-1] > BLACK_LEVEL)
    blank = g[:-1, :-1] >= BLANK_LEVEL  # white page, JPEG noise round a chart's strokes or not
    return float((flat | blank).mean()) <= MAX_FLAT_SHARE


def split_on_seams(pixels: np.ndarray, box: PixelBox, is_panel: Callable[[PixelBox], bool]) -> list[PixelBox]:
    """Cut ``box`` of ``pixels`` (the whole analysed image, H x W [x C]) into the tiles of a
    gap-less grid. ``is_panel`` says whether a box is big enough to be a panel. Returns
    ``[box]`` when no grid is found.

    A grid repeats itself, and that is what tells it from one picture with a straight edge
    in it (a horizon, a gum line, a lung's flank). A cut is kept when

    - full-span seams run both ways (a 2 x 2 grid or larger; a single seam one way must
      show in most of the strips it crosses, see _crosses_all, while two or more at one
      spacing are their own evidence, as below), or
    - seams one way make three or more tiles, or
    - seams one way make two or more tiles, and at least two and at least half of those
      tiles are cut across at the same place (within ``ALIGN_SHARE`` of the extent; see
      _shared_cuts): rows whose columns do not
      line up through the whole figure. The agreed cut is applied to all the tiles: in a
      CT series one tile's border can fall on white tissue against white tissue and show
      nothing."""
    if not is_picture(_crop(pixels, box)):
        return [box]
    cuts = {axis: _cut_along(pixels, box, is_panel, (axis,)) for axis in (0, 1)}
    if cuts[0] is not None and cuts[1] is not None:
        rows, columns = cuts[0][1], cuts[1][1]
        grid = [t for row in rows for col in columns for t in [(col[0], row[1], col[2], row[3])]]
        if (all(is_panel(t) and is_picture(_crop(pixels, t)) for t in grid)
                and (len(rows) >= 3 or _crosses_all(pixels, box, rows, columns, 0))
                and (len(columns) >= 3 or _crosses_all(pixels, box, columns, rows, 1))):
            return grid
    found = [c for c in cuts.values() if c is not None]
    for axis, tiles in sorted(found, key=lambda c: -len(c[1])):
        across = 1 - axis
        inner = [_cut_along(pixels, tile, is_panel, (across,)) for tile in tiles]
        offsets = [[_offset(t, tile, across) for t in cut[1][1:]] if cut else [] for cut, tile in zip(inner, tiles)]
        shared = _shared_cuts(offsets, ALIGN_SHARE * _length(box, across), _length(box, across))
        if shared:
            grid = [_tile(tile, across, a, b) for tile in tiles for a, b in zip([0, *shared], [*shared, _length(tile, across)])]
            if all(is_panel(t) for t in grid):
                return grid
        if len(tiles) >= 3:
            return tiles
    return [box]


def _crosses_all(pixels: np.ndarray, box: PixelBox, tiles: list[PixelBox], strips: list[PixelBox], axis: int) -> bool:
    """Is every seam between ``tiles`` (cut along ``axis``) also a seam inside more than half
    of the ``strips`` that run across it? A grid's seam runs through the whole figure (one
    pair of tiles may hide it: white tissue against white tissue); an edge inside one
    picture (a brighter rectangle left by editing, a collimator's shadow) stops part way."""
    seams = [_offset(t, box, axis) for t in tiles[1:]]
    seen = [0] * len(seams)
    for strip in strips:
        # the strip spans the box along ``axis`` and one tile's width across it
        part = (box[0], strip[1], box[2], strip[3]) if axis == 1 else (strip[0], box[1], strip[2], box[3])
        region = _crop(pixels, part)
        found = _candidates(line_evidence(region, axis), RULE_MAX_PX + 1)
        for i, y in enumerate(seams):
            seen[i] += any(abs(y - f) <= RULE_MAX_PX for f in found)
    return all(2 * n > len(strips) for n in seen)


# Second-level seams of sibling tiles at most this share of the extent apart are one.
ALIGN_SHARE = 0.03


def _offset(tile: PixelBox, parent: PixelBox, axis: int) -> int:
    return tile[0] - parent[0] if axis == 1 else tile[1] - parent[1]


def _length(box: PixelBox, axis: int) -> int:
    return box[2] - box[0] if axis == 1 else box[3] - box[1]


def _shared_cuts(offsets: list[list[int]], tolerance: float, extent: int) -> list[int]:
    """Cut positions (one list per tile) that at least two tiles and at least half of them
    show, within ``tolerance`` of each other, as medians; [] when none, or when the pieces
    they make are not of one size (MAX_TILE_RATIO)."""
    votes = sorted((p, i) for i, cuts in enumerate(offsets) for p in cuts)
    groups: list[list[tuple[int, int]]] = []
    for vote in votes:
        if groups and vote[0] - groups[-1][-1][0] <= tolerance:
            groups[-1].append(vote)
        else:
            groups.append([vote])
    needed = max(2, -(-len(offsets) // 2))
    cuts = [int(np.median([p for p, _ in g])) for g in groups if len({i for _, i in g}) >= needed]
    sizes = np.diff([0, *cuts, extent])
    if not cuts or sizes.max() > MAX_TILE_RATIO * sizes.min():
        return []
    return cuts


def _cut_along(
    pixels: np.ndarray, box: PixelBox, is_panel: Callable[[PixelBox], bool], axes: tuple[int, ...]
) -> tuple[int, list[PixelBox]] | None:
    """The most certain seam cut of ``box`` along one of ``axes`` (0: rows, 1: columns):
    (axis, tiles), or None."""
    x0, y0, x1, y1 = box
    region = pixels[y0:y1, x0:x1]
    if not is_picture(region):
        return None
    options = []
    for axis in axes:
        extent = region.shape[axis]
        # a tile must be panel-sized: the smallest extent is_panel accepts
        min_tile = next((t for t in range(8, extent // 2 + 1, 4) if is_panel(_tile(box, axis, 0, t))), None)
        if min_tile is None:
            continue
        evidence = line_evidence(region, axis)
        seams = best_seams(evidence, min_tile)
        if not seams:
            continue
        edges = [0, *seams, extent]
        tiles = [_tile(box, axis, a, b) for a, b in zip(edges, edges[1:])]
        if all(is_panel(t) and is_picture(_crop(pixels, t)) for t in tiles):
            options.append((min(_strength(evidence, y) for y in seams), axis, tiles))
    if not options:
        return None
    # the most certain cut first: its weakest seam is the strongest
    _, axis, tiles = max(options, key=lambda o: o[0])
    return axis, tiles


def _tile(box: PixelBox, axis: int, a: int, b: int) -> PixelBox:
    x0, y0, x1, y1 = box
    return (x0, y0 + a, x1, y0 + b) if axis == 0 else (x0 + a, y0, x0 + b, y1)


def _crop(pixels: np.ndarray, box: PixelBox) -> np.ndarray:
    x0, y0, x1, y1 = box
    return pixels[y0:y1, x0:x1]
