"""``medfig evaluate METRIC ...``: the papers' metrics as a command. One sub-command per metric.

Metrics are registered in ``METRICS`` (name -> (help, add_arguments, run)); adding one is a
new entry, nothing else changes. Today: ``subfigures`` (MedICaT alignment F1, COCO box mAP,
label accuracy, false split rate) and ``image-filter`` (precision / recall of the radiology filter).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable


def _subfigures_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pred", help="predictions: JSON / JSON lines of {figure_key, compound, subfigures:[{label, box, score, subcaption}]}")
    p.add_argument("gold", help="gold: JSON / JSON lines of {figure_key, caption, subfigures:[{label, box, subcaption}]}")
    p.add_argument("--score-threshold", type=float, default=0.7, help="keep predicted boxes scoring above this (MedICaT: 0.7)")
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


METRICS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "subfigures": ("MedICaT subfigure-subcaption F1, COCO box mAP, label accuracy", _subfigures_args, _subfigures_run),
    "image-filter": ("radiology image filter: precision/recall against hand labels (or weak caption labels)",
                     _image_filter_args, _image_filter_run),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evaluate", help="score predictions against gold with the papers' metrics")
    metrics = p.add_subparsers(dest="metric", required=True, metavar="METRIC")
    for name, (help_text, add_arguments, run) in METRICS.items():
        mp = metrics.add_parser(name, help=help_text)
        add_arguments(mp)
        mp.set_defaults(func=run)
