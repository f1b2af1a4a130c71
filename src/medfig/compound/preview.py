"""A picture of a compound-figure result: coloured panel boxes, letters and subcaptions."""

from __future__ import annotations

import textwrap

from PIL import Image, ImageDraw, ImageFont

COLOURS = [(230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240), (240, 50, 230), (128, 128, 0)]


def draw_preview(image: Image.Image, result) -> Image.Image:
    """The figure with each panel outlined, and a legend below: label + subcaption per colour."""
    img = image.convert("RGB")
    font = ImageFont.load_default()
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
