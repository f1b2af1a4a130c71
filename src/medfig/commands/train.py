"""``medfig train MODEL``: train a model on medfig datasets and releases.

- ``image-filter DATASET... -o MODEL.json``: the radiology image filter head.
- ``retrieval RELEASE -o DIR``: image-text retrieval, captions vs captions + inline references (MedICaT Table 3).
- ``concepts RELEASE -o DIR``: multi-label CUI detection next to a frequency baseline (ROCOv2 Table 1).
- ``captions RELEASE -o DIR``: caption prediction, image-prefix decoder on SmolLM2 next to nearest neighbour.

The last three need ``pip install 'medfig[train]'``; see docs/baselines.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


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


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _run_task(name: str, work) -> int:
    """Run one baseline task: torch missing or bad input is one line and exit 2."""
    from medfig.records import MedfigError
    from medfig.train import NO_TORCH_MESSAGE, torch_available

    if not torch_available():
        print(f"medfig train {name}: {NO_TORCH_MESSAGE}", file=sys.stderr)
        return 2
    try:
        for line in work():
            print(line)
    except (MedfigError, OSError) as exc:
        print(f"medfig train {name}: {exc}", file=sys.stderr)
        return 2
    return 0


def _device_and_frozen(args: argparse.Namespace) -> bool:
    """--frozen defaults on for the CPU and off for CUDA (end to end), unless given."""
    return args.frozen if args.frozen is not None else args.device == "cpu"


def _retrieval(args: argparse.Namespace) -> int:
    def work():
        from medfig.train.retrieval import RetrievalOptions, train_retrieval

        opts = RetrievalOptions(text=args.text, seeds=args.seeds, frozen=_device_and_frozen(args), device=args.device,
                                epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, panels=args.panels,
                                cache_dir=args.cache_dir, quiet=args.quiet)
        r = train_retrieval(args.release, args.output, opts)
        yield (f"medfig train retrieval -> {r.model_dir}: text={opts.text}, {'frozen backbones' if opts.frozen else 'end to end'}, "
               f"{opts.seeds} seed(s), items train/valid/test {r.items['train']}/{r.items['valid']}/{r.items['test']} "
               f"({r.references_used} training items with inline references), {r.seconds:.1f} s")
        for direction, recall in r.recall.items():
            cells = ", ".join(f"R@{k} {m * 100:.1f} ± {se * 100:.1f}" for k, (m, se) in recall.items())
            yield f"  test {direction.replace('_', ' ')} (captions only, pool {r.items['test']}): {cells}"
    return _run_task("retrieval", work)


def _concepts(args: argparse.Namespace) -> int:
    def work():
        from medfig.train.concepts import ConceptOptions, train_concepts

        opts = ConceptOptions(backbone=args.backbone, frozen=_device_and_frozen(args), device=args.device,
                              epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, seed=args.seed,
                              cache_dir=args.cache_dir, quiet=args.quiet)
        r = train_concepts(args.release, args.output, opts)
        yield (f"medfig train concepts -> {r.model_dir}: {opts.backbone}, {'frozen backbone' if opts.frozen else 'end to end'}, "
               f"{r.labels} CUIs, items train/valid/test {r.items['train']}/{r.items['valid']}/{r.items['test']}, "
               f"{r.seconds:.1f} s")
        yield (f"  test F1 {_fmt(r.model['f1'])} (manual {_fmt(r.model['f1_manual'])}, threshold {r.model['threshold']}) "
               f"vs frequency baseline F1 {_fmt(r.baseline['f1'])} (manual {_fmt(r.baseline['f1_manual'])}, k={r.baseline['k']}); "
               f"{r.model['images']} test images")
        yield f"  predictions: {r.model_dir / 'test_concepts.csv'} (gold: test_concepts_gold.csv)"
    return _run_task("concepts", work)


def _captions(args: argparse.Namespace) -> int:
    def work():
        from medfig.train.captions import CaptionOptions, train_captions

        steps = args.steps or (1500 if args.device == "cuda" else 20)
        opts = CaptionOptions(steps=steps, batch_size=args.batch_size, lr=args.lr, finetune_lm=args.finetune_lm,
                              device=args.device, seed=args.seed, bertscore=not args.no_bertscore,
                              limit_test=args.limit_test, language_model=args.language_model, cache_dir=args.cache_dir, quiet=args.quiet)
        r = train_captions(args.release, args.output, opts)
        yield (f"medfig train captions -> {r.model_dir}: {opts.steps} steps ({'LM fine-tuned' if opts.finetune_lm else 'LM frozen'}), "
               f"final loss {r.final_loss:.3f}, items train/test {r.items['train']}/{r.items['test']}, {r.seconds:.1f} s")
        keys = ("bleu1", "bleu4", "rouge_l", "meteor", "cider", "bertscore")
        yield "  prefix decoder   : " + ", ".join(f"{k} {_fmt(r.model.get(k))}" for k in keys)
        yield "  nearest neighbour: " + ", ".join(f"{k} {_fmt(r.baseline.get(k))}" for k in keys)
        yield f"  predictions: {r.model_dir / 'test_captions.csv'} (gold: test_captions_gold.csv)"
    return _run_task("captions", work)


def _common(p: argparse.ArgumentParser, epochs: int | None, lr: float, batch_size: int) -> None:
    from medfig.commands import _args

    p.add_argument("release", help="release folder written by `medfig curate`")
    p.add_argument("-o", "--output", required=True, help="model folder to write (weights, config.json, predictions)")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="cpu (default) or cuda")
    if epochs is not None:
        p.add_argument("--epochs", type=_args.positive_int, default=epochs, help=f"training epochs (default {epochs})")
        p.add_argument("--frozen", action=argparse.BooleanOptionalAction, default=None,
                       help="backbone features computed once, only the heads train (default: on for cpu, off for cuda)")
    p.add_argument("--lr", type=_args.positive_float, default=lr, help=f"learning rate (default {lr})")
    p.add_argument("--batch-size", type=_args.positive_int, default=batch_size, help=f"batch size (default {batch_size})")
    p.add_argument("--cache-dir", type=Path, help="keep frozen features here between runs (keyed by image files)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


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

    r = models.add_parser("retrieval", help="image-text retrieval, captions vs captions + inline references "
                                            "(MedICaT Table 3; needs medfig[train])")
    _common(r, epochs=30, lr=1e-3, batch_size=32)
    r.add_argument("--text", choices=("captions", "captions+references"), default="captions",
                   help="training text: captions, or captions + inline references as a second segment (default captions); "
                        "evaluation is on captions only")
    r.add_argument("--seeds", type=_args.positive_int, default=5, help="seeds 0..N-1, mean and standard error (default 5)")
    r.add_argument("--panels", action="store_true", help="panel crops with subcaptions where the build has them")
    r.set_defaults(func=_retrieval)
    c = models.add_parser("concepts", help="multi-label CUI detection vs a frequency baseline (ROCOv2 Table 1; needs medfig[train])")
    _common(c, epochs=40, lr=1e-3, batch_size=32)
    c.add_argument("--backbone", choices=("lite0", "lite2"), default="lite0", help="EfficientNet-Lite0 (default) or Lite2")
    c.add_argument("--seed", type=int, default=0)
    c.set_defaults(func=_concepts)
    g = models.add_parser("captions", help="caption prediction: image-prefix decoder on SmolLM2-135M vs nearest "
                                           "neighbour (needs medfig[train])")
    _common(g, epochs=None, lr=1e-3, batch_size=8)
    g.add_argument("--steps", type=_args.positive_int, default=None,
                   help="training steps (default 20 on cpu, a smoke run; 1500 on cuda)")
    g.add_argument("--finetune-lm", action="store_true", help="train the language model too (GPU)")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--limit-test", type=_args.non_negative_int, default=0, help="score only the first N test images (0: all)")
    g.add_argument("--language-model", type=Path, help="a local transformers causal-LM folder instead of the bundled "
                                                      "SmolLM2-135M GGUF")
    g.add_argument("--no-bertscore", action="store_true", help="skip BERTScore (faster)")
    g.set_defaults(func=_captions)
