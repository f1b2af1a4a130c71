"""Train the region model (``src/medfig/pdf/models/region_model.json``) from the hand-checked gold.

    .venv/bin/python tools/train_region_model.py [--cache /tmp/region-cache] [--no-write]

1. Every gold paper of the development publishers (``benchmarks/gold/pdf_figures_dev``, the
   held-out publishers of ``benchmarks/heldout_publishers.json`` left out) and of the older
   gold (``benchmarks/gold/pdf_figures``: Hindawi, eLife, CSHL) runs through ``extract_pdf``
   with a recording region picker: on each checked page, every paired figure caption's
   candidate boxes and their features (:mod:`medfig.pdf.region_features`) are kept, and the
   rule region is returned (so the extraction is the rule path's).
2. Label of a candidate: IoU >= 0.9 with the gold box of the same figure name on that page
   (captions whose name the gold does not hold on that page give no rows).
3. Leave-one-publisher-out: for each publisher, a model trained on the others picks the box of
   each of that publisher's captions; figure F1 at IoU 0.8 / 0.9 on its checked pages
   (DeepFigures protocol: per-page Hungarian assignment, as ``benchmarks/figure_extraction.py``)
   for the rule regions and the model's choices is printed per publisher.
4. A model trained on every row is written as JSON (deterministic: fixed seed, no subsampling).

scikit-learn is needed here only; medfig evaluates the JSON with numpy.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from medfig.evaluate.figure_protocols import BoxScore, score_page
from medfig.geometry import iou
from medfig.io import atomic_write_bytes
from medfig.pdf.extract import extract_pdf
from medfig.pdf.region_features import FEATURES, candidates, features
from medfig.pdf.region_model import MODEL_PATH, TreeEnsemble, override

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
DATA = Path(os.environ.get("MEDFIG_DATA") or ROOT.parent / "shared" / "data")
GOLDS = (BENCH / "gold" / "pdf_figures_dev" / "gold.json", BENCH / "gold" / "pdf_figures" / "gold.json")
OLD_PUBLISHERS = {"pmc_hindawi_xml_pdf": "hindawi", "elife_xml_pdf_pairs": "elife", "jats_pdf_figure_packages": "cshl"}
LABEL_IOU = 0.9
PARAMS = dict(n_estimators=200, max_depth=3, learning_rate=0.05, min_samples_leaf=5, random_state=0)


def gold_papers() -> list[dict]:
    """Gold papers of the development publishers and the older sets, each tagged with its publisher."""
    heldout = set(json.loads((BENCH / "heldout_publishers.json").read_text())["heldout"])
    papers = []
    for path in GOLDS:
        for p in json.loads(path.read_text())["papers"]:
            publisher = p.get("publisher") or OLD_PUBLISHERS[p["pdf"].split("/")[0]]
            if publisher in heldout or p.get("split") == "heldout":
                continue
            papers.append({**p, "publisher": publisher, "key": f"{path.parent.name}/{p['key']}"})
    return papers


def collect(paper: dict) -> dict:
    """One paper through extract_pdf with a recording picker: candidates on its checked pages, final figures."""
    pages, records = set(paper["pages"]), []

    def record(ev, caption, region):
        if ev.page.index in pages:
            cands = candidates(ev, caption, region)
            X = [features(ev, caption, box) for box, _ in cands]
            records.append({"page": ev.page.index, "name": caption.name, "rule_box": tuple(region.box),
                            "boxes": [b for b, _ in cands], "origins": [o for _, o in cands], "X": X})
        return region

    result = extract_pdf(DATA / paper["pdf"], region_picker=record)
    figures = [{"name": f.name, "page": f.page, "box": tuple(f.box_pt)} for f in result.figures if f.fig_type == "Figure"]
    return {"records": records, "figures": figures}


def collect_all(papers: list[dict], cache: Path | None) -> dict[str, dict]:
    out, t0 = {}, time.perf_counter()
    for i, paper in enumerate(papers, 1):
        path = cache / (paper["key"].replace("/", "__") + ".pickle") if cache else None
        if path and path.exists():
            out[paper["key"]] = pickle.loads(path.read_bytes())
        else:
            out[paper["key"]] = collect(paper)
            if path:
                atomic_write_bytes(path, pickle.dumps(out[paper["key"]]))
        print(f"\rcollected {i}/{len(papers)} papers ({time.perf_counter() - t0:.0f} s)", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def _number(name: str) -> str:
    """The figure number of a name as printed or normalised ("Fig. 3", "Figure 3" -> "3"; "FIGURE" -> "")."""
    m = re.search(r"[A-Z]?\d+[A-Za-z]?", name)
    return m.group(0) if m else ""


def gold_box(paper: dict, page: int, name: str) -> tuple | None:
    """The gold box of figure ``name`` on ``page``: same number; an unnumbered figure ("FIGURE")
    only when it is the page's one gold figure."""
    figs = [f for f in paper["figures"] if f["page"] == page and f["fig_type"] == "Figure" and f.get("box")]
    same = [f for f in figs if _number(f["name"]) == _number(name)]
    if len(same) == 1:
        return tuple(same[0]["box"])
    if len(figs) == 1 and not _number(figs[0]["name"]):
        return tuple(figs[0]["box"])
    return None


def labelled_rows(papers: list[dict], runs: dict[str, dict]):
    """(X, y, publisher per row, (paper key, record index) per row)."""
    X, y, groups, where = [], [], [], []
    for paper in papers:
        for k, rec in enumerate(runs[paper["key"]]["records"]):
            target = gold_box(paper, rec["page"], rec["name"])
            if target is None:
                continue
            for box, row in zip(rec["boxes"], rec["X"]):
                X.append(row)
                y.append(int(iou(box, target) >= LABEL_IOU))
                groups.append(paper["publisher"])
                where.append((paper["key"], k))
    return np.array(X, dtype=float), np.array(y), np.array(groups), where


def fit(X: np.ndarray, y: np.ndarray):
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(**PARAMS).fit(X, y)


def export(clf) -> TreeEnsemble:
    return TreeEnsemble.from_sklearn(clf, FEATURES)


def choose(model: TreeEnsemble, rec: dict) -> tuple:
    """The box the model keeps for a recorded caption (the rule region unless :func:`override`)."""
    rows = np.array(rec["X"])
    best = override(model.probability(rows[:, [FEATURES.index(f) for f in model.features]]), rows)
    return rec["rule_box"] if best is None else rec["boxes"][best]


def page_f1(papers: list[dict], runs: dict[str, dict], chosen: dict) -> tuple[BoxScore, BoxScore]:
    """Figure F1 at IoU 0.8 / 0.9 on the papers' checked pages with the recorded captions' boxes
    replaced by ``chosen[(paper key, page, name)]``."""
    s8, s9 = BoxScore(0.8), BoxScore(0.9)
    for paper in papers:
        run = runs[paper["key"]]
        for page in paper["pages"]:
            pred = [{"box": chosen.get((paper["key"], page, f["name"]), f["box"])} for f in run["figures"] if f["page"] == page]
            gold = [{"box": f["box"]} for f in paper["figures"] if f["page"] == page and f["fig_type"] == "Figure" and f.get("box")]
            s8.add(score_page(pred, gold, 0.8))
            s9.add(score_page(pred, gold, 0.9))
    return s8, s9


def leave_one_publisher_out(papers, runs, X, y, groups) -> list[list[str]]:
    rows, total = [], {"rules": [BoxScore(0.8), BoxScore(0.9)], "model": [BoxScore(0.8), BoxScore(0.9)]}
    for publisher in sorted(set(groups)):
        train = groups != publisher
        if len(set(y[train])) < 2:
            continue
        model = export(fit(X[train], y[train]))
        held = [p for p in papers if p["publisher"] == publisher]
        chosen = {(p["key"], rec["page"], rec["name"]): choose(model, rec) for p in held for rec in runs[p["key"]]["records"]}
        rule8, rule9 = page_f1(held, runs, {})
        model8, model9 = page_f1(held, runs, chosen)
        for key, scores in (("rules", (rule8, rule9)), ("model", (model8, model9))):
            for acc, s in zip(total[key], scores):
                acc.add(s)
        n_fig = rule8.n_gold
        rows.append([publisher, str(len(held)), str(n_fig), *(f"{s.f1:.3f}" for s in (rule8, rule9, model8, model9))])
    rows.append(["ALL", str(len(papers)), str(total["rules"][0].n_gold),
                 *(f"{s.f1:.3f}" for s in (*total["rules"], *total["model"]))])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=None, help="keep each paper's recorded candidates here (delete after code changes)")
    ap.add_argument("--no-write", action="store_true", help="print the leave-one-publisher-out table only")
    a = ap.parse_args()
    if a.cache:
        a.cache.mkdir(parents=True, exist_ok=True)
    papers = gold_papers()
    runs = collect_all(papers, a.cache)
    X, y, groups, _ = labelled_rows(papers, runs)
    print(f"{len(papers)} gold papers, {len(set(groups))} publishers, {len(X)} candidate rows, {int(y.sum())} positive "
          f"(IoU >= {LABEL_IOU} with the gold box)")
    header = ["held-out publisher", "papers", "figs", "rules f.8", "rules f.9", "model f.8", "model f.9"]
    rows = leave_one_publisher_out(papers, runs, X, y, groups)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)))
    if a.no_write:
        return
    model = export(fit(X, y))
    doc = {"what": "medfig region model: P(candidate box has IoU >= 0.9 with the gold figure box)",
           "trained_by": "tools/train_region_model.py", "params": PARAMS, "label_iou": LABEL_IOU,
           "rows": int(len(X)), "positives": int(y.sum()), "publishers": sorted(set(groups)), "model": model.to_json()}
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(MODEL_PATH, (json.dumps(doc, separators=(",", ":")) + "\n").encode())
    print(f"wrote {MODEL_PATH.relative_to(ROOT)} ({len(model.trees)} trees)")


if __name__ == "__main__":
    main()
