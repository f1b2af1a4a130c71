"""``medfig export FORMAT RELEASE OUT``: rocov2 | medicat | hf | webdataset | card."""

from __future__ import annotations

import argparse
import shlex
import sys
import time

FORMATS = ("rocov2", "medicat", "hf", "webdataset", "card")


def run(args: argparse.Namespace) -> int:
    from medfig.export.release import load_release
    from medfig.records import MedfigError

    t0 = time.perf_counter()
    try:
        release = load_release(args.release, need_splits=args.format != "medicat")
        if args.format == "rocov2":
            from medfig.export.rocov2 import export_rocov2

            counts = export_rocov2(release, args.output, prefix=args.prefix, vocabulary=args.vocabulary,
                                   progress=not args.quiet, panels=args.panels)
        elif args.format == "medicat":
            from medfig.export.medicat import export_medicat

            counts = export_medicat(release, args.output)
        elif args.format == "hf":
            from medfig.export.hf import export_hf

            command = shlex.join(["medfig", "export", "hf", str(args.release), str(args.output),
                                  *(["--pretty-name", args.pretty_name] if args.pretty_name else [])])
            counts = export_hf(release, args.output, pretty_name=args.pretty_name, command=command)
        elif args.format == "webdataset":
            from medfig.export.webdataset import export_webdataset

            counts = export_webdataset(release, args.output, shard_size=args.shard_size)
        else:
            from medfig.export.card import write_card
            from medfig.export.rocov2 import _concept_names

            write_card(release, args.output, names=_concept_names(release, args.vocabulary))
            counts = {"figures": len(release.figures)}
    except (MedfigError, OSError) as exc:
        print(f"medfig export {args.format}: {exc}", file=sys.stderr)
        return 2
    written = ", ".join(f"{k} {v}" for k, v in counts.items())
    print(f"medfig export {args.format} -> {args.output}: {written} ({time.perf_counter() - t0:.1f} s)")
    if release.panels_missing and args.format != "card":
        print(f"medfig export {args.format}: warning: {release.panels_missing}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("export", help="write a curated release as ROCOv2 files, MedICaT JSONL, HF parquet, "
                                      "WebDataset shards or a dataset card")
    p.add_argument("format", choices=FORMATS)
    p.add_argument("release", help="release folder written by `medfig curate`")
    p.add_argument("output", help="folder to write")
    p.add_argument("--prefix", default="medfig", help="ROCOv2 id prefix: <prefix>_<split>_000001 (default medfig)")
    p.add_argument("--vocabulary", help="concept names for cui_mapping.csv / the card (default: the curate run's)")
    p.add_argument("--panels", action="store_true",
                   help="rocov2: replace each compound figure by its single-modality radiology panels "
                        "(ROCOv2 keeps non-compound images only)")
    p.add_argument("--pretty-name", help="hf: the dataset card's title (default: from the dataset folder's name)")
    p.add_argument("--shard-size", type=_args.positive_int, default=1000, help="samples per WebDataset shard (default 1000)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)
