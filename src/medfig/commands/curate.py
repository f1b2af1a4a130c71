"""``medfig curate DATASET -o RELEASE``: licence, caption, language, medical, duplicate filters + splits."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from medfig.curate.run import CurateOptions, curate
    from medfig.records import MedfigError

    fractions = args.splits  # three fractions adding up to 1: checked by _args.splits
    opts = CurateOptions(
        licence=args.licence, min_words=args.min_words, language_threshold=args.language_threshold,
        language=not args.no_language_filter, language_english_guard=args.language_english_guard, medical_filter=not args.no_medical_filter,
        keywords_file=args.keywords, medical_second_chance=not args.no_image_second_chance, require_images=not args.allow_missing_images,
        duplicates=not args.no_duplicates, image_filter=args.image_filter, phash_threshold=args.phash_threshold,
        dhash_threshold=args.dhash_threshold, vocabulary=args.vocabulary, lexicon=args.lexicon,
        default_lexicon=not args.no_default_lexicon,
        min_concept_frequency=args.min_concept_frequency, splits=fractions, seed=args.seed,
        min_split_figures=args.min_split_figures,
        workers=args.workers, executor=args.executor, ray_address=args.ray_address,
        min_panel_confidence=args.min_panel_confidence, keep_confident_panels=args.keep_confident_panels,
        min_figure_split_confidence=args.min_figure_split_confidence,
    )
    if args.keep_confident_panels and args.min_panel_confidence is None:
        print("medfig curate: --keep-confident-panels needs --min-panel-confidence X", file=sys.stderr)
        return 2
    if not Path(args.dataset).is_dir():
        print(f"medfig curate: dataset folder not found: {args.dataset}", file=sys.stderr)
        return 2
    try:
        report = curate(args.dataset, args.output, opts, progress=not args.quiet)
    except (MedfigError, ValueError) as exc:
        print(f"medfig curate: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args
    from medfig.curate.licence import PRESETS

    p = sub.add_parser("curate", help="filter a built dataset into a release (every drop explained in its exclusions ledger: medfig why)")
    p.add_argument("dataset", help="folder written by `medfig build`")
    p.add_argument("-o", "--output", required=True, help="release folder to write")
    p.add_argument("--licence", choices=sorted(PRESETS), default="rocov2",
                   help="licence policy (default rocov2: CC BY and CC BY-NC)")
    p.add_argument("--min-words", type=_args.non_negative_int, default=3, help="drop captions with fewer words (default 3)")
    p.add_argument("--language-threshold", type=_args.fraction, default=0.45,
                   help="drop non-English captions detected with confidence above this (default 0.45)")
    p.add_argument("--no-language-filter", action="store_true")
    p.add_argument("--language-english-guard", type=_args.non_negative_int, default=0, metavar="N",
                   help="keep captions with >= N English function words even if detected non-English (off: 0)")
    p.add_argument("--no-medical-filter", action="store_true", help="keep figures without a medical keyword")
    p.add_argument("--keywords", help="medical keyword file (one term per line) instead of MedICaT's list "
                   "(appendix B, shipped)")
    p.add_argument("--no-image-second-chance", action="store_true",
                   help="keywords only: do not let the medical-image classifier keep figures without a keyword")
    p.add_argument("--allow-missing-images", action="store_true", help="keep figures that have no image file")
    p.add_argument("--no-duplicates", action="store_true", help="skip near-duplicate removal")
    p.add_argument("--phash-threshold", type=_args.hamming_64, default=6, help="max pHash Hamming distance (default 6)")
    p.add_argument("--dhash-threshold", type=_args.hamming_64, default=12, help="max dHash Hamming distance (default 12)")
    p.add_argument("--image-filter", metavar="MODEL",
                   help="drop figures this trained image filter calls non-radiology (needs medfig[torch]; "
                        "skipped with a message without torch)")
    p.add_argument("--vocabulary", help="concept vocabulary CSV (ROCOv2 cui_mapping.csv or a MeSH CSV)")
    p.add_argument("--lexicon", help="learned term->concept lexicon (from `medfig concepts --save-lexicon`) instead "
                   "of medfig's default (learned from ROCO train + validation captions)")
    p.add_argument("--no-default-lexicon", action="store_true", help="vocabulary names and variants only")
    p.add_argument("--min-concept-frequency", type=_args.non_negative_int, default=10,
                   help="drop concepts seen in fewer figures of the release (default 10, as ROCOv2)")
    p.add_argument("--splits", type=_args.splits, default="0.8,0.1,0.1", help="train,valid,test fractions (default 0.8,0.1,0.1)")
    p.add_argument("--seed", type=_args.int_in(0, 2**32 - 1), default=0)
    p.add_argument("--min-split-figures", type=_args.non_negative_int, default=10, metavar="N",
                   help="warn when the valid or test split has fewer figures than N (default 10; "
                        "an empty split always warns)")
    p.add_argument("--workers", type=_args.non_negative_int, default=1,
                   help="processes (local) or tasks in flight (ray) for the per-figure steps, run per shard, "
                        "and for image hashing (default 1: this process)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="local processes (default) or a Ray cluster; group steps (duplicates, concepts, splits) "
                        "reduce in this process")
    p.add_argument("--ray-address", default=None, help="Ray cluster to join (default starts a local Ray)")
    p.add_argument("--min-panel-confidence", type=_args.fraction, default=None, metavar="X",
                   help="drop panels whose calibrated confidence (probability of a true panel) is below X, 0-1; the "
                        "figure stays. When some panels of a figure are below X, all its panels go (reason "
                        "partial_split: an incomplete split misleads subfigure tasks). Ledger reason "
                        "low_panel_confidence; exports then omit the panels")
    p.add_argument("--keep-confident-panels", action="store_true",
                   help="with --min-panel-confidence: keep the panels at or above X of a partly untrusted split "
                        "(for using panels one by one: panel search, single-panel images)")
    p.add_argument("--min-figure-split-confidence", type=_args.fraction, default=None, metavar="X",
                   help="drop whole figures whose split confidence is below X: the mean of their panels', or for a "
                        "figure kept whole the probability that it is single-panel (ledger reason low_split_confidence)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)
