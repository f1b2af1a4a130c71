"""Full-resolution PDF crops are split on a crop_dpi copy and their panels mapped back (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from medfig.compound import split_compound
from medfig.compound.scaled import pdf_crop_factor, split_compound_scaled


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


def test_images_larger_than_the_analysis_size_are_shrunk_never_enlarged():
    from medfig.compound.scaled import ANALYSIS_MAX_SIDE, analysis_factor

    assert analysis_factor(3 * ANALYSIS_MAX_SIDE, ANALYSIS_MAX_SIDE) == pytest.approx(1 / 3)
    assert analysis_factor(ANALYSIS_MAX_SIDE // 2, 100) == 1.0  # a thumbnail is read as it is
    assert analysis_factor(1, 1) == 1.0


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
