"""A picture of a compound-figure result: coloured panel boxes, letters and subcaptions.

Text is drawn with DejaVu Sans, shipped in ``compound/data/`` (Bitstream Vera licence,
``LICENSE_DEJAVU.txt``): Pillow's built-in font draws "≤", "−" (minus) and "×", which
captions are full of, as empty boxes (its .notdef glyph).
"""

from __future__ import annotations

import io
import textwrap
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

FONT_FILE = "data/DejaVuSans.ttf"

COLOURS = [(230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240), (240, 50, 230), (128, 128, 0)]


@lru_cache(maxsize=4)
def preview_font(size: int = 11) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels, from the package (covers Latin, Greek and math symbols)."""
    data = resources.files("medfig.compound").joinpath(FONT_FILE).read_bytes()  # works from a zip too
    return ImageFont.truetype(io.BytesIO(data), size)


def draw_preview(image: Image.Image, result) -> Image.Image:
    """The figure with each panel outlined, and a legend below: label + subcaption per colour."""
    img = image.convert("RGB")
    font = preview_font()
    legend_lines: list[tuple[tuple[int, int, int], str]] = []
    width = img.width
    chars = max(30, width // 7)
    for i, sub in enumerate(result.subfigures):
        colour = COLOURS[i % len(COLOURS)]
        text = f"[{sub.label or '?'}] {sub.subcaption or '(no subcaption)'}"
        for j, line in enumerate(textwrap.wrap(text, chars) or [text]):
            legend_lines.append((colour, line if j == 0 else "    " + line))
    if not result.compound:
        legend_lines.append(((0, 0, 0), "single panel: not split"))
    line_h = 14
    out = Image.new("RGB", (width, img.height + line_h * len(legend_lines) + 8), "white")
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    for i, sub in enumerate(result.subfigures):
        colour = COLOURS[i % len(COLOURS)]
        draw.rectangle(sub.box_px, outline=colour, width=3)
        x0, y0 = sub.box_px[0], sub.box_px[1]
        draw.rectangle([x0, y0, x0 + 22, y0 + 14], fill=colour)
        draw.text((x0 + 4, y0 + 1), (sub.label or "?")[:3], fill="white", font=font)
    y = img.height + 4
    for colour, line in legend_lines:
        draw.text((4, y), line, fill=colour, font=font)
        y += line_h
    return out
