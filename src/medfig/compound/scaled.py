"""Split a figure at the size the splitter reads, and map the panels back onto the full image.

Gaps, rules, letter sizes and row tolerances in the splitter are pixels of figures whose longer
side is at most ANALYSIS_MAX_SIDE (150-dpi PDF crops). An original figure file is often two to
four times that; the same figure must split the same way at any of these sizes, so
``analyze_compound`` reads a copy shrunk to that size. ``medfig build`` also
renders PDF crops at their rasters' own resolution (up to 600 dpi) and shrinks them to the crop
dpi first (``pdf_crop_factor``). Boxes are image pixels, origin top-left, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from medfig.records import InlineRef, Subfigure

if TYPE_CHECKING:
    from medfig.compound import CompoundResult

# the longer side of the figures the splitter was built and measured on (pmc_dev_corpus crops at
# 144 dpi: 10th-90th percentile 470-1020 px); a larger image is shrunk to it. A smaller one is read
# as it is: enlarging a thumbnail adds no detail and blurs the gaps (dev gold at half size: F1 71.8
# enlarged vs 77.8 as it is)
ANALYSIS_MAX_SIDE = 1200


def analysis_factor(width: int, height: int) -> float:
    """By how much to shrink a ``width`` x ``height`` image so its longer side is at most ANALYSIS_MAX_SIDE."""
    return min(1.0, ANALYSIS_MAX_SIDE / max(width, height, 1))


def resized_for_analysis(image: Image.Image, factor: float) -> Image.Image:
    """``image`` shrunk by ``factor``, area-averaged: a white gap one pixel wide stays a light line."""
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.BOX)


def scale_box(box, to_size: tuple[int, int], from_size: tuple[int, int]) -> list[int]:
    """A pixel box of an image of ``from_size`` in the pixels of the same image at ``to_size``."""
    sx, sy = to_size[0] / from_size[0], to_size[1] / from_size[1]
    x0, y0, x1, y1 = box
    return [max(0, min(to_size[0], round(x0 * sx))), max(0, min(to_size[1], round(y0 * sy))),
            max(0, min(to_size[0], round(x1 * sx))), max(0, min(to_size[1], round(y1 * sy)))]


def result_on_image(result: CompoundResult, small_size: tuple[int, int], size: tuple[int, int]) -> CompoundResult:
    """``result`` found on an image of ``small_size``, its boxes moved to the image of ``size``."""
    def back(box):
        return tuple(scale_box(box, size, small_size))

    for sub in result.subfigures:
        sub.box_px = list(back(sub.box_px))
        if sub.label_box_px:
            sub.label_box_px = list(back(sub.label_box_px))
    for label in result.ocr_labels:
        label.box = back(label.box)
    if result.layout is not None:
        result.layout.width, result.layout.height = size
        result.layout.panels = [back(b) for b in result.layout.panels]
        result.layout.text_blocks = [back(b) for b in result.layout.text_blocks]
    return result


def pdf_crop_factor(image_source: str | None, pdf_box: list[float] | None, width_px: int, crop_dpi: float) -> float:
    """How much to shrink a figure image before splitting: 1 unless it is a PDF crop rendered above
    ``crop_dpi`` (its dpi read from its width over its ``pdf_box``, in points); then crop_dpi over that."""
    if image_source != "pdf" or not pdf_box or pdf_box[2] <= pdf_box[0]:
        return 1.0
    rendered_dpi = width_px / ((pdf_box[2] - pdf_box[0]) / 72.0)
    return crop_dpi / rendered_dpi if rendered_dpi > 1.05 * crop_dpi else 1.0


def split_compound_scaled(image: Image.Image, factor: float, caption: str, inline_refs: list[InlineRef],
                          *, figure_id: str = "") -> list[Subfigure]:
    """``split_compound`` on ``image`` shrunk by ``factor`` (< 1), boxes scaled back to ``image``."""
    from medfig.compound import split_compound

    if factor >= 1.0:
        return split_compound(image, caption, inline_refs, figure_id=figure_id)
    small = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))))
    subfigures = split_compound(small, caption, inline_refs, figure_id=figure_id)
    scale = image.width / small.width, image.height / small.height

    def mapped(box: list[int]) -> list[int]:
        x0, y0, x1, y1 = box
        return [max(0, min(image.width, round(x0 * scale[0]))), max(0, min(image.height, round(y0 * scale[1]))),
                max(0, min(image.width, round(x1 * scale[0]))), max(0, min(image.height, round(y1 * scale[1])))]

    for sub in subfigures:
        sub.box_px = mapped(sub.box_px)
        if sub.label_box_px:
            sub.label_box_px = mapped(sub.label_box_px)
    return subfigures
