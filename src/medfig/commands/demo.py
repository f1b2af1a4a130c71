"""``medfig demo OUT [--n N]``: synthetic PMC-like articles with exact ground truth."""

from __future__ import annotations

import argparse
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from medfig.demo import write_demo_corpus

    paths = write_demo_corpus(Path(args.output), n=args.n, seed=args.seed)
    print(f"medfig demo: wrote {len(paths)} synthetic articles to {args.output}")
    print(f"  next: medfig build {args.output} -o <dataset>")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("demo", help="write synthetic PMC-like articles with exact ground truth")
    p.add_argument("output", help="folder to write the demo articles into")
    p.add_argument("--n", type=_args.positive_int, default=5, help="number of articles (default 5)")
    p.add_argument("--seed", type=_args.non_negative_int, default=0, help="random seed (same seed, same bytes)")
    p.set_defaults(func=run)
