"""The compound preview draws "≤", "−" (minus) and "×" as glyphs, not as the font's .notdef box.

Pillow's built-in font (what the preview used before) draws all three exactly like its .notdef
glyph; the preview now uses the DejaVu Sans shipped in ``medfig/compound/data``.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from medfig.compound import CompoundResult
from medfig.compound.preview import draw_preview, preview_font
from medfig.records import Subfigure

SYMBOLS = "≤−×"
NOT_IN_ANY_FONT = "\ue000"  # a private-use code point: every font draws its .notdef glyph


def _render(font, text: str) -> np.ndarray:
    image = Image.new("L", (60, 30), 0)
    ImageDraw.Draw(image).text((5, 5), text, fill=255, font=font)
    return np.asarray(image)


def test_the_preview_font_has_real_glyphs_for_the_symbols_captions_use():
    font = preview_font()
    notdef = _render(font, NOT_IN_ANY_FONT)
    assert notdef.any(), "the .notdef glyph draws something (a box) to compare against"
    renders = {ch: _render(font, ch) for ch in SYMBOLS}
    for ch, pixels in renders.items():
        assert pixels.any(), f"{ch!r} drew nothing"
        assert not np.array_equal(pixels, notdef), f"{ch!r} is drawn as the .notdef box"
    assert len({r.tobytes() for r in renders.values()}) == len(SYMBOLS), "each symbol has its own glyph"


def test_draw_preview_legend_shows_the_symbols_not_boxes():
    image = Image.new("RGB", (240, 120), "white")

    def legend(subcaption: str) -> np.ndarray:
        result = CompoundResult(compound=True, subfigures=[
            Subfigure(figure_id="f", box_px=[0, 0, 120, 120], score=1.0, label="a", subcaption=subcaption),
            Subfigure(figure_id="f", box_px=[120, 0, 240, 120], score=1.0, label="b", subcaption="control")])
        out = np.asarray(draw_preview(image, result).convert("L"))
        return out[image.height:]  # the legend below the figure

    boxes = legend(f"p {NOT_IN_ANY_FONT * 3} 0.05")
    symbols = legend(f"p {SYMBOLS} 0.05")
    assert not np.array_equal(symbols, boxes), "the legend draws ≤ − × exactly like three .notdef boxes"
