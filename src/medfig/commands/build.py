"""``medfig build INPUT [INPUT ...] -o OUT``: articles in, a resumable figure dataset out.

Several inputs build into one dataset; articles of earlier runs that the inputs do not hold stay
unless ``--sync`` (then they leave, and the summary names them)."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path


def read_removal_list(path: Path) -> dict[str, tuple[str, str]]:
    """Article keys or PMCIDs to take out, one per line; optional CSV columns: id,reason,detail."""
    removed = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.reader(handle):
            if not row or not row[0].strip() or row[0].startswith("#"):
                continue
            ident = row[0].strip()
            reason = row[1].strip() if len(row) > 1 and row[1].strip() else "withdrawn"
            detail = row[2].strip() if len(row) > 2 else f"listed in {path.name}"
            removed[ident] = (reason, detail)
    return removed


def run(args: argparse.Namespace) -> int:
    """Exit codes: 0 built; 2 a problem with the input, the options or the folder (one line on stderr,
    e.g. another medfig process is writing it); 143 / 130 stopped by SIGTERM / SIGINT (one line: how
    many articles were kept; the next run does the rest)."""
    try:
        return _run(args)
    except KeyboardInterrupt:  # Ctrl-C before the build took over SIGINT (or after it let go)
        print("medfig build: interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    from medfig.pipeline.build import BuildInterrupted, build
    from medfig.pipeline.config import BuildConfig
    from medfig.records import MedfigError

    is_remote = any("://" in i for i in args.input)
    if (is_remote or args.source == "pmc-cloud") and len(args.input) > 1:
        print(f"medfig build: a PMC cloud input is built on its own, not with {len(args.input) - 1} other input(s)",
              file=sys.stderr)
        return 2
    if args.sync and args.incremental:
        print("medfig build: --sync (mirror the inputs) and --incremental (the input is a delta) contradict each other",
              file=sys.stderr)
        return 2
    for path in args.input:
        if not is_remote and not Path(path).exists():
            print(f"medfig build: input not found: {path}", file=sys.stderr)
            return 2
    removed = None
    if args.removed:
        try:
            removed = read_removal_list(Path(args.removed))
        except OSError as exc:
            print(f"medfig build: cannot read removal list {args.removed}: {exc}", file=sys.stderr)
            return 2
    sources = query = None
    try:
        config = BuildConfig.from_environment(pdf_figures=not args.no_pdf_figures, subfigures=not args.no_subfigures,
                                              crop_dpi=args.crop_dpi, max_crop_dpi=args.max_crop_dpi)
        if is_remote or args.source == "pmc-cloud":
            from medfig.sources.pmc_cloud import PmcCloudQuery, iter_pmc_cloud

            query = PmcCloudQuery.from_args(argparse.Namespace(**{**vars(args), "input": args.input[0]}))
            sources = iter_pmc_cloud(query)
        report = build(
            None if sources is not None else args.input, args.output, sources=sources,
            workers=args.workers, progress=not args.quiet, executor=args.executor, ray_address=args.ray_address,
            shards=args.shards, sync=args.sync, removed=removed,
            timeout_s=args.timeout if args.timeout > 0 else None, config=config,
        )
    except BuildInterrupted as exc:
        print(f"medfig build: {exc}", file=sys.stderr)
        return exc.exit_code
    except MedfigError as exc:
        print(f"medfig build: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    if query is not None:
        skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(query.skipped.items())) or "none"
        print(f"  pmc cloud listing : {report.articles_seen} selected; left out: {skipped}")
    unwritten = report.errors_by_stage.get("write", 0)
    if unwritten:  # the machine, not the articles: say so and fail, the next run redoes them
        print(f"medfig build: {unwritten} article(s) could not be written to {report.out_dir} (disk full, quota "
              f"or read-only file system, see errors.parquet); they are redone by the next run", file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args
    from medfig.pipeline.config import CROP_DPI_ENV, BuildConfig

    defaults = BuildConfig()
    p = sub.add_parser("build", help="build a figure dataset from articles (resumable)")
    p.add_argument("input", nargs="+", help="folder of articles, PMC .tar.gz packages, eLife/MECA zips, one XML/PDF "
                                            "file, or s3://pmc-oa-opendata[/...] (PMC cloud); several build into one "
                                            "dataset")
    p.add_argument("-o", "--output", required=True, help="dataset folder (created; re-runs resume)")
    p.add_argument("--workers", type=_args.non_negative_int, default=None,
                   help="worker processes (local) or articles in flight (ray); 0 = in this process "
                        "(default: all cores / the cluster's CPUs)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="local process pool (default) or a Ray cluster")
    p.add_argument("--ray-address", default=None,
                   help="Ray cluster to join (auto, HOST:6379, ray://HOST:10001); default starts a local Ray")
    p.add_argument("--shards", type=_args.positive_int, default=None,
                   help="Parquet parts per table (default 1, or what the dataset has); >1 writes folders")
    p.add_argument("--sync", action="store_true",
                   help="the dataset mirrors its inputs: articles of earlier runs that no input holds are removed "
                        "(named in the summary); default: they stay")
    p.add_argument("--incremental", action="store_true",
                   help="INPUT holds new/updated articles only (now the default: every other article stays)")
    p.add_argument("--removed", metavar="FILE", default=None,
                   help="article keys or PMCIDs to take out (retracted, withdrawn): one per line, or id,reason,detail")
    p.add_argument("--timeout", type=_args.non_negative_float, default=600.0,
                   help="seconds one article may take before its worker is stopped (0 = no limit; default 600)")
    p.add_argument("--no-pdf-figures", action="store_true",
                   help="do not crop figures that have no file from the article's PDF (faster)")
    p.add_argument("--no-subfigures", action="store_true",
                   help="do not split compound figures into panels (no subfigures.parquet rows; faster)")
    p.add_argument("--crop-dpi", type=_args.dpi, default=None,
                   help=f"lowest resolution of figures cropped from PDFs, used for vector art (default "
                        f"${CROP_DPI_ENV} or {defaults.crop_dpi:g}); changing it redoes every article")
    p.add_argument("--max-crop-dpi", type=_args.dpi, default=None,
                   help=f"highest resolution of crops: a figure is rendered at its embedded images' own "
                        f"resolution up to this (default {defaults.max_crop_dpi:g}; = --crop-dpi for a fixed resolution)")
    p.add_argument("--source", choices=("auto", "pmc-cloud"), default="auto",
                   help="pmc-cloud: INPUT is a PMC cloud bucket or a local copy laid out like it")
    p.add_argument("--licence-group", action="append", choices=("oa_comm", "oa_noncomm", "oa_other"),
                   help="PMC cloud: keep these licence groups (repeatable; default all)")
    p.add_argument("--updated-since", default=None, help="PMC cloud: only articles updated on or after this date")
    p.add_argument("--pmcids", metavar="FILE", default=None, help="PMC cloud: only the PMCIDs listed in FILE")
    p.add_argument("--endpoint-url", default=None, help="PMC cloud: S3 endpoint (a mirror or a test server)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
