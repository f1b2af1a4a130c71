"""Gap-less picture grids from real panels: the XY-cut alone vs the XY-cut + seam finder.

    .venv/bin/python benchmarks/compound_seams.py [--n 120] [--singles 60] [--seed 0]

Tiles are real pictures (the embedded images of the Hindawi/eLife gold PDFs and the MedICaT
single-panel PNGs, cut as benchmarks/compound_synthetic.py cuts them). Each figure is a grid
of 2-3 rows x 1-3 columns (at least two tiles) of distinct pictures resized to one cell,
pasted edge to edge or with a 1-2 px rule (black, grey or white), and saved as JPEG
(quality 75) as published figures are. Ground truth is exact. Single-panel figures (one
picture, same size range) measure false splits. Only ``find_panels`` runs (no OCR).

A second table runs the same two splitters on the real gold figures (``find_panels`` only,
before the compound step's letter and merge rules): pmc_dev_corpus's development publishers
(never the held-out ones of heldout_publishers.json) and the older sets.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compound_synthetic import real_panels  # noqa: E402
from harness import SUBFIGURE_GOLD, as_jpeg, format_table, ms_summary  # noqa: E402

HELDOUT = set(json.loads((Path(__file__).resolve().parent / "heldout_publishers.json").read_text())["heldout"])
GOLD_SETS = {"dev (development publishers)": "dev_corpus_gold.json", "real (test+tune)": "real_gold.json",
             "fresh": "fresh_gold.json", "heldout2": "heldout2_gold.json"}

RULES = [("touching", 0, 0), ("1 px black", 1, 0), ("2 px black", 2, 0), ("2 px grey", 2, 128), ("2 px white", 2, 255)]


def make_grid(rng: random.Random, panels: list[Image.Image]) -> tuple[Image.Image, list[tuple[int, int, int, int]], str]:
    rows, cols = rng.choice([(2, 1), (1, 2), (2, 2), (2, 3), (3, 2), (3, 3), (1, 3), (4, 2)])
    cell_w, cell_h = rng.randint(160, 300), rng.randint(140, 260)
    name, rule, level = rng.choice(RULES)
    width, height = cols * cell_w + (cols - 1) * rule, rows * cell_h + (rows - 1) * rule
    canvas = Image.new("RGB", (width, height), (level,) * 3)
    boxes = []
    for i, tile in enumerate(rng.sample(panels, rows * cols)):
        r, c = divmod(i, cols)
        x0, y0 = c * (cell_w + rule), r * (cell_h + rule)
        canvas.paste(tile.convert("RGB").resize((cell_w, cell_h), Image.BILINEAR), (x0, y0))
        boxes.append((x0, y0, x0 + cell_w, y0 + cell_h))
    return as_jpeg(canvas, 75), boxes, name


def make_single(rng: random.Random, panels: list[Image.Image]) -> Image.Image:
    tile = rng.choice(panels).convert("RGB")
    scale = rng.uniform(300, 700) / max(tile.size)
    return as_jpeg(tile.resize((max(1, round(tile.width * scale)), max(1, round(tile.height * scale))), Image.BILINEAR), 75)


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def matched(gold: list, pred: list) -> int:
    if not gold or not pred:
        return 0
    m = np.array([[_iou(g, p) for p in pred] for g in gold])
    r, c = linear_sum_assignment(-m)
    return int((m[r, c] >= 0.5).sum())


def main() -> int:
    import medfig.vision.subfigures as subfigures

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=120, help="grid figures")
    ap.add_argument("--singles", type=int, default=60, help="single-picture figures")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    panels = [p for p in real_panels() if min(p.size) >= 80]
    grids = [make_grid(rng, panels) for _ in range(args.n)]
    singles = [make_single(rng, panels) for _ in range(args.singles)]
    with_seams = subfigures.split_on_seams
    rows = []
    for label, splitter in (("XY-cut only", lambda pixels, box, is_panel: [box]), ("XY-cut + seams", with_seams)):
        subfigures.split_on_seams = splitter
        t = time.perf_counter()
        by_rule: dict[str, list[int]] = {}
        for image, boxes, rule in grids:
            got = matched(boxes, subfigures.find_panels(image).panels)
            counts = by_rule.setdefault(rule, [0, 0, 0, 0])
            counts[0] += len(boxes)
            counts[1] += got
            counts[2] += 1
            counts[3] += got == len(boxes)
        split = sum(len(subfigures.find_panels(image).panels) >= 2 for image in singles)
        ms = 1000 * (time.perf_counter() - t) / (len(grids) + len(singles))
        total = [sum(c[i] for c in by_rule.values()) for i in range(4)]
        cells = [f"{100 * c[1] / c[0]:.0f}% ({c[3]}/{c[2]})" for c in (by_rule.get(name, [1, 0, 0, 0]) for name, _, _ in RULES)]
        rows.append([label, *cells, f"{100 * total[1] / total[0]:.1f}%", f"{split}/{len(singles)}", f"{ms:.0f}"])
    subfigures.split_on_seams = with_seams
    real_rows = real_gold_rows(subfigures, with_seams)
    print(f"\n{args.n} grid figures from {len(panels)} real pictures, {args.singles} single pictures, seed {args.seed}")
    print("panels matched at IoU >= 0.5 (figures with every panel right), by separator:")
    print(format_table(["splitter", *[name for name, _, _ in RULES], "all panels", "singles split", "ms/fig"], rows,
                       align="l" + "r" * (len(RULES) + 3)))
    print("\nreal gold figures, find_panels only: gold panels matched at IoU >= 0.5, single-panel figures cut")
    print(format_table(["gold set", "splitter", "matched", "singles cut", "mean ms", "p95 ms"], real_rows, align="llrrrr"))
    return 0


def real_gold_rows(subfigures, with_seams) -> list[list[str]]:
    from compound_real_figures import load_image

    rows = []
    for name, file in GOLD_SETS.items():
        figures = [f for f in json.loads((SUBFIGURE_GOLD / file).read_text())["figures"] if f.get("publisher") not in HELDOUT]
        images = [load_image(f["source"]).convert("RGB") for f in figures]
        for label, splitter in (("XY-cut only", lambda pixels, box, is_panel: [box]), ("XY-cut + seams", with_seams)):
            subfigures.split_on_seams = splitter
            gold_n = got = singles = cut = 0
            seconds = []
            for fig, image in zip(figures, images):
                t = time.perf_counter()
                panels = subfigures.find_panels(image).panels
                seconds.append(time.perf_counter() - t)
                if fig["compound"]:
                    gold_n += len(fig["subfigures"])
                    got += matched([s["box"] for s in fig["subfigures"]], panels)
                else:
                    singles += 1
                    cut += len(panels) >= 2
            ms = ms_summary(seconds)
            rows.append([name, label, f"{got}/{gold_n}", f"{cut}/{singles}", f"{ms['mean']:.0f}", f"{ms['p95']:.0f}"])
        subfigures.split_on_seams = with_seams
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
