"""``medfig evaluate METRIC ...``: the papers' metrics as a command. One sub-command per metric.

Metrics are registered in ``METRICS`` (name -> (help, add_arguments, run)); adding one is a
new entry, nothing else changes. Today: ``subfigures`` (MedICaT alignment F1, COCO box mAP,
label accuracy, false split rate), ``image-filter`` (precision / recall of the radiology filter),
``figures`` (PDF figure/table/caption extraction, DeepFigures' and pdffigures2's protocols),
``concepts`` (ImageCLEF sample-averaged F1 on ROCOv2 concept files), ``captions`` (BLEU, ROUGE-L,
METEOR, CIDEr via pycocoevalcap, BERTScore with an offline MiniLM) and ``retrieval`` (Recall@K of
a similarity matrix, MedICaT's protocol). See docs/evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
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


def _say(metric: str, line: str) -> None:
    print(f"medfig evaluate {metric}: {line}", file=sys.stderr, flush=True)


def _check_prediction_ids(metric: str, args: argparse.Namespace, pred: dict, gold: dict, scored_as: str) -> None:
    """ImageCLEF's rules for a run: an ID not in the gold file refuses it; a gold ID without a
    prediction is scored as ``scored_as`` and said on stderr."""
    from medfig.records import MedfigError

    unknown = [image_id for image_id in pred if image_id not in gold]
    if unknown:
        raise MedfigError(f"{args.pred}: {len(unknown)} image ID(s) not in {args.gold}, e.g. {unknown[0]!r} "
                          f"(ImageCLEF's evaluator rejects such a run)")
    missing = [image_id for image_id in gold if image_id not in pred]
    if missing:
        _say(metric, f"{len(missing)} of {len(gold)} gold images have no prediction (scored as {scored_as}), "
                     f"e.g. {missing[0]}")


def _concepts_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pred", help="predicted concepts, ROCOv2 form: header ID,CUIs; CUIs joined by ';'")
    p.add_argument("gold", help="gold concepts in the same form (e.g. a release's test_concepts.csv)")
    p.add_argument("--manual", default=None, metavar="GOLD_MANUAL.csv",
                   help="gold manual concepts (test_concepts_manual.csv): adds ImageCLEF's secondary F1, "
                        "predictions restricted to the CUIs of this file")
    p.add_argument("--skip-empty-gold", action="store_true",
                   help="primary F1: leave gold images without any CUI out of the average, as ImageCLEF's "
                        "evaluator does (default: they score 1 if the prediction is empty too, else 0); the "
                        "manual F1 always leaves out images without a manual concept, as ImageCLEF")
    p.add_argument("--json", action="store_true", help='print {"f1": ..., "f1_manual": ..., "images": N}')


def _concepts_run(args: argparse.Namespace) -> int:
    from medfig.evaluate.concept_metrics import concept_scores, read_concepts_csv
    from medfig.records import MedfigError

    started = time.monotonic()
    gold = read_concepts_csv(args.gold)
    pred = read_concepts_csv(args.pred)
    manual = read_concepts_csv(args.manual) if args.manual else None
    if not gold:
        raise MedfigError(f"{args.gold}: no gold images")
    _check_prediction_ids("concepts", args, pred, gold, "empty")
    empty_gold = "skip" if args.skip_empty_gold else "score"
    scores = concept_scores(pred, gold, manual, empty_gold=empty_gold)
    _say("concepts", f"scored {scores['images']} images in {time.monotonic() - started:.1f} s")
    if args.json:
        print(json.dumps(scores))
    else:
        print("concept detection (ImageCLEF sample-averaged F1)")
        print(f"  images      {scores['images']}")
        print(f"  F1          {scores['f1']:.4f}")
        if args.manual:
            manual = scores["f1_manual"]
            print(f"  F1 manual   {'n/a (no manual concept in the file)' if manual is None else f'{manual:.4f}'}")
    return 0


def _captions_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pred", help="predicted captions, ROCOv2 form: header ID,Caption (quote captions with commas)")
    p.add_argument("gold", help="gold captions in the same form (e.g. a release's test_captions.csv)")
    p.add_argument("--no-bertscore", action="store_true", help="skip BERTScore (loads a MiniLM encoder)")
    p.add_argument("--no-meteor", action="store_true", help="skip METEOR (starts a Java process)")
    p.add_argument("--json", action="store_true",
                   help="print bleu1..bleu4, rouge_l, meteor, cider, bertscore (+ images, bertscore_model) as JSON")


def _captions_run(args: argparse.Namespace) -> int:
    from medfig.evaluate.caption_metrics import (BERTSCORE_DESCRIPTION, MetricUnavailableWarning, caption_scores,
                                                 read_captions_csv)
    from medfig.records import MedfigError

    started = time.monotonic()
    gold = read_captions_csv(args.gold)
    pred = read_captions_csv(args.pred)
    if not gold:
        raise MedfigError(f"{args.gold}: no gold captions")
    _check_prediction_ids("captions", args, pred, gold, "an empty caption")
    what = "BLEU, ROUGE-L, CIDEr" + ("" if args.no_meteor else ", METEOR") + ("" if args.no_bertscore else ", BERTScore")
    _say("captions", f"scoring {len(gold)} images: {what} ...")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MetricUnavailableWarning)
        scores = caption_scores(pred, gold, bertscore=not args.no_bertscore, meteor=not args.no_meteor,
                                progress=lambda metric, done, total: _say(
                                    "captions", f"{metric}: {done}/{total} images, {time.monotonic() - started:.0f} s"))
    for warning in caught:
        if issubclass(warning.category, MetricUnavailableWarning):
            _say("captions", str(warning.message))
    _say("captions", f"scored {len(gold)} images in {time.monotonic() - started:.1f} s")
    bertscore_model = None if scores["bertscore"] is None else BERTSCORE_DESCRIPTION
    if args.json:
        print(json.dumps({**scores, "images": len(gold), "bertscore_model": bertscore_model}))
        return 0
    names = {"bleu1": "BLEU-1", "bleu2": "BLEU-2", "bleu3": "BLEU-3", "bleu4": "BLEU-4", "rouge_l": "ROUGE-L",
             "meteor": "METEOR", "cider": "CIDEr", "bertscore": "BERTScore"}
    print(f"caption prediction ({len(gold)} images, ImageCLEF preprocessing)")
    for key, label in names.items():
        value = scores[key]
        print(f"  {label:<10} {'n/a' if value is None else f'{value:.4f}'}")
    if bertscore_model:
        print(f"  ({bertscore_model})")
    return 0


def _k_list(text: str) -> tuple[int, ...]:
    from medfig.evaluate.retrieval_metrics import parse_ks
    from medfig.records import MedfigError

    try:
        return parse_ks(text)
    except MedfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _retrieval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("similarity", help="a .npy float matrix, queries x candidates; the right candidate of query i "
                                      "is column i (extra columns are distractors)")
    p.add_argument("--k", type=_k_list, default=(1, 5, 10, 20), help="comma-separated K values (default 1,5,10,20)")
    p.add_argument("--transpose", action="store_true",
                   help="score the other direction: columns are the queries (e.g. text -> image); needs a square matrix")
    p.add_argument("--json", action="store_true", help='print {"queries", "candidates", "recall_at": {K: R@K}, '
                                                       '"median_rank"} as JSON')


def _retrieval_run(args: argparse.Namespace) -> int:
    import numpy as np

    from medfig.evaluate.retrieval_metrics import load_similarity_npy, ranks_of_correct, recall_from_ranks
    from medfig.records import MedfigError

    similarity = load_similarity_npy(args.similarity)
    if args.transpose:
        if similarity.shape[0] != similarity.shape[1]:
            raise MedfigError(f"{args.similarity}: --transpose needs a square matrix, got {similarity.shape}")
        similarity = similarity.T
    queries, candidates = similarity.shape
    ranks = ranks_of_correct(similarity)
    recall = recall_from_ranks(ranks, args.k)
    _say("retrieval", f"{queries} queries over {candidates} candidates (ties counted against the right candidate)")
    median_rank = float(np.median(ranks))
    if args.json:
        print(json.dumps({"queries": queries, "candidates": candidates,
                          "recall_at": {str(k): v for k, v in recall.items()}, "median_rank": median_rank}))
    else:
        print(f"retrieval ({queries} queries, {candidates} candidates)")
        for k, value in recall.items():
            print(f"  R@{k:<4} {value:.4f}")
        print(f"  median rank {median_rank:g}")
    return 0


METRICS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "subfigures": ("MedICaT subfigure-subcaption F1, COCO box mAP, label accuracy", _subfigures_args, _subfigures_run),
    "image-filter": ("radiology image filter: precision/recall against hand labels (or weak caption labels)",
                     _image_filter_args, _image_filter_run),
    "figures": ("PDF figure/table/caption boxes: P/R/F1 by DeepFigures' and pdffigures2's protocols",
                _figures_args, _figures_run),
    "concepts": ("ImageCLEF concept detection: sample-averaged F1 (and F1 on manual concepts) on ROCOv2 CSVs",
                 _concepts_args, _concepts_run),
    "captions": ("caption prediction: BLEU-1..4, ROUGE-L, METEOR, CIDEr (pycocoevalcap), BERTScore (MiniLM)",
                 _captions_args, _captions_run),
    "retrieval": ("image-text matching: Recall@K of a similarity matrix (MedICaT's protocol)",
                  _retrieval_args, _retrieval_run),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evaluate", help="score predictions against gold with the papers' metrics")
    metrics = p.add_subparsers(dest="metric", required=True, metavar="METRIC")
    for name, (help_text, add_arguments, run) in METRICS.items():
        mp = metrics.add_parser(name, help=help_text)
        add_arguments(mp)
        mp.set_defaults(func=run)
