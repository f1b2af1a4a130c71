"""Per-publisher compound-figure scores on the pmc_dev_corpus gold (``compound_real.py --split dev``).

Gold: benchmarks/gold/subfigures/dev_corpus_gold.json (NOTES.md: "Dev corpus gold"). Every
figure goes through ``analyze_compound(image, caption)`` -- what ``medfig compound IMAGE
--caption TEXT --json`` runs -- and is scored per publisher, development and held-out
publishers (benchmarks/heldout_publishers.json) in separate blocks:

- ``F1 pred``: MedICaT-metric F1 with predicted panels (medfig.evaluate.subfigures);
- ``F1 gold boxes``: the same with the gold boxes given, i.e. subcaptions + alignment only;
- ``matched``: share of gold panels with a predicted box at IoU >= 0.5 (a figure predicted
  single counts as one whole-image box);
- ``empty sub``: gold panels that have a subcaption whose matched predicted panel has none;
- ``false split``: single-panel gold figures predicted compound.

``--reliability``: each predicted panel's ``confidence`` against whether it is right (IoU >= 0.5
with a gold panel of a compound figure), in confidence bins, on the held-out publishers only.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PIL import Image

from compound_real_figures import load_image, native_scale
from harness import as_jpeg, format_table

HELDOUT = json.loads((Path(__file__).resolve().parent / "heldout_publishers.json").read_text())["heldout"]
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001)


def _prediction(result) -> dict:
    out = result.to_json()
    for rec, sub in zip(out["subfigures"], result.subfigures):
        rec["subcaption_spans"] = [list(s) for s in sub.subcaption_spans]
    return out


def _pred_boxes(fig: dict, pred: dict) -> list[dict]:
    if pred.get("compound") and pred.get("subfigures"):
        return pred["subfigures"]
    return [{"box": [0, 0, fig["width"], fig["height"]], "subcaption": "", "confidence": pred.get("confidence", 0.0)}]


def panel_correct(fig: dict, pred: dict) -> list[tuple[float, bool]]:
    """(confidence, right?) of every predicted panel: right = IoU >= 0.5 with a gold panel;
    a single-panel figure predicted single is one right whole-image panel."""
    from medfig.geometry import iou

    out = []
    for p in _pred_boxes(fig, pred):
        golds = [g["box"] for g in fig["subfigures"]] or [[0, 0, fig["width"], fig["height"]]]
        ok = max(iou(p["box"], g) for g in golds) >= 0.5
        out.append((float(p.get("confidence", p.get("score", 0.0))), ok))
    return out


def _matched_and_empty(fig: dict, pred: dict) -> tuple[int, int, int]:
    from medfig.geometry import iou

    matched = empty = 0
    boxes = _pred_boxes(fig, pred)
    for g in fig["subfigures"]:
        best = max(boxes, key=lambda p: iou(p["box"], g["box"]))
        if iou(best["box"], g["box"]) >= 0.5:
            matched += 1
            if any(s.strip() for s in g["subcaption"]) and not best.get("subcaption"):
                empty += 1
    return matched, empty, len(fig["subfigures"])


def _row(name: str, figs: list[dict], preds: dict, gold_preds: dict) -> list[str]:
    from medfig.evaluate.subfigures import evaluate_subfigures

    compound = [f for f in figs if f["compound"]]
    singles = [f for f in figs if not f["compound"]]
    pred_s = evaluate_subfigures(compound, preds) if compound else None
    gold_s = evaluate_subfigures(compound, gold_preds) if compound else None
    m = e = n = 0
    for f in compound:
        a, b, c = _matched_and_empty(f, preds[f["figure_key"]])
        m, e, n = m + a, e + b, n + c
    split = sum(bool(preds[f["figure_key"]].get("compound")) for f in singles)
    return [name, str(len(compound)), str(n), str(pred_s.n_scored if pred_s else 0),
            f"{100 * pred_s.medicat_f1:.1f}" if pred_s and pred_s.n_scored else "-",
            f"{100 * gold_s.medicat_f1:.1f}" if gold_s and gold_s.n_scored else "-",
            f"{100 * m / n:.0f}%" if n else "-", str(e),
            f"{split}/{len(singles)}" if singles else "-"]


def _block(title: str, figs: list[dict], preds: dict, gold_preds: dict) -> str:
    pubs = sorted({f["publisher"] for f in figs})
    rows = [_row(p, [f for f in figs if f["publisher"] == p], preds, gold_preds) for p in pubs]
    rows.append(_row("ALL", figs, preds, gold_preds))
    head = ["publisher", "compound", "panels", "scored", "F1 pred", "F1 gold boxes", "matched", "empty sub", "false split"]
    return f"\n{title}\n" + format_table(head, rows, align="lrrrrrrrr")


def reliability_table(pairs: list[tuple[float, bool]]) -> str:
    rows = []
    for lo, hi in zip(BINS, BINS[1:]):
        inside = [ok for c, ok in pairs if lo <= c < hi]
        share = f"{sum(inside) / len(inside):.2f}" if inside else "-"
        rows.append([f"[{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}", str(len(inside)), share])
    return format_table(["confidence", "panels", "share right"], rows, align="lrr")


def _scaled(fig: dict, scale: float) -> dict:
    """The gold figure as it reads on its image resized by ``scale`` (boxes in pixels)."""
    def box(b: list) -> list[int]:
        return [round(v * scale) for v in b]

    return {**fig, "width": round(fig["width"] * scale), "height": round(fig["height"] * scale),
            "subfigures": [{**s, "box": box(s["box"])} for s in fig["subfigures"]]}


def _source_name(key: str) -> str:
    head = key.split("/")[0]
    if head.startswith("PMC4"):
        return "hindawi"
    if head.startswith("PMC1"):
        return "pmc-package"
    return head.split("-")[0]


def run_dev(gold_path: Path, *, reliability: bool = False, dump: str | None = None,
            development_only: bool = False, scale: float = 1.0, jpeg: int | None = None,
            native: bool = False) -> int:
    from tqdm import tqdm

    from medfig.compound import analyze_compound, warm_up

    figures = json.loads(gold_path.read_text())["figures"]
    for f in figures:  # the older gold sets name no publisher: their source (PMC4 = Hindawi PDFs, elife, ...)
        f.setdefault("publisher", _source_name(f["figure_key"]))
    if reliability:
        figures = [f for f in figures if f["publisher"] in HELDOUT]
    if development_only:
        figures = [f for f in figures if f["publisher"] not in HELDOUT]
    if scale != 1.0:
        figures = [_scaled(f, scale) for f in figures]
    warm_up()
    preds, gold_preds, t0 = {}, {}, time.perf_counter()
    scales = []
    for i, fig in enumerate(tqdm(figures, desc="figures", unit="fig")):
        if native and fig["source"]["kind"] == "pdf":  # the page rendered at its figure file's own resolution
            render = native_scale(fig["source"])
            scales.append(render / fig["source"]["scale"])
            fig = figures[i] = _scaled(fig, scales[-1])
            fig["source"] = {**fig["source"], "render_scale": render}
        image = load_image(fig["source"])
        if "render_scale" in fig["source"]:
            fig["width"], fig["height"] = image.size
        if scale != 1.0:  # the same figure at another resolution (original figure files run 2-4x a 144-dpi crop)
            image = image.resize((fig["width"], fig["height"]), Image.LANCZOS)
        if jpeg is not None:  # PMC distributes most figures as JPEG files
            image = as_jpeg(image, jpeg)
        preds[fig["figure_key"]] = _prediction(analyze_compound(image, fig["caption"]))
        if fig["compound"] and not reliability:
            boxes = [s["box"] for s in fig["subfigures"]]
            gold_preds[fig["figure_key"]] = _prediction(analyze_compound(image, fig["caption"], boxes=boxes))
    if dump:
        Path(dump).write_text(json.dumps(preds, indent=1))
    if reliability:
        pairs = [pc for f in figures for pc in panel_correct(f, preds[f["figure_key"]])]
        print(f"\nReliability of panel confidence, held-out publishers {', '.join(HELDOUT)}"
              f" ({len(figures)} figures, {len(pairs)} predicted panels; right = IoU >= 0.5 with a gold panel)")
        print(reliability_table(pairs))
        return 0
    dev = [f for f in figures if f["publisher"] not in HELDOUT]
    held = [f for f in figures if f["publisher"] in HELDOUT]
    print(f"\npmc_dev_corpus gold: {len(figures)} figures in {time.perf_counter() - t0:.0f} s"
          + (f", images resized x{scale:g}" if scale != 1.0 else "") + (f", JPEG q{jpeg}" if jpeg is not None else "")
          + (f", PDF figures at their files' resolution (x{min(scales):.2f}-{max(scales):.2f} of the 144-dpi crop,"
             f" median x{sorted(scales)[len(scales) // 2]:.2f})" if scales else ""))
    print(_block("DEVELOPMENT publishers", dev, preds, gold_preds))
    if held:
        print(_block("HELD-OUT publishers (" + ", ".join(HELDOUT) + ")", held, preds, gold_preds))
    return 0
