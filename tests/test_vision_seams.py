"""Seams between touching pictures (medfig.vision.seams) and their use in find_panels.

Synthetic grids have exact ground truth; the real figures come from ../shared/data
(pmc_dev_corpus development publishers and the Hindawi gold set), rebuilt exactly as the
gold boxes refer to them (benchmarks/compound_real_figures.load_image)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from scipy.ndimage import gaussian_filter

from medfig.vision.seams import line_evidence, split_on_seams
from medfig.vision.subfigures import _is_panel, find_panels

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "benchmarks" / "gold" / "subfigures"


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


def _picture(rng: np.random.Generator, h: int, w: int, mean: float, blur: float) -> np.ndarray:
    """A textured grey 'photo': smoothed noise around ``mean`` plus a few blobs."""
    field = gaussian_filter(rng.normal(0, 40, (h, w)), blur) * (6 + blur)
    yy, xx = np.mgrid[0:h, 0:w]
    for _ in range(3):
        cy, cx, r = rng.integers(0, h), rng.integers(0, w), rng.integers(8, max(9, min(h, w) // 3))
        field += 50 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2.0 * r * r))
    field += rng.normal(0, 4, (h, w))  # sensor noise
    return np.clip(mean + field, 0, 250).astype(np.uint8)


def _grid(rows: int, cols: int, tile_h: int, tile_w: int, rule: int = 0, rule_level: int = 0, seed: int = 0):
    """Tiles of different textures and brightness pasted edge to edge (``rule`` px of
    ``rule_level`` between them). Returns the image and the tiles' exact boxes."""
    rng = np.random.default_rng(seed)
    h = rows * tile_h + (rows - 1) * rule
    w = cols * tile_w + (cols - 1) * rule
    image = np.full((h, w), rule_level, np.uint8)
    boxes = []
    for r in range(rows):
        for c in range(cols):
            y0, x0 = r * (tile_h + rule), c * (tile_w + rule)
            mean = 70 + 25 * ((r * cols + c) % 5)
            image[y0 : y0 + tile_h, x0 : x0 + tile_w] = _picture(rng, tile_h, tile_w, mean, 1.0 + (r + c) % 3)
            boxes.append((x0, y0, x0 + tile_w, y0 + tile_h))
    return Image.fromarray(image).convert("RGB"), boxes


def _all_matched(found, truth, at: float = 0.9) -> bool:
    return len(found) == len(truth) and all(max(_iou(t, f) for f in found) >= at for t in truth)


def test_touching_tiles_of_a_grid_are_found_exactly():
    image, truth = _grid(2, 3, 180, 200)
    panels = find_panels(image).panels
    assert _all_matched(panels, truth), panels


@pytest.mark.parametrize("rule, level", [(2, 0), (1, 0), (2, 128)])
def test_thin_rules_between_tiles_survive_jpeg(rule, level):
    """Black or grey rules of 1-2 px between tiles, saved as JPEG as published figures are:
    the compression rings round the rule, so it is no longer one uniform value (the XY-cut's
    thin-rule test needs that and found one panel)."""
    image, truth = _grid(3, 2, 160, 210, rule=rule, rule_level=level, seed=3)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=75)
    panels = find_panels(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")).panels
    assert _all_matched(panels, truth), panels


def test_seam_evidence_peaks_on_the_border_only():
    image, truth = _grid(2, 1, 150, 300, seed=5)
    evidence = line_evidence(np.asarray(image))
    border = 150
    assert evidence[border - 2 : border + 3].max() > 3 * np.median(evidence)
    inside = np.r_[evidence[20 : border - 20], evidence[border + 20 : -20]]
    assert evidence[border - 2 : border + 3].max() > inside.max()


def test_one_picture_with_a_straight_edge_is_not_cut():
    """One textured picture with a bright straight band across it (a CT table, a horizon):
    a single straight line with no repetition is no grid."""
    rng = np.random.default_rng(7)
    picture = _picture(rng, 420, 520, 110, 2.0)
    picture[300:] = np.clip(picture[300:].astype(int) + 60, 0, 250).astype(np.uint8)
    pixels = np.asarray(Image.fromarray(picture).convert("RGB"))
    h, w = picture.shape
    assert split_on_seams(pixels, (0, 0, w, h), lambda b: _is_panel(b, w, h)) == [(0, 0, w, h)]


def test_a_chart_is_not_a_picture_grid():
    """Bars on a white page: flat fills, not texture; the seam finder leaves it alone."""
    chart = np.full((400, 600), 255, np.uint8)
    for i in range(6):
        chart[100 + 40 * (i % 3) : 360, 40 + 90 * i : 100 + 90 * i] = 60 + 30 * i
    chart[360:362, 30:580] = 0
    pixels = np.asarray(Image.fromarray(chart).convert("RGB"))
    assert split_on_seams(pixels, (0, 0, 600, 400), lambda b: _is_panel(b, 600, 400)) == [(0, 0, 600, 400)]


def _gold_figure(gold_file: str, key: str) -> dict:
    figures = json.loads((GOLD / gold_file).read_text())["figures"]
    return next(f for f in figures if f["figure_key"] == key)


def _load(fig: dict) -> Image.Image:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from compound_real_figures import load_image

    return load_image(fig["source"])


def test_real_ct_grid_without_gaps_is_split_into_its_eight_tiles(data_dir):
    """springer_PMC7553375 Figure 1: eight chest CT slices touching in a 4 x 2 grid. Before
    the seam finder the XY-cut returned the whole figure as one panel (0 of 8 matched)."""
    fig = _gold_figure("dev_corpus_gold.json", "springer_PMC7553375/Fig1")
    panels = find_panels(_load(fig)).panels
    gold = [s["box"] for s in fig["subfigures"]]
    assert len(panels) == 8
    assert all(max(_iou(g, p) for p in panels) >= 0.5 for g in gold)


@pytest.mark.parametrize("key", ["PMC4736806/fig8", "PMC4735921/fig3", "PMC4738949/fig4"])
def test_real_single_pictures_stay_whole(data_dir, key):
    """A clinical photo (teeth: gum lines run straight across it) and two CT slices."""
    fig = _gold_figure("real_gold.json", key)
    assert not fig["compound"]
    assert len(find_panels(_load(fig)).panels) == 1
