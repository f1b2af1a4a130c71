"""``medfig evaluate METRIC ...``: the papers' metrics as a command. One sub-command per metric.

Metrics are registered in ``METRICS`` (name -> (help, add_arguments, run)); adding one is a
new entry, nothing else changes. Today: ``subfigures`` (MedICaT alignment F1, COCO box mAP,
label accuracy, false split rate), ``image-filter`` (precision / recall of the radiology filter) and
``figures`` (PDF figure/table/caption extraction, DeepFigures' and pdffigures2's protocols).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from medfig.commands import _args


def _subfigures_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pred", help="predictions: JSON / JSON lines of {figure_key, compound, subfigures:[{label, box, score, subcaption}]}")
    p.add_argument("gold", help="gold: JSON / JSON lines of {figure_key, caption, subfigures:[{label, box, subcaption}]}")
    p.add_argument("--score-threshold", type=_args.fraction, default=0.7, help="keep predicted boxes scoring above this (MedICaT: 0.7)")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")


def _subfigures_run(args: argparse.Namespace) -> int:
    from medfig.evaluate.subfigures import evaluate_subfigures, load_records

    try:
        gold = load_records(args.gold)
        pred = {r["figure_key"]: r for r in load_records(args.pred)}
    except ValueError as exc:
        print(f"medfig evaluate subfigures: {exc}", file=sys.stderr)
        return 2
    missing = [g["figure_key"] for g in gold if g["figure_key"] not in pred]
    if missing:
        print(f"medfig evaluate subfigures: {len(missing)} gold figures have no prediction (scored as single panel), e.g. {missing[0]}", file=sys.stderr)
    scores = evaluate_subfigures(gold, pred, score_threshold=args.score_threshold)
    if args.json:
        out = {k: getattr(scores, k) for k in scores.__slots__ if k != "per_figure"}  # type: ignore[attr-defined]
        print(json.dumps(out))
    else:
        print(scores.table())
    return 0


def _image_filter_args(p: argparse.ArgumentParser) -> None:
    from medfig.evaluate.image_filter_cli import add_arguments

    add_arguments(p)


def _image_filter_run(args: argparse.Namespace) -> int:
    from medfig.evaluate.image_filter_cli import run

    return run(args)


def _figures_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pred", help="predictions: a folder of JSON files or one JSON file (medfig extract/induce, "
                               "medfig gold set, pdffigures2 or DeepFigures output)")
    p.add_argument("gold", help="gold: same formats (e.g. medfig induce output or benchmarks/gold/pdf_figures/gold.json)")
    p.add_argument("--protocol", choices=["deepfigures", "pdffigures2", "both"], default="both",
                   help="DeepFigures (per-page Hungarian on IoU) or pdffigures2 (pairing by page/type/number, "
                        "boxes whitespace-cropped, a figure right only with its caption) or both (default)")
    p.add_argument("--iou", type=_args.fraction, default=0.8, help="IoU threshold for a correct box (default 0.8)")
    p.add_argument("--pdf-dir", default=None,
                   help="folder holding the PDFs, for pdffigures2's whitespace cropping (otherwise the PDF path "
                        "recorded in the JSON is used; papers whose PDF is not found are scored uncropped, and said so)")
    p.add_argument("--crop-dpi", type=_args.dpi, default=100.0, help="page rendering for whitespace cropping (default 100)")
    p.add_argument("--only-predicted", action="store_true",
                   help="score only the gold papers that have a prediction (default: a missing one scores as empty)")
    p.add_argument("--no-per-paper", action="store_true", help="text output: overall table only")
    p.add_argument("--json", action="store_true", help="print every score (overall and per paper) as JSON")


def _figures_run(args: argparse.Namespace) -> int:
    from medfig.evaluate.figure_files import FigureFileError
    from medfig.evaluate.figures import PROTOCOLS, evaluate_figures

    protocols = PROTOCOLS if args.protocol == "both" else (args.protocol,)
    try:
        ev = evaluate_figures(args.pred, args.gold, protocols=protocols, threshold=args.iou, pdf_dir=args.pdf_dir,
                              crop_dpi=args.crop_dpi, only_predicted=args.only_predicted)
    except FigureFileError as exc:
        print(f"medfig evaluate figures: {exc}", file=sys.stderr)
        return 2
    for e in ev.errors:
        print(f"medfig evaluate figures: {e}", file=sys.stderr)
    if ev.missing_predictions:
        how = "left out" if args.only_predicted else "scored as empty"
        print(f"medfig evaluate figures: {len(ev.missing_predictions)} gold paper(s) have no prediction ({how}), "
              f"e.g. {ev.missing_predictions[0]}", file=sys.stderr)
    if ev.unmatched_predictions:
        print(f"medfig evaluate figures: {len(ev.unmatched_predictions)} prediction file(s) match no gold paper "
              f"(not scored), e.g. {ev.unmatched_predictions[0]}", file=sys.stderr)
    if not ev.papers:
        print("medfig evaluate figures: no gold papers read", file=sys.stderr)
        return 2
    print(json.dumps(ev.to_dict()) if args.json else ev.table(per_paper=not args.no_per_paper))
    return 0


METRICS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "subfigures": ("MedICaT subfigure-subcaption F1, COCO box mAP, label accuracy", _subfigures_args, _subfigures_run),
    "image-filter": ("radiology image filter: precision/recall against hand labels (or weak caption labels)",
                     _image_filter_args, _image_filter_run),
    "figures": ("PDF figure/table/caption boxes: P/R/F1 by DeepFigures' and pdffigures2's protocols",
                _figures_args, _figures_run),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evaluate", help="score predictions against gold with the papers' metrics")
    metrics = p.add_subparsers(dest="metric", required=True, metavar="METRIC")
    for name, (help_text, add_arguments, run) in METRICS.items():
        mp = metrics.add_parser(name, help=help_text)
        add_arguments(mp)
        mp.set_defaults(func=run)
