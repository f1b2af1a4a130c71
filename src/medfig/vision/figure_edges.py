"""The edges of a figure image before it is cut into panels: a frame drawn round it, and a line
along one of its sides that a PDF crop caught. Both would hide the white gaps between panels
(:mod:`medfig.vision.subfigures`). Arrays are 8-bit grey, rows top to bottom."""

from __future__ import annotations

import numpy as np


def mask_bounds(mask: np.ndarray, x0: int = 0, y0: int = 0):
    """Box ``[x0, y0, x1, y1]`` of the True pixels of ``mask``, a region whose top-left is ``(x0, y0)``
    in the image's pixels; None when none."""
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    if rows.size == 0 or cols.size == 0:
        return None
    return (x0 + int(cols[0]), y0 + int(rows[0]), x0 + int(cols[-1]) + 1, y0 + int(rows[-1]) + 1)


def ink_bounds(ink: np.ndarray, box):
    """Box of the True pixels of ``ink`` (a whole-image mask) inside ``box``; None when none."""
    x0, y0, x1, y1 = box
    return mask_bounds(ink[y0:y1, x0:x1], x0, y0)


# a dark rule around a light figure up to this thick is a frame, not content: 4 px on a 144-dpi
# crop of ~700 px, the same share of a figure saved larger (a 1.4x file's frame is 5-6 px)
FRAME_MAX_PX = 4
FRAME_MAX_SHARE = 0.006


def strip_frame(gray: np.ndarray, light_level: int) -> np.ndarray:
    """Whiten a thin dark frame drawn round a light figure (PDF crops often carry the page's
    figure border): otherwise its border reads as dark and the figure is cut as a
    radiology image on black. ``light_level``: the grey from which a pixel is page."""
    h, w = gray.shape
    thickest = max(FRAME_MAX_PX, round(FRAME_MAX_SHARE * max(h, w)))
    if min(h, w) < 8 * thickest:
        return gray

    def ring(d: int, share: float = 50) -> float:
        return float(np.percentile(np.concatenate([gray[d], gray[h - 1 - d], gray[:, d], gray[:, w - 1 - d]]), share))

    if ring(0) >= light_level:
        return gray  # light border already (a 1 px frame at half size is a light grey line: still a frame)
    # the frame ends at the first ring that is page (background-light on three quarters of it): the
    # grey rim resampling leaves along a 1 px frame (2 px wide in a 1.2-1.4x file, at 160-220) is frame too
    thickness = next((d for d in range(1, thickest + 1) if ring(d, 25) >= light_level), None)
    if not thickness:
        return gray  # a genuinely dark figure
    band = max(3, round(0.02 * max(h, w)))
    inner = np.concatenate(
        [gray[thickness : thickness + band].ravel(), gray[h - thickness - band : h - thickness].ravel(),
         gray[:, thickness : thickness + band].ravel(), gray[:, w - thickness - band : w - thickness].ravel()]
    )
    if float(np.median(inner)) < 170:
        return gray
    out = gray.copy()
    t = thickness
    out[:t], out[h - t :], out[:, :t], out[:, w - t :] = 255, 255, 255, 255
    return out


EDGE_LINE_MAX_PX = 2
EDGE_LINE_MIN_PAGE = 0.05  # share of the side where the figure just inside it is page


def strip_edge_lines(gray: np.ndarray, light_level: int) -> np.ndarray:
    """Whiten a 1-2 px line along one side of the image that runs across the page just inside it
    (the side of a frame, or a neighbouring rule the PDF crop caught): it crosses every gap
    between the panels it runs past, so no gap would be found across them. A picture that fills
    the crop to its edge has no page just inside and is left alone."""
    h, w = gray.shape
    if min(h, w) < 16:
        return gray
    out = None
    sides = ((lambda d: gray[:, d], lambda t: np.s_[:, :t]), (lambda d: gray[:, w - 1 - d], lambda t: np.s_[:, w - t :]),
             (lambda d: gray[d], lambda t: np.s_[:t]), (lambda d: gray[h - 1 - d], lambda t: np.s_[h - t :]))
    for line, region in sides:
        # where the figure just inside is page (the gaps between panels), is the edge ink?
        page = line(EDGE_LINE_MAX_PX) >= light_level
        if page.mean() < EDGE_LINE_MIN_PAGE:
            continue
        t = 0
        while t < EDGE_LINE_MAX_PX and float((line(t)[page] < light_level).mean()) >= 0.95:
            t += 1
        if t:
            out = gray.copy() if out is None else out
            out[region(t)] = 255
    return gray if out is None else out


def strip_figure_edges(gray: np.ndarray, light_level: int) -> np.ndarray:
    """:func:`strip_frame` applied where the figure's ink begins, then :func:`strip_edge_lines` at
    the image's sides. A crop or a file with a few pixels of page outside its frame (a PDF region
    rounded outward, a file saved with a margin) has the frame inside its edges, where
    strip_frame did not look, and the frame's sides then crossed every gap they ran past. (A
    single line is whitened at the image's own sides only: at the edge of the ink it is as often
    a chart's axis.) Coordinates are those of ``gray``."""
    inked = mask_bounds(gray < light_level)
    if inked is not None:
        x0, y0, x1, y1 = inked
        inner = strip_frame(gray[y0:y1, x0:x1], light_level)
        if not np.shares_memory(inner, gray):
            gray = gray.copy()
            gray[y0:y1, x0:x1] = inner
    return strip_edge_lines(gray, light_level)
