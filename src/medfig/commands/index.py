"""``medfig index DATASET``: build or update the search index inside a dataset folder."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from medfig.records import MedfigError
    from medfig.search import build_index
    from medfig.search.documents import TEXT_FIELDS

    fields = tuple(f.strip() for f in args.fields.split(",")) if args.fields else TEXT_FIELDS
    try:
        report = build_index(args.dataset, fields=fields, dense=False if args.no_dense else None,
                             progress=not args.quiet)
    except MedfigError as exc:
        print(f"medfig index: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="build/update the figure search index of a dataset (incremental)")
    p.add_argument("dataset", help="a dataset folder written by `medfig build`")
    p.add_argument("--fields", default=None,
                   help="comma-separated text fields to index (default: caption,subcaption,refs,concepts,title)")
    p.add_argument("--no-dense", action="store_true", help="BM25 only, no sentence-model vectors")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)
