"""Dark figures with exact ground truth: single micrographs that must stay whole, radiology
series on black that must be cut into their cells.

    .venv/bin/python benchmarks/compound_dark_synthetic.py [--n 40] [--seed 3]

No gold set of ``../shared/data`` holds either kind of figure in a form that tests it (the real
dark series are lettered or framed), so both are drawn here, with the failure each one stands for:

- ``single micrograph``: scattered round cells of one stain on black (fluorescence). Black
  between clusters of cells crosses the whole image, as a black gap between panels does; the
  figure is one panel. Three densities (8 cells up to 60 px, 15 up to 40 px, 30 up to 25 px).
- ``series on black``: round CT-like slices (noisy grey discs with brighter and darker spots)
  in a regular grid on black, no letters, no edges, no white gaps: 1 x 3, 1 x 4, 2 x 2, 2 x 3 and
  3 x 3. Right when the figure is cut into exactly its cells, each box holding one slice.

Prints, per kind and layout, the share of figures ``analyze_compound`` (what ``medfig compound``
runs) gets right. Caption: one sentence naming no panel.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import format_table  # noqa: E402


def micrograph(rng: np.random.Generator, cells: int, largest: float, size=(600, 400)) -> Image.Image:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w]
    pixels = np.zeros((h, w, 3), np.float32)
    for _ in range(cells):
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(5, largest)
        disc = (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
        pixels[disc] = np.array([0, rng.uniform(120, 255), 0]) + rng.normal(0, 10, (int(disc.sum()), 3))
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def series(rng: np.random.Generator, rows: int, cols: int, cell: int = 200) -> tuple[Image.Image, list[tuple[int, int]]]:
    h, w = rows * cell, cols * cell
    yy, xx = np.mgrid[0:h, 0:w]
    pixels = np.zeros((h, w), np.float32)
    centres = []
    for r in range(rows):
        for c in range(cols):
            cy, cx = cell * r + cell / 2 + rng.normal(0, 4), cell * c + cell / 2 + rng.normal(0, 4)
            ry, rx = cell * rng.uniform(0.36, 0.42), cell * rng.uniform(0.38, 0.45)
            body = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1
            pixels[body] = 110 + rng.normal(0, 12, int(body.sum()))
            for _ in range(4):
                sy, sx, sr = cy + rng.uniform(-0.5, 0.5) * ry, cx + rng.uniform(-0.5, 0.5) * rx, rng.uniform(5, 18)
                pixels[(yy - sy) ** 2 + (xx - sx) ** 2 < sr * sr] = rng.uniform(30, 230)
            centres.append((round(cx), round(cy)))
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).convert("RGB"), centres


def main() -> int:
    from medfig.compound import analyze_compound, warm_up

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="figures per row of the table")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    warm_up()
    caption = "Imaging of the lesion."
    rows = []
    for cells, largest in ((8, 60), (15, 40), (30, 25)):
        kept = sum(not analyze_compound(micrograph(rng, cells, largest), caption).compound for _ in range(args.n))
        rows.append(["single micrograph", f"{cells} cells, up to {largest} px", str(args.n), f"{kept / args.n:.3f}", "kept whole"])
    for grid in ((1, 3), (1, 4), (2, 2), (2, 3), (3, 3)):
        right = 0
        for _ in range(args.n):
            image, centres = series(rng, *grid)
            boxes = [s.box_px for s in analyze_compound(image, caption).subfigures]
            one_each = len(boxes) == len(centres) and all(
                sum(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes) == 1 for x, y in centres)
            right += one_each
        rows.append(["series on black", f"{grid[0]} x {grid[1]}", str(args.n), f"{right / args.n:.3f}", "cut into its cells"])
    print(f"\nDark synthetic figures, seed {args.seed}: share right")
    print(format_table(["figure", "layout", "figures", "share right", "right means"], rows, align="llrrl"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
