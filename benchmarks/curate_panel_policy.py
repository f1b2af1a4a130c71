"""What ``medfig curate --min-panel-confidence X`` keeps, and how often it is right, on annotated figures.

    .venv/bin/python benchmarks/curate_panel_policy.py [--cache preds.json]

Gold: the development publishers of ``benchmarks/gold/subfigures/dev_corpus_gold.json`` (the
held-out publishers of benchmarks/heldout_publishers.json are never read). Every figure goes
through ``analyze_compound(image, caption)`` (what the build stores in ``subfigures.parquet``);
its predicted panels then go through curate's own panel judgement
(``medfig.curate.panel_confidence.curate_panels``) at several thresholds, under both policies:

- ``whole split`` (the default): a figure with any panel below X loses all its panels;
- ``confident panels`` (``--keep-confident-panels``): only the panels below X go.

A kept panel is right when a gold panel overlaps it at IoU >= 0.5 (every panel of a single-panel
gold figure is wrong). A figure's kept split is complete when its kept panels are all right and
as many as the gold panels: what MedICaT's subfigure-subcaption task needs.

Confidence comes two ways. ``shipped``: the model in ``compound/models/panel_confidence.json``,
which was fitted on these development publishers (plus real_gold / fresh_gold), so its numbers
here are in-sample. ``leave-one-publisher-out``: the same logistic regression on the same
features refitted for each publisher on the other development publishers' panels only, then
applied to that publisher: the honest estimate for a publisher the model has not seen.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compound_real_figures import load_image  # noqa: E402
from harness import SUBFIGURE_GOLD, format_table  # noqa: E402

HELDOUT = set(json.loads((Path(__file__).resolve().parent / "heldout_publishers.json").read_text())["heldout"])
THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95)


def predict(figures: list[dict]) -> dict[str, list[dict]]:
    """Predicted panels per figure key: box, features, shipped confidence, right or not."""
    from tqdm import tqdm

    from medfig.compound import analyze_compound, warm_up
    from medfig.compound.confidence import panel_features
    from medfig.geometry import iou

    warm_up()
    out: dict[str, list[dict]] = {}
    for fig in tqdm(figures, desc="figures", unit="fig", file=sys.stderr):
        result = analyze_compound(load_image(fig["source"]), fig["caption"])
        golds = [s["box"] for s in fig["subfigures"]] if fig["compound"] else []
        letters = len([label for label in result.parsed_caption.labels if len(label) == 1])
        panels = []
        for index, sub in enumerate(result.subfigures if result.compound else []):
            box = [int(v) for v in sub.box_px]
            panels.append({"label": sub.label or f"p{index}", "box_px": box,
                           "confidence": result.panel_confidences[index],
                           "features": panel_features(tuple(box), sub.score, sub.label_source == "ocr",
                                                      len(result.subfigures), letters,
                                                      result.layout.width, result.layout.height),
                           "right": bool(golds) and max(iou(box, g) for g in golds) >= 0.5})
        out[fig["figure_key"]] = panels
    return out


def leave_one_publisher_out(figures: list[dict], preds: dict[str, list[dict]]) -> dict[str, list[float]]:
    """Each figure's panel confidences from a model fitted without its publisher."""
    from sklearn.linear_model import LogisticRegression

    out: dict[str, list[float]] = {}
    for publisher in sorted({f["publisher"] for f in figures}):
        train = [p for f in figures if f["publisher"] != publisher for p in preds[f["figure_key"]]]
        model = LogisticRegression(C=1.0, max_iter=1000)  # the shipped fit's settings (tools/gold)
        model.fit([p["features"] for p in train], [p["right"] for p in train])
        for f in figures:
            if f["publisher"] == publisher and preds[f["figure_key"]]:
                probs = model.predict_proba([p["features"] for p in preds[f["figure_key"]]])[:, 1]
                out[f["figure_key"]] = [round(float(c), 4) for c in probs]
    return out


def judge(figures: list[dict], preds: dict[str, list[dict]], confidences: dict[str, list[float]] | None,
          threshold: float, keep_confident: bool) -> list[str]:
    """One table row: panels kept and their share right, figures keeping panels, complete splits."""
    from medfig.curate.panel_confidence import curate_panels

    records = [{"article_key": f["figure_key"], "figure_id": "", "caption": f["caption"]} for f in figures]
    rows: dict[tuple[str, str], list[dict]] = {}
    for f in figures:
        own = [{**p, "figure_key": f["figure_key"]} for p in preds[f["figure_key"]]]
        if confidences is not None and own:
            for panel, c in zip(own, confidences[f["figure_key"]]):
                panel["confidence"] = c
        rows[(f["figure_key"], "")] = own
    kept = curate_panels(records, rows, threshold, keep_confident=keep_confident).kept
    kept_by: dict[str, list[dict]] = {}
    for panel in kept:
        kept_by.setdefault(panel["figure_key"], []).append(panel)
    gold_count = {f["figure_key"]: len(f["subfigures"]) if f["compound"] else 0 for f in figures}
    complete = [k for k, ps in kept_by.items() if all(p["right"] for p in ps) and len(ps) == gold_count[k]]
    right = sum(p["right"] for p in kept)
    return [str(len(kept)), f"{right / len(kept):.2f}" if kept else "-", str(len(kept_by)),
            f"{len(complete)} ({len(complete) / len(kept_by):.0%})" if kept_by else "-"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", help="predictions JSON: read when it exists, else written (skips the splitter)")
    args = ap.parse_args()
    figures = [f for f in json.loads((SUBFIGURE_GOLD / "dev_corpus_gold.json").read_text())["figures"]
               if f["publisher"] not in HELDOUT]
    t0 = time.perf_counter()
    if args.cache and Path(args.cache).is_file():
        preds = json.loads(Path(args.cache).read_text())
    else:
        preds = predict(figures)
        if args.cache:
            Path(args.cache).write_text(json.dumps(preds))
    lopo = leave_one_publisher_out(figures, preds)
    panels = [p for ps in preds.values() for p in ps]
    compound = sum(f["compound"] for f in figures)
    print(f"\nDevelopment publishers of pmc_dev_corpus gold: {len(figures)} figures ({compound} compound, "
          f"{sum(len(f['subfigures']) for f in figures if f['compound'])} gold panels), "
          f"{sum(bool(ps) for ps in preds.values())} predicted compound with {len(panels)} panels, "
          f"{sum(p['right'] for p in panels)} of them right; {time.perf_counter() - t0:.0f} s")
    head = ["confidence", "X", "policy", "panels kept", "share right", "figures with panels", "complete and right"]
    rows = [["-", "none", "-", str(len(panels)), f"{sum(p['right'] for p in panels) / len(panels):.2f}",
             str(sum(bool(ps) for ps in preds.values())), "-"]]
    for name, confidences in (("shipped (in-sample)", None), ("leave-one-publisher-out", lopo)):
        for x in THRESHOLDS:
            for policy, keep in (("whole split", False), ("confident panels", True)):
                rows.append([name, f"{x:g}", policy, *judge(figures, preds, confidences, x, keep)])
    print(format_table(head, rows, align="lrlrrrr"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
