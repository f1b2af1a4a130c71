"""Split a PDF crop that ``medfig build`` rendered above the crop dpi on a copy at that dpi, the
panels mapped back onto the full image. Boxes are image pixels, origin top-left, ``[x0, y0, x1, y1]``."""

from __future__ import annotations

from PIL import Image

from medfig.compound import split_compound
from medfig.compound.scaled import scale_box
from medfig.records import InlineRef, Subfigure


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
    if factor >= 1.0:
        return split_compound(image, caption, inline_refs, figure_id=figure_id)
    small = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))))
    subfigures = split_compound(small, caption, inline_refs, figure_id=figure_id)
    for sub in subfigures:
        sub.box_px = scale_box(sub.box_px, image.size, small.size)
        if sub.label_box_px:
            sub.label_box_px = scale_box(sub.label_box_px, image.size, small.size)
    return subfigures
