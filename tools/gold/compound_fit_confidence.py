"""Fit the calibrated panel / figure confidence (``src/medfig/compound/models/panel_confidence.json``).

Platt scaling: a logistic regression from the split's own evidence
(``medfig.compound.confidence.panel_features`` / ``figure_features``) to "this predicted
panel is right" (a gold panel overlaps it at IoU >= 0.5; any panel of a single-panel gold
figure is wrong) and "this figure kept whole really is single-panel". Fitted on annotated
figures only from: the development publishers of ``dev_corpus_gold.json`` (split ``dev``),
``real_gold.json`` and ``fresh_gold.json``. The held-out publishers and heldout2 are not
used (``benchmarks/compound_real.py --reliability`` prints the table on the held-out ones).

    .venv/bin/python tools/gold/compound_fit_confidence.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from compound_real_figures import load_image  # noqa: E402
from harness import SUBFIGURE_GOLD  # noqa: E402

from medfig.compound.confidence import MODEL, FIGURE_FEATURES, PANEL_FEATURES, figure_features, panel_features  # noqa: E402
from medfig.geometry import iou  # noqa: E402


def training_figures() -> list[dict]:
    figs = [f for f in json.loads((SUBFIGURE_GOLD / "dev_corpus_gold.json").read_text())["figures"] if f["split"] == "dev"]
    for name in ("real_gold.json", "fresh_gold.json"):
        figs += json.loads((SUBFIGURE_GOLD / name).read_text())["figures"]
    return figs


def examples(fig: dict, result) -> tuple[list, list]:
    """(panel rows, figure rows): (features, right?) pairs."""
    letters = len([l for l in result.parsed_caption.labels if len(l) == 1])
    golds = [s["box"] for s in fig["subfigures"]] if fig["compound"] else []
    if not result.compound:
        return [], [(figure_features(letters, len(result.layout.panels)), not fig["compound"])]
    panels = []
    for s in result.subfigures:
        x = panel_features(s.box_px, s.score, s.label_source == "ocr", len(result.subfigures), letters,
                           result.layout.width, result.layout.height)
        panels.append((x, bool(golds) and max(iou(s.box_px, g) for g in golds) >= 0.5))
    return panels, []


def main() -> int:
    from sklearn.linear_model import LogisticRegression
    from tqdm import tqdm

    from medfig.compound import analyze_compound, warm_up
    from medfig.io import atomic_write_bytes

    warm_up()
    panel_rows, figure_rows = [], []
    figs = training_figures()
    for fig in tqdm(figs, desc="figures", unit="fig"):
        p, f = examples(fig, analyze_compound(load_image(fig["source"]), fig["caption"]))
        panel_rows += p
        figure_rows += f
    model = {"fitted": time.strftime("%Y-%m-%d"), "training": "dev_corpus_gold (development publishers) + real_gold + fresh_gold",
             "n_figures": len(figs)}
    for name, rows, features in (("panel", panel_rows, PANEL_FEATURES), ("figure_single", figure_rows, FIGURE_FEATURES)):
        xs = [x for x, _ in rows]
        ys = [int(y) for _, y in rows]
        clf = LogisticRegression(C=1.0, max_iter=1000).fit(xs, ys)
        model[name] = {"features": list(features), "coef": [round(float(c), 6) for c in clf.coef_[0]],
                       "intercept": round(float(clf.intercept_[0]), 6), "n": len(rows), "share_right": round(sum(ys) / len(ys), 4)}
        print(f"{name}: {len(rows)} examples, {sum(ys)} right; coef {model[name]['coef']} intercept {model[name]['intercept']}")
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(MODEL, (json.dumps(model, indent=1) + "\n").encode())
    print(f"-> {MODEL}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
