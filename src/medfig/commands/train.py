"""``medfig train image-filter DATASET... -o MODEL.json``: train the radiology image filter head."""

from __future__ import annotations

import argparse
import sys


def _image_filter(args: argparse.Namespace) -> int:
    from medfig.records import MedfigError
    from medfig.vision.image_filter import (NO_TORCH_MESSAGE, FeatureExtractor, dataset_images, torch_available,
                                            train_head, weak_label)

    if not torch_available():
        print(f"medfig train image-filter: skipped: {NO_TORCH_MESSAGE}", file=sys.stderr)
        return 3
    try:
        exclude = set()
        if args.exclude_articles:
            exclude = {ln.strip() for ln in open(args.exclude_articles) if ln.strip() and not ln.startswith("#")}
        items = [(r, p) for d in args.datasets for r, p in dataset_images(d) if r["article_key"] not in exclude]
        if not items:
            raise MedfigError("no figure images in the given datasets")
        labels = [weak_label(r) for r, _ in items]
        feats = FeatureExtractor().features_of_files([p for _, p in items])
        head = train_head(feats, labels, c=args.c, trained_on={
            "datasets": [str(d) for d in args.datasets], "figures": len(items),
            "radiology": labels.count("radiology"), "other": labels.count("other"),
            "labels": "weak, from captions (modality_from_caption)"})
        head.save(args.output)
    except (MedfigError, OSError) as exc:
        print(f"medfig train image-filter: {exc}", file=sys.stderr)
        return 2
    print(f"medfig train image-filter -> {args.output}: {len(items)} figures "
          f"({labels.count('radiology')} radiology, {labels.count('other')} other, weak labels from captions)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("train", help="train a model on medfig datasets")
    models = p.add_subparsers(dest="model", required=True, metavar="MODEL")
    f = models.add_parser("image-filter", help="radiology image filter: EfficientNet-Lite0 features + logistic head "
                                               "(needs medfig[torch])")
    f.add_argument("datasets", nargs="+", help="dataset or release folders with figure images")
    f.add_argument("-o", "--output", required=True, help="model file to write (JSON)")
    f.add_argument("--exclude-articles", help="file of article keys to leave out (held-out evaluation articles)")
    f.add_argument("--c", type=_args.positive_float, default=0.1, help="inverse L2 strength of the logistic head (default 0.1)")
    f.set_defaults(func=_image_filter)
