"""``medfig build INPUT -o OUT``: articles in, a resumable figure dataset out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from medfig.pipeline.build import build
    from medfig.records import SourceError

    if not Path(args.input).exists():
        print(f"medfig build: input not found: {args.input}", file=sys.stderr)
        return 2
    try:
        report = build(args.input, args.output, workers=args.workers, progress=not args.quiet)
    except SourceError as exc:
        print(f"medfig build: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build a figure dataset from articles (resumable)")
    p.add_argument("input", help="folder of articles, PMC .tar.gz packages, eLife/MECA zips, or one XML/PDF file")
    p.add_argument("-o", "--output", required=True, help="dataset folder (created; re-runs resume)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
