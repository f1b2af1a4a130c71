"""``medfig why FOLDER ARTICLE[/FIGURE]``: why a figure is (not) in a dataset or release, from the ledger."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict


def run(args: argparse.Namespace) -> int:
    from medfig.ledger import why
    from medfig.records import MedfigError

    article_key, _, figure_id = args.target.partition("/")
    try:
        answer = why(args.folder, article_key, figure_id or None)
    except MedfigError as exc:
        print(f"medfig why: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(asdict(answer), indent=2) if args.json else answer.text())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("why", help="why an article or figure is not in a dataset or release (the exclusion ledger)")
    p.add_argument("folder", help="a dataset (`medfig build`) or release (`medfig curate`) folder")
    p.add_argument("target", metavar="ARTICLE[/FIGURE]", help="article key, optionally /figure id (e.g. PMC4735894/fig1)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.set_defaults(func=run)
