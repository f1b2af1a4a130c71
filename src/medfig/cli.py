"""The ``medfig`` command: one entry point, one sub-command per job."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _cmd_build(args: argparse.Namespace) -> int:
    from medfig.pipeline.build import build

    if not Path(args.input).exists():
        print(f"medfig build: input not found: {args.input}", file=sys.stderr)
        return 2
    report = build(args.input, args.output, workers=args.workers, progress=not args.quiet)
    print(report.summary())
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from medfig.demo import write_demo_corpus

    paths = write_demo_corpus(Path(args.output), n=args.n, seed=args.seed)
    print(f"medfig demo: wrote {len(paths)} synthetic articles to {args.output}")
    print(f"  next: medfig build {args.output} -o <dataset>")
    return 0


def make_parser() -> argparse.ArgumentParser:
    from medfig import __version__

    parser = argparse.ArgumentParser(prog="medfig", description=__doc__)
    parser.add_argument("--version", action="version", version=f"medfig {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build", help="build a figure dataset from articles (resumable)")
    p.add_argument("input", help="folder of articles, PMC .tar.gz packages, eLife/MECA zips, or one XML/PDF file")
    p.add_argument("-o", "--output", required=True, help="dataset folder (created; re-runs resume)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("demo", help="write synthetic PMC-like articles with exact ground truth")
    p.add_argument("output", help="folder to write the demo articles into")
    p.add_argument("--n", type=int, default=5, help="number of articles (default 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same bytes)")
    p.set_defaults(func=_cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
