"""Full-resolution PDF crops are split on a crop_dpi copy and their panels mapped back (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from medfig.compound import split_compound
from medfig.compound.pdf_crops import pdf_crop_factor, split_compound_scaled


def test_factor_is_crop_dpi_over_the_render_dpi_of_pdf_crops_only():
    box = [72.0, 100.0, 360.0, 300.0]  # 288 pt = 4 in wide
    assert pdf_crop_factor("pdf", box, 1200, 150.0) == pytest.approx(0.5)  # rendered at 300 dpi
    assert pdf_crop_factor("pdf", box, 600, 150.0) == 1.0  # rendered at 150 dpi: as is
    assert pdf_crop_factor("package", box, 4000, 150.0) == 1.0  # a package file is never shrunk
    assert pdf_crop_factor("pdf", None, 1200, 150.0) == 1.0


def _two_photos(width: int, height: int) -> Image.Image:
    rng = np.random.default_rng(1)
    pixels = np.full((height, width, 3), 255, np.uint8)
    gap = width // 20
    half = (width - gap) // 2
    pixels[:, :half] = rng.integers(0, 200, (height, half, 3))
    pixels[:, half + gap:] = rng.integers(0, 200, (height, width - half - gap, 3))
    return Image.fromarray(pixels)


def test_panels_found_on_the_shrunk_copy_land_on_the_full_image():
    full = _two_photos(1600, 600)
    caption = "Figure 1. (a) Left photo. (b) Right photo."
    on_full = split_compound(full, caption)
    scaled = split_compound_scaled(full, 0.5, caption, [])
    assert len(on_full) == len(scaled) == 2
    for a, b in zip(on_full, scaled):
        assert all(abs(u - v) <= 3 for u, v in zip(a.box_px, b.box_px)), (a.box_px, b.box_px)
        assert a.subcaption == b.subcaption
    assert all(0 <= v <= 1600 for s in scaled for v in s.box_px[::2])


def test_images_larger_than_the_analysis_size_are_shrunk_small_print_is_enlarged():
    from medfig.compound.scaled import ANALYSIS_MAX_SIDE, analysis_factor

    assert analysis_factor(3 * ANALYSIS_MAX_SIDE, ANALYSIS_MAX_SIDE) == pytest.approx(1 / 3)
    assert analysis_factor(ANALYSIS_MAX_SIDE // 2, 100) == 1.0  # text unknown: read as it is
    assert analysis_factor(1, 1) == 1.0
    assert analysis_factor(600, 400, text_px=9.0) == 1.0  # print-size text: as it is
    # text at half its print size: enlarged until it is 7 px, at most twice, at most ANALYSIS_MAX_SIDE
    assert analysis_factor(400, 300, text_px=5.0) == pytest.approx(7 / 5)
    assert analysis_factor(400, 300, text_px=2.0) == pytest.approx(2.0)
    assert analysis_factor(1000, 800, text_px=3.5) == pytest.approx(ANALYSIS_MAX_SIDE / 1000)
    assert analysis_factor(3000, 800, text_px=3.5) == pytest.approx(ANALYSIS_MAX_SIDE / 3000)


def test_an_enlarged_copy_keeps_a_one_pixel_white_gap_white():
    from medfig.compound.scaled import resized_for_analysis

    pixels = np.zeros((40, 41), np.uint8)
    pixels[:, 20] = 255  # two black tiles, a 1 px white gap between them
    big = np.asarray(resized_for_analysis(Image.fromarray(pixels).convert("RGB"), 2.0).convert("L"))
    assert big.shape == (80, 82)
    assert (big.min(axis=0) == 255).sum() == 2  # two white columns, no grey


def test_an_original_file_three_times_the_analysis_size_gets_boxes_in_its_own_pixels():
    from medfig.compound import analyze_compound

    full = _two_photos(3600, 1200)  # photos at x 0-1710 and 1890-3600 (gap 180 px)
    result = analyze_compound(full, "Figure 1. (a) Left photo. (b) Right photo.")
    assert result.compound and (result.layout.width, result.layout.height) == (3600, 1200)
    boxes = [s.box_px for s in result.subfigures]
    assert len(boxes) == 2
    for box, expected in zip(sorted(boxes), ([0, 0, 1710, 1200], [1890, 0, 3600, 1200])):
        assert all(abs(u - v) <= 4 for u, v in zip(box, expected)), (box, expected)
    assert [s.subcaption for s in result.subfigures] == ["Left photo.", "Right photo."]
    assert all(0 <= v <= 3600 for b in result.layout.panels for v in b[::2])


def _chart_drawn_at(scale: int) -> Image.Image:
    """A chart with tick labels, axis titles and a legend, drawn (not resized) at ``scale``."""
    from PIL import ImageDraw, ImageFont

    img = Image.new("RGB", (500 * scale, 360 * scale), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=11 * scale)
    x0, y0, x1, y1 = 70 * scale, 20 * scale, 480 * scale, 300 * scale
    d.line((x0, y0, x0, y1), fill=0, width=scale)
    d.line((x0, y1, x1, y1), fill=0, width=scale)
    for k in range(6):
        y = y1 - k * (y1 - y0) // 5
        d.text((x0 - 6 * scale, y), f"{20 * k}", fill=0, font=font, anchor="rm")
        x = x0 + k * (x1 - x0) // 5
        d.text((x, y1 + 6 * scale), f"{2000 + 5 * k}", fill=0, font=font, anchor="mt")
    d.text(((x0 + x1) // 2, y1 + 28 * scale), "Year of diagnosis", fill=0, font=font, anchor="mt")
    d.text((x0 + 20 * scale, y0 + 10 * scale), "Incidence per 100,000 (all ages)", fill=0, font=font)
    return img


def test_text_height_grows_with_the_resolution_a_figure_is_saved_at():
    from medfig.vision.glyphs import text_height

    heights = {s: text_height(np.asarray(_chart_drawn_at(s).convert("L"))) for s in (1, 2, 3)}
    assert all(h is not None for h in heights.values()), heights
    assert heights[2] / heights[1] == pytest.approx(2, rel=0.2)
    assert heights[3] / heights[1] == pytest.approx(3, rel=0.2)
    # a photo shows no text on light page: nothing to measure
    rng = np.random.default_rng(3)
    assert text_height(rng.integers(0, 200, (400, 600), dtype=np.uint8)) is None


def test_a_figure_saved_at_three_times_its_print_size_is_read_at_its_print_size():
    from medfig.compound.scaled import ANALYSIS_TEXT_PX, analysis_factor, analysis_factor_of
    from medfig.vision.glyphs import text_height

    small, large = _chart_drawn_at(1), _chart_drawn_at(3)  # 500 and 1,500 px wide
    assert analysis_factor_of(small) == 1.0  # text at print size: read as it is
    factor = analysis_factor_of(large)
    # the pixel size alone would read it at 1,200 px (0.8); its text says it is 3x its print size
    assert factor < 0.8
    shrunk = large.resize((round(large.width * factor), round(large.height * factor)), Image.BOX)
    assert text_height(np.asarray(shrunk.convert("L"))) == pytest.approx(ANALYSIS_TEXT_PX, abs=2)
    # a figure whose large text is its print size keeps a readable size
    assert analysis_factor(500, 400, text_px=100.0) == pytest.approx(400 / 500)


def _reading(size: tuple[int, int], read_letters: int, confidence: float):
    """A CompoundResult of ``size`` with one panel per half, ``read_letters`` of them named by
    their OCR-read letter."""
    from medfig.compound import CompoundResult
    from medfig.records import Subfigure
    from medfig.text.subcaptions import parse_subcaptions

    w, h = size
    subs = [
        Subfigure(figure_id="f", box_px=[0, 0, w // 2, h], score=0.9, label="a", label_source="ocr" if read_letters > 0 else "order"),
        Subfigure(figure_id="f", box_px=[w // 2, 0, w, h], score=0.9, label="b", label_source="ocr" if read_letters > 1 else "order"),
    ]
    return CompoundResult(True, subs, None, [], parse_subcaptions("(a) CT. (b) MRI."), confidence, [confidence] * 2)


def _read_with(monkeypatch, size: tuple[int, int], first: int, others: int):
    """analyze_compound on a blank ``size`` image whose readings are faked: the first reads
    ``first`` caption letters (confidence 0.99), every other reading ``others`` (0.6). Returns
    the sizes read at and the result."""
    import medfig.compound as compound

    sizes: list[tuple[int, int]] = []

    def fake_analyze(img, caption, inline_refs, **kwargs):
        sizes.append(img.size)
        return _reading(img.size, first, 0.99) if len(sizes) == 1 else _reading(img.size, others, 0.6)

    monkeypatch.setattr(compound, "_analyze", fake_analyze)
    return sizes, compound.analyze_compound(Image.new("RGB", size, "white"), "(a) CT. (b) MRI.")


def test_a_shrunk_figure_is_read_at_other_scales_and_the_one_with_more_read_letters_wins(monkeypatch):
    import medfig.compound as compound

    # the first reading reads one letter with high confidence, the second both: reading stops there
    sizes, result = _read_with(monkeypatch, (3600, 1800), first=1, others=2)
    assert len(sizes) == 2 and sizes[1][0] < sizes[0][0] < 3600
    assert sizes[1][0] == pytest.approx(sizes[0][0] * compound.SECOND_READING_TEXT_SCALE, abs=2)
    assert [s.label_source for s in result.subfigures] == ["ocr", "ocr"]
    x0, y0, x1, y1 = result.subfigures[1].box_px  # back in the file's own pixels (rounding aside)
    assert abs(x0 - 1800) <= 3 and (y0, x1, y1) == (0, 3600, 1800)


def test_a_figure_at_its_own_size_with_every_letter_read_is_read_once(monkeypatch):
    sizes, _ = _read_with(monkeypatch, (800, 500), first=2, others=2)
    assert sizes == [(800, 500)]


def test_a_figure_at_its_own_size_with_letters_unread_is_read_again_smaller(monkeypatch):
    # a vector chart's "a" set against its plot frame is read at the smaller text size only
    # (mdpi agronomy Fig. 1 at 144 dpi): the crop's size gets the second reading a file gets
    import medfig.compound as compound

    sizes, result = _read_with(monkeypatch, (800, 500), first=0, others=2)
    assert sizes[0] == (800, 500) and len(sizes) == 2
    assert sizes[1][0] == pytest.approx(800 * compound.SECOND_READING_TEXT_SCALE, abs=2)
    assert [s.label_source for s in result.subfigures] == ["ocr", "ocr"]
    assert result.subfigures[1].box_px[2] == 800  # back in the figure's own pixels


def test_another_reading_needs_two_read_letters_to_replace_the_first(monkeypatch):
    # the first reading reads no letter; the others read one (a chemistry scheme's "a")
    sizes, result = _read_with(monkeypatch, (3600, 1800), first=0, others=1)
    assert len(sizes) == 3  # the text-size reading, a smaller and a larger one
    assert sizes[2][0] > sizes[0][0] > sizes[1][0]
    assert [s.label_source for s in result.subfigures] == ["order", "order"]
