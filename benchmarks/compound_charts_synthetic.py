"""Multi-panel charts drawn by matplotlib, with exact panel boxes: the chart styles of PMC figures.

    .venv/bin/python benchmarks/compound_charts_synthetic.py [--n 120] [--seed 0] [--jpeg Q] [--title-letters] [--side-legend]

Each figure is a grid of 2-6 charts (line, bar with error bars, scatter, box plot, histogram,
heatmap with colour bar) in one of six matplotlib styles (default, ggplot's grey plot area,
seaborn's white grid and white, bmh, classic), with or without a shared legend, panel titles and
tight or loose spacing; half the figures letter their panels (one letter style and place per
figure: "a", "(a)" or "a." above the axes' top-left corner or inside it, caption "(a) ... (b) ...";
with ``--title-letters`` the letter opens the panel's bold title line instead, "(A) Serum levels")
and half do not (caption without letters). With ``--side-legend`` every figure carries one legend
for all its panels in a column of its own at the right, left out of the gold boxes. The gold box
of a panel is the union of matplotlib's own tight boxes of the axes (ticks, tick labels, axis
labels, title), of its colour bar for a heatmap, and of its letter.

Prints per style and lettering: gold panels matched by a predicted box at IoU >= 0.5, their mean
IoU, and MedICaT-metric F1 (lettered figures only: unlettered captions describe no panel).
What ``medfig compound IMAGE --caption TEXT`` runs (``analyze_compound``) on each PNG, or on
the PNG re-encoded as JPEG of quality Q (``--jpeg``, as PMC ships most figures).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import as_jpeg, format_table  # noqa: E402

STYLES = ("default", "ggplot", "seaborn-v0_8-whitegrid", "seaborn-v0_8-white", "bmh", "classic")
KINDS = ("line", "bar", "scatter", "box", "hist", "heat")
PANEL_TEXTS = ("Body weight over time", "Serum levels", "Tumour volume", "Survival of the groups",
               "Expression by group", "Response to dose")


def _draw(ax, kind: str, rng: np.random.Generator):
    """Draw one chart; returns its colour bar's axes (part of the panel) or None."""
    colour_bar = None
    if kind == "line":
        x = np.arange(10)
        for k in range(int(rng.integers(1, 4))):
            ax.plot(x, rng.normal(0, 1, 10).cumsum(), marker="o", label=f"group {k + 1}")
    elif kind == "bar":
        n = int(rng.integers(3, 7))
        ax.bar(np.arange(n), rng.uniform(1, 10, n), yerr=rng.uniform(0.2, 1, n), color="C0", label="group 1")
        ax.set_xticks(np.arange(n))
        ax.set_xticklabels([f"T{i}" for i in range(n)])
    elif kind == "scatter":
        ax.scatter(rng.normal(0, 1, 60), rng.normal(0, 1, 60), s=10, label="group 1")
    elif kind == "box":
        ax.boxplot([rng.normal(m, 1, 30) for m in range(int(rng.integers(2, 5)))])
    elif kind == "heat":
        image = ax.imshow(rng.normal(0, 1, (8, 8)), cmap="viridis", aspect="auto")
        colour_bar = ax.figure.colorbar(image, ax=ax).ax
    else:
        ax.hist(rng.normal(0, 1, 300), bins=20, label="group 1")
    ax.set_xlabel(str(rng.choice(["Time (h)", "Dose (mg/kg)", "Group", "Days"])))
    ax.set_ylabel(str(rng.choice(["Expression", "Weight (g)", "Count", "Relative level"])))
    return colour_bar


def make_figure(seed: int, lettered: bool, title_letters: bool = False,
                side_legend: bool = False) -> tuple[Image.Image, dict, str]:
    """One figure: the image, its gold record (boxes in pixels, origin top-left) and its style.
    ``title_letters``: a lettered panel's letter opens its bold title line ("(A) Serum levels",
    left-aligned over the axes) instead of standing alone. ``side_legend``: every figure gets
    one legend for all panels in a column of its own at the right (tight_layout leaves room
    for it), which the gold panels leave out."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng, pick = np.random.default_rng(seed), random.Random(seed)
    rows, cols = pick.choice([(1, 2), (1, 3), (2, 2), (2, 3), (3, 2)])
    style = pick.choice(STYLES)
    upper = pick.random() < 0.6
    fmt, place = pick.choice(["{}", "({})", "{}."]), pick.choice([(-0.22, 1.08), (0.03, 0.97)])
    with plt.style.context(style):
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), dpi=100, squeeze=False)
        letters, bars = [], []
        title_size = pick.choice([10, 12]) if title_letters else None  # one size for the whole figure
        for i, ax in enumerate(axes.flat):
            bars.append(_draw(ax, pick.choice(KINDS), rng))
            letter = chr(ord("A" if upper else "a") + i)
            if lettered and title_letters:
                letters.append(ax.set_title(f"{fmt.format(letter)} {pick.choice(PANEL_TEXTS)}", loc="left",
                                            fontsize=title_size, fontweight="bold"))
                continue
            letters.append(ax.text(*place, fmt.format(letter), transform=ax.transAxes, fontsize=14,
                                   fontweight="bold", va="bottom", ha="left") if lettered else None)
            if pick.random() < 0.3:
                ax.set_title(pick.choice(["Control", "Treated", "Week 4", "Male", "Female"]))
        if side_legend:
            pad = pick.choice([0.4, 0.8, 1.2])
            names = pick.sample(["Control", "Treated", "Sham", "Vehicle", "Low dose", "High dose", "Wild type"], 3)
            handles = [matplotlib.lines.Line2D([], [], color=f"C{k}", marker="os^"[k], label=n) for k, n in enumerate(names)]
            legend = fig.legend(handles=handles, loc="center right", title=pick.choice([None, "Group", "Treatment"]))
            fig.canvas.draw()  # the legend's width, so the charts leave it a column of its own
            room = (legend.get_window_extent().width + 8) / fig.bbox.width
            fig.tight_layout(pad=pad, rect=(0, 0, 1 - room, 1))
        else:  # (the order of the draws keeps earlier seeds' figures as they were)
            if pick.random() < 0.4:
                handles, labels = axes.flat[0].get_legend_handles_labels()
                if handles:
                    fig.legend(handles, labels, loc="center right")
            fig.tight_layout(pad=pick.choice([0.4, 0.8, 1.2]))
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        height = fig.bbox.height
        boxes = []
        for ax, text, bar in zip(axes.flat, letters, bars):
            parts = [ax.get_tightbbox(renderer)]
            if bar is not None:
                parts.append(bar.get_tightbbox(renderer))
            if text is not None:
                parts.append(text.get_window_extent(renderer))
            box = type(parts[0]).union(parts)
            boxes.append([round(box.x0), round(height - box.y1), round(box.x1), round(height - box.y0)])
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
        plt.close(fig)
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    n = rows * cols
    if lettered:
        marks = [chr(ord("A" if upper else "a") + i) for i in range(n)]
        caption = "Results of the study. " + " ".join(f"({m}) {t}." for m, t in zip(marks, PANEL_TEXTS))
        subs = [[f"{t}."] for t in PANEL_TEXTS[:n]]
    else:
        caption, subs = "Results of the study in the treated and control groups.", [[] for _ in range(n)]
    gold = {"caption": caption, "width": image.width, "height": image.height, "compound": True,
            "subfigures": [{"box": b, "subcaption": s} for b, s in zip(boxes, subs)]}
    return image, gold, style


def main() -> int:
    from medfig.compound import analyze_compound, warm_up
    from medfig.evaluate.subfigures import evaluate_subfigures
    from medfig.geometry import iou

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=120, help="figures (half lettered)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jpeg", type=int, metavar="Q", help="re-encode every figure as JPEG of quality Q first")
    ap.add_argument("--title-letters", action="store_true",
                    help='letters open each panel\'s bold title line ("(A) Serum levels") instead of standing alone')
    ap.add_argument("--side-legend", action="store_true",
                    help="every figure gets one legend for all panels in a column of its own at the right")
    args = ap.parse_args()
    warm_up()
    tally: dict[tuple[str, bool], dict] = {}
    for i in range(args.n):
        lettered = i % 2 == 0
        image, gold, style = make_figure(args.seed + i, lettered, args.title_letters, args.side_legend)
        if args.jpeg is not None:
            image = as_jpeg(image, args.jpeg)
        gold["figure_key"] = key = f"chart{i:04d}"
        result = analyze_compound(image, gold["caption"]).to_json()
        boxes = [s["box"] for s in result["subfigures"]] or [[0, 0, image.width, image.height]]
        best = [max(iou(b, g["box"]) for b in boxes) for g in gold["subfigures"]]
        t = tally.setdefault((style, lettered), {"figures": 0, "ious": [], "golds": [], "preds": {}})
        t["figures"] += 1
        t["ious"] += best
        t["golds"].append(gold)
        t["preds"][key] = result
    rows = []
    for (style, lettered), t in sorted(tally.items()):
        ious = t["ious"]
        f1 = evaluate_subfigures(t["golds"], t["preds"]).medicat_f1 if lettered else None
        rows.append([style, "yes" if lettered else "no", str(t["figures"]), str(len(ious)),
                     f"{sum(v >= 0.5 for v in ious) / len(ious):.3f}", f"{sum(ious) / len(ious):.3f}",
                     f"{100 * f1:.1f}" if f1 is not None else "-"])
    all_ious = [v for t in tally.values() for v in t["ious"]]
    rows.append(["ALL", "", str(args.n), str(len(all_ious)), f"{sum(v >= 0.5 for v in all_ious) / len(all_ious):.3f}",
                 f"{sum(all_ious) / len(all_ious):.3f}", ""])
    print(f"\nmatplotlib multi-panel charts, seed {args.seed}" + (f", JPEG q{args.jpeg}" if args.jpeg is not None else "")
          + (", letters opening the panel titles" if args.title_letters else "")
          + (", one legend column for all panels" if args.side_legend else "")
          + ": gold panels matched at IoU >= 0.5")
    print(format_table(["style", "lettered", "figures", "panels", "matched", "mean IoU", "F1"], rows, align="llrrrrr"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
