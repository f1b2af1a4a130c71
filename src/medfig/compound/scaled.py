"""Split a figure at the size the splitter reads, and map the panels back onto the full image.

Gaps, rules, letter sizes and row tolerances in the splitter are pixels of figures whose longer
side is at most ANALYSIS_MAX_SIDE (150-dpi PDF crops). An original figure file is often two to
four times that; the same figure must split the same way at any of these sizes, so
``analyze_compound`` reads a copy shrunk to that size, and further until the figure's own text
(its tick labels, titles, legends) is no taller than in those crops: the pixel size alone cannot
tell a large figure from a small one saved at twice the resolution, its print size can. ``medfig build`` also
renders PDF crops at their rasters' own resolution (up to 600 dpi) and shrinks them to the crop
dpi first (``medfig.compound.pdf_crops``). Boxes are image pixels, origin top-left, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import numpy as np

from PIL import Image


# the longer side of the figures the splitter was built and measured on (pmc_dev_corpus crops at
# 144 dpi: 10th-90th percentile 470-1020 px); a larger image is shrunk to it
ANALYSIS_MAX_SIDE = 1200
# The text size (medfig.vision.glyphs.text_height) of the figures the splitter was built on:
# pmc_dev_corpus crops at 144 dpi, development publishers, measure 7-12 px (10th-90th percentile),
# 12.7 at the 95th. A figure whose text is larger was saved at a higher resolution than it is
# printed at (an original file is often 2-4 times the crop); it is read shrunk until its text is
# this size, so a figure and its 1.5x, 2x or 3x file are read at one scale whatever their pixel size.
ANALYSIS_TEXT_PX = 13.0
# A figure whose text is smaller than the 10th percentile of those crops (a thumbnail, a figure
# saved at half its print size) is read enlarged until its text is that size, at most twice, by
# pixel replication: a 1 px white gap stays white (a smoothing filter greys it and the cut misses
# it; enlarging every small figure to ANALYSIS_MAX_SIDE that way lost: F1 71.8 vs 77.8 at x0.5)
ANALYSIS_TEXT_MIN_PX = 7.0
ANALYSIS_MAX_ENLARGE = 2.0
# ... and never shrunk below this longer side: a figure of large print (a poster-like diagram) keeps
# the pixels its gaps and letters need
ANALYSIS_MIN_SIDE = 400


def analysis_factor(width: int, height: int, text_px: float | None = None) -> float:
    """By how much to shrink a ``width`` x ``height`` image whose text measures ``text_px`` (None:
    unknown): so its longer side is at most ANALYSIS_MAX_SIDE and its text at most
    ANALYSIS_TEXT_PX tall, keeping ANALYSIS_MIN_SIDE; above 1 (enlarge) only where its text is
    smaller than ANALYSIS_TEXT_MIN_PX."""
    side = max(width, height, 1)
    factor = min(1.0, ANALYSIS_MAX_SIDE / side)
    if text_px and text_px > ANALYSIS_TEXT_PX:
        factor = min(factor, max(ANALYSIS_TEXT_PX / text_px, min(1.0, ANALYSIS_MIN_SIDE / side)))
    if text_px and text_px < ANALYSIS_TEXT_MIN_PX:
        factor = max(factor, min(ANALYSIS_MAX_ENLARGE, ANALYSIS_TEXT_MIN_PX / text_px, ANALYSIS_MAX_SIDE / side))
    return factor


def analysis_factor_of(image: Image.Image) -> float:
    """:func:`analysis_factor` of ``image``, its text measured on a copy at most ANALYSIS_MAX_SIDE."""
    from medfig.vision.glyphs import text_height

    first = analysis_factor(image.width, image.height)
    probe = image if first == 1.0 else resized_for_analysis(image, first)
    measured = text_height(np.asarray(probe.convert("L")))
    return analysis_factor(image.width, image.height, None if measured is None else measured / first)


def resized_for_analysis(image: Image.Image, factor: float) -> Image.Image:
    """``image`` shrunk by ``factor``, area-averaged: a white gap one pixel wide stays a light line;
    or enlarged by pixel replication, which keeps every gap as white as it is."""
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.BOX if factor < 1 else Image.NEAREST)


def scale_box(box, to_size: tuple[int, int], from_size: tuple[int, int]) -> list[int]:
    """A pixel box of an image of ``from_size`` in the pixels of the same image at ``to_size``."""
    sx, sy = to_size[0] / from_size[0], to_size[1] / from_size[1]
    x0, y0, x1, y1 = box
    return [max(0, min(to_size[0], round(x0 * sx))), max(0, min(to_size[1], round(y0 * sy))),
            max(0, min(to_size[0], round(x1 * sx))), max(0, min(to_size[1], round(y1 * sy)))]
