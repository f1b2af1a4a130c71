"""Synthetic compound figures tiled from real single panels, with exact ground truth.

    .venv/bin/python benchmarks/compound_synthetic.py [--n 1000] [--singles 200] [--seed 0]

Panels are real: the embedded images of the Hindawi/eLife PDF figures (one image object is
one picture; figures whose images are compound inside are skipped) and the single-panel
MedICaT PNGs, cut from ../shared/data at run time. Pictures with a page-white border are
left out: on a white page their box is undefined (see _white_edged). Each synthetic figure draws a random layout (1-3 rows,
1-4 columns, ragged rows), gap (0 px with a thin separator line, or 2-24 px), background
(white, black), optional panel frames, letter order (row by row; 20% of regular grids
column by column), a label style ("A", "a", "(a)", "a.", "A" in a white
box) and position (inside a corner, above-left outside, centred below like Hindawi), and a
generated caption in one of several styles ("(A) x. (B) y.", "A, x; B, y.", "x (a) and y (b).",
"a x. b y." Nature style). Ground truth is exact: panel boxes, letters, subcaption spans.
Single-panel figures (one panel, sometimes with a letter) measure the false split rate.
Nothing is written to disk; the table is printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compound_real import prediction  # noqa: E402
from compound_real_figures import load_image  # noqa: E402
from harness import SUBFIGURE_GOLD, ms_summary  # noqa: E402

GOLD = SUBFIGURE_GOLD / "real_gold.json"

MODALITIES = [
    "Axial CT image", "Coronal T2-weighted MRI", "Sagittal T1-weighted MRI", "Chest radiograph",
    "Ultrasound image", "Doppler ultrasound", "Histopathology (H&E)", "Immunohistochemical staining",
    "Endoscopic view", "Coronary angiography", "PET/CT fusion image", "Fundus photograph",
    "Clinical photograph", "Digital subtraction angiography", "Contrast-enhanced CT",
]
FINDINGS = [
    "showing a hypodense lesion in the right hepatic lobe", "demonstrating a well-defined mass",
    "with diffuse ground-glass opacities", "revealing a filling defect", "after treatment",
    "before surgery", "at the 6-month follow-up", "showing marked enhancement in the arterial phase",
    "of the left kidney", "with perivascular lymphocytic infiltrate", "showing the fistula",
]
TITLES = [
    "Imaging findings of the patient.", "Radiological and pathological features.", "Follow-up examinations.",
    "Multimodal imaging of the lesion.", "Findings at presentation.",
]


def real_panels(gold_path: Path = GOLD) -> list[Image.Image]:
    """Real single panels: every embedded image of the gold PDF figures (one image object is
    one picture) that is not itself compound, and the single-panel MedICaT PNGs."""
    import json

    from compound_real_figures import EXCLUDED, SINGLE_EXCLUDED, pdf_sources

    panels = []
    for s in tqdm(pdf_sources(), desc="cutting real panels", unit="fig"):
        if s["figure_key"] in EXCLUDED or s["figure_key"] in SINGLE_EXCLUDED:
            continue
        image = load_image(s["source"])
        for x0, y0, x1, y1 in s["image_boxes_px"]:
            x0, y0, x1, y1 = max(0, x0 + 2), max(0, y0 + 2), min(image.width, x1 - 2), min(image.height, y1 - 2)
            if x1 - x0 >= 60 and y1 - y0 >= 60:
                panels.append(image.crop((x0, y0, x1, y1)).copy())
    for fig in json.loads(gold_path.read_text())["figures"]:
        if fig["source"]["kind"] == "medicat" and not fig["compound"]:
            panels.append(load_image(fig["source"]))
    return [p for p in panels if not _white_edged(p)]


def _white_edged(panel: Image.Image) -> bool:
    """A picture whose border is page-white (a PET MIP, a web screenshot) has no visible
    extent on a white page: its true box is undefined, so it is not used as a tile."""
    import numpy as np

    g = np.asarray(panel.convert("L"))
    ring = np.concatenate([g[:3].ravel(), g[-3:].ravel(), g[:, :3].ravel(), g[:, -3:].ravel()])
    return float((ring >= 235).mean()) > 0.5


def _font(rng: random.Random, size: int) -> ImageFont.ImageFont:
    for path in ("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf", "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"):
        if rng.random() < 0.5 and Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def _label_text(style: str, i: int, upper: bool) -> str:
    letter = chr(ord("A" if upper else "a") + i)
    return {"plain": letter, "paren": f"({letter})", "dot": f"{letter}.", "boxed": letter}[style]


def _caption(rng: random.Random, n: int, upper: bool) -> tuple[str, list[list[str]]]:
    """A caption and, per panel, its subcaption fragments (verbatim in the caption)."""
    descs = []
    for _ in range(n):
        d = rng.choice(MODALITIES) + (" " + rng.choice(FINDINGS) if rng.random() < 0.7 else "")
        descs.append(d)
    L = [chr(ord("A" if upper else "a") + i) for i in range(n)]
    style = rng.choice(["paren_lead", "comma_lead", "trailing", "nature"])
    title = rng.choice(TITLES)
    fig = f"Figure {rng.randint(1, 9)}. "
    if style == "paren_lead":
        parts = [f"({L[i]}) {descs[i]}." for i in range(n)]
        cap = fig + title + " " + " ".join(parts)
        frags = [[descs[i] + "."] for i in range(n)]
    elif style == "comma_lead":
        parts = [f"{L[i]}, {descs[i]}" for i in range(n)]
        cap = fig + title + " " + "; ".join(parts) + "."
        frags = [[descs[i]] for i in range(n)]
    elif style == "trailing":
        low = [d[0].lower() + d[1:] if i else d for i, d in enumerate(descs)]
        parts = [f"{low[i]} ({L[i]})" for i in range(n)]
        cap = fig + title + " " + (", ".join(parts[:-1]) + " and " + parts[-1] if n > 1 else parts[0]) + "."
        frags = [[low[i]] for i in range(n)]
    else:  # Nature: bold lower-case letter leads, no brackets
        L = [l.lower() for l in L]
        parts = [f"{L[i]} {descs[i]}." for i in range(n)]
        cap = title + " " + " ".join(parts)
        frags = [[descs[i] + "."] for i in range(n)]
    return cap, frags


def make_figure(rng: random.Random, panels: list[Image.Image], n_panels: int | None = None) -> tuple[Image.Image, dict]:
    """One synthetic figure and its gold record (boxes in pixels, origin top-left)."""
    if n_panels is None:
        rows = rng.choice([1, 1, 2, 2, 3])
        cols = rng.choice([2, 2, 3, 3, 4]) if rows == 1 else rng.choice([1, 2, 2, 3])
        row_sizes = [cols] * rows
        if rows > 1 and rng.random() < 0.25:  # ragged: the last row has one panel fewer
            row_sizes[-1] = max(1, cols - 1)
        if sum(row_sizes) < 2:
            row_sizes = [2]
    else:
        row_sizes = [n_panels]
    n = sum(row_sizes)
    dark_bg = rng.random() < 0.15
    bg = (0, 0, 0) if dark_bg else (255, 255, 255)
    gap = rng.choice([0, 2, 4, 8, 12, 16, 24]) if n > 1 else 0
    line_colour = rng.choice([(255, 255, 255), (30, 30, 30)]) if gap == 0 else None
    frame = rng.random() < 0.2
    label_style = rng.choice(["plain", "paren", "dot", "boxed"])
    label_pos = rng.choice(["in_tl", "in_tl", "in_bl", "out_above", "below"]) if n > 1 or rng.random() < 0.3 else None
    upper = rng.random() < 0.6
    # some grids are lettered down the columns (A C / B D), as real figures sometimes are
    column_major = len(row_sizes) > 1 and len(set(row_sizes)) == 1 and rng.random() < 0.2
    cell_h = rng.randint(160, 320)
    font_size = rng.randint(14, 28)
    font = _font(rng, font_size)
    margin_top = font_size + 8 if label_pos == "out_above" else 0
    margin_below = font_size + 10 if label_pos == "below" else 0
    # place panels row by row, each row scaled to a common height
    placed: list[tuple[Image.Image, int, int]] = []
    y = gap if gap else 0
    width = 0
    k = 0
    for rs in row_sizes:
        x = gap if gap else 0
        y += margin_top
        for _ in range(rs):
            src = rng.choice(panels)
            w = max(40, round(src.width * cell_h / src.height))
            w = min(w, int(cell_h * 2.2))
            placed.append((src.resize((w, cell_h), Image.BILINEAR), x, y))
            x += w + (gap if gap else 3)
            k += 1
        width = max(width, x - (gap if gap else 3) + (gap if gap else 0))
        y += cell_h + margin_below + (gap if gap else 3)
    height = y - (gap if gap else 3) + (gap if gap else 0)
    img = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(img)
    if line_colour is not None:
        # touching panels: the 3 px between neighbours is a separator line, the rest background
        row_tops = sorted({py for _, _, py in placed})
        for top in row_tops:
            row = [(t, px) for t, px, py in placed if py == top]
            for (t, px), _ in zip(row, row[1:]):
                draw.rectangle([px + t.width, top, px + t.width + 2, top + cell_h - 1], fill=line_colour)
        for upper, lower in zip(row_tops, row_tops[1:]):
            w_up = max(px + t.width for t, px, py in placed if py == upper)
            w_low = max(px + t.width for t, px, py in placed if py == lower)
            draw.rectangle([0, lower - 3, min(w_up, w_low) - 1, lower - 1], fill=line_colour)
    subs = []
    caption, frags = _caption(rng, n, upper)
    for k, (tile, px, py) in enumerate(placed):
        i = (k % row_sizes[0]) * len(row_sizes) + k // row_sizes[0] if column_major else k
        img.paste(tile, (px, py))
        box = [px, py, px + tile.width, py + tile.height]
        if frame:
            draw.rectangle([box[0], box[1], box[2] - 1, box[3] - 1], outline=(0, 0, 0) if not dark_bg else (200, 200, 200), width=2)
        label = None
        if label_pos is not None:
            text = _label_text(label_style, i, upper)
            tb = draw.textbbox((0, 0), text, font=font)
            tw, th = tb[2] - tb[0], tb[3] - tb[1]
            if label_pos == "in_tl":
                tx, ty = box[0] + 6, box[1] + 6
            elif label_pos == "in_bl":
                tx, ty = box[0] + 6, box[3] - th - 10
            elif label_pos == "out_above":
                tx, ty = box[0], box[1] - th - 6
            else:
                tx, ty = (box[0] + box[2] - tw) // 2, box[3] + 4
            inside = label_pos.startswith("in")
            # the glyph is drawn from (tx, ty) to (tx + tw, ty + th)
            if label_style == "boxed" and inside:
                draw.rectangle([tx - 3, ty - 3, tx + tw + 3, ty + th + 3], fill=(255, 255, 255))
                colour = (0, 0, 0)
            elif inside:
                under = tile.convert("L").crop((tx - px, ty - py, tx - px + tw, ty - py + th))
                colour = (255, 255, 255) if sum(under.getextrema()) < 300 else (0, 0, 0)
            else:
                colour = (255, 255, 255) if dark_bg else (0, 0, 0)
            draw.text((tx, ty - tb[1]), text, fill=colour, font=font)
            label = chr(ord("a") + i)
        subs.append({"label": label, "box": box, "subcaption": frags[i] if n > 1 else []})
    record = {
        "background": "dark" if dark_bg else "light",
        "letter_order": "columns" if column_major else "rows",
        "gap": gap,
        "label_position": label_pos,
        "caption": caption,
        "width": width,
        "height": height,
        "compound": n > 1,
        "subfigures": subs if n > 1 else [],
    }
    return img, record


def main() -> int:
    from medfig.compound import analyze_compound
    from medfig.evaluate.subfigures import evaluate_subfigures
    from medfig.compound import warm_up

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="compound figures")
    ap.add_argument("--singles", type=int, default=200, help="single-panel figures")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-examples", metavar="DIR", help="write the first 12 figures here as PNG")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    panels = real_panels()
    warm_up()  # OCR model + scipy.optimize: one-off per process, not per figure
    golds, preds_label, preds_heur, times = [], {}, {}, []
    for i in tqdm(range(args.n + args.singles), desc="synthetic figures", unit="fig"):
        img, gold = make_figure(rng, panels, None if i < args.n else 1)
        key = f"syn{i:05d}"
        gold["figure_key"] = key
        golds.append(gold)
        if args.save_examples and i < 12:
            Path(args.save_examples).mkdir(parents=True, exist_ok=True)
            img.save(Path(args.save_examples) / f"{key}.png")
        t = time.perf_counter()
        res = analyze_compound(img, gold["caption"], alignment="label")
        times.append(time.perf_counter() - t)
        preds_label[key] = prediction(res)
        preds_heur[key] = prediction(analyze_compound(img, gold["caption"], alignment="heuristic"))
    label = evaluate_subfigures(golds, preds_label)
    heur = evaluate_subfigures(golds, preds_heur)
    breakdown = []
    for name, keep in (
        ("light background", lambda g: g["background"] == "light"),
        ("dark background", lambda g: g["background"] == "dark"),
        ("touching panels (gap 0)", lambda g: g["gap"] == 0),
        ("no panel letters", lambda g: g["label_position"] is None),
        ("lettered down columns", lambda g: g["letter_order"] == "columns"),
    ):
        sub = [g for g in golds if g["compound"] and keep(g)]
        if sub:
            sc = evaluate_subfigures(sub, preds_label)
            breakdown.append((name, len(sub), sc.map_50, sc.medicat_f1))
    n_panels = sum(len(g["subfigures"]) for g in golds)
    print(f"\nSynthetic: {args.n} compound figures ({n_panels} panels) tiled from {len(panels)} real panels + {args.singles} single-panel figures, seed {args.seed}")
    print(label.table())
    print(f"\nMedICaT-metric F1, predicted boxes: label alignment {100 * label.medicat_f1:.1f} vs MedICaT heuristic {100 * heur.medicat_f1:.1f}")
    rows_only = [g for g in golds if g["compound"] and g["letter_order"] == "rows"]
    if rows_only:
        print(
            f"  figures lettered row by row only ({len(rows_only)}): label {100 * evaluate_subfigures(rows_only, preds_label).medicat_f1:.1f}"
            f" vs heuristic {100 * evaluate_subfigures(rows_only, preds_heur).medicat_f1:.1f}"
        )
    print("\nby layout:                 figures  mAP@0.5  MedICaT F1")
    for name, n, m, f in breakdown:
        print(f"  {name:<25} {n:6d}  {m:7.3f}  {f:10.3f}")
    ms = ms_summary(times)
    print(f"speed, one thread: mean {ms['mean']:.0f} ms, median {ms['median']:.0f} ms, p95 {ms['p95']:.0f} ms per figure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
