"""``medfig evaluate image-filter MODEL DATASET [--labels TSV]``: precision / recall of the image filter.

Registered in ``medfig.commands.evaluate.METRICS``.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "radiology image filter: precision/recall against hand labels (or weak caption labels)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file from `medfig train image-filter`")
    p.add_argument("dataset", help="dataset or release folder with figure images")
    p.add_argument("--labels", help="article_key<TAB>figure_id<TAB>1|0 hand labels; only these figures are scored")
    p.add_argument("--threshold", type=float, help="decision threshold (default: the model's)")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from medfig.records import MedfigError
    from medfig.vision.image_filter import (NO_TORCH_MESSAGE, FeatureExtractor, ImageFilterHead, dataset_images,
                                            precision_recall, read_hand_labels, torch_available, weak_label)

    if not torch_available():
        print(f"medfig evaluate image-filter: skipped: {NO_TORCH_MESSAGE}", file=sys.stderr)
        return 3
    try:
        head = ImageFilterHead.load(args.model)
        if args.threshold is not None:
            head.threshold = args.threshold
        items = dataset_images(args.dataset)
        if args.labels:
            hand = read_hand_labels(args.labels)
            items = [(r, p) for r, p in items if (r["article_key"], r["figure_id"]) in hand]
            gold = [hand[(r["article_key"], r["figure_id"])] for r, _ in items]
            source = f"hand labels {args.labels}"
        else:
            gold = [weak_label(r) == "radiology" for r, _ in items]
            source = "weak caption labels"
        if not items:
            raise MedfigError("no labelled figure with an image in the dataset")
        pred = head.predict(FeatureExtractor().features_of_files([p for _, p in items]))
    except (MedfigError, OSError) as exc:
        print(f"medfig evaluate image-filter: {exc}", file=sys.stderr)
        return 2
    p, r, tp, fp, fn = precision_recall(pred, gold)
    result = {"figures": len(items), "positives": sum(gold), "precision": p, "recall": r, "tp": tp, "fp": fp,
              "fn": fn, "threshold": head.threshold, "gold": source}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"image filter on {len(items)} figures ({sum(gold)} radiology, {source}): "
              f"precision {p:.3f}, recall {r:.3f} (tp {tp}, fp {fp}, fn {fn}; threshold {head.threshold})")
    return 0
