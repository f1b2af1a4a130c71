"""``medfig induce ARTICLE_DIR [-o OUT] [--draw DIR]``: ground-truth figure/table boxes from JATS + PDF.

ARTICLE_DIR: one article package (folder, PMC .tar.gz, eLife/MECA zip) or a folder of
them. Writes ``OUT/{article}.json`` in ``medfig extract``'s schema, each box with the
``method`` that found it (template / bow-interval / band) and its score. A package that
cannot be induced prints an error naming it and the run goes on (exit code 1 at the end).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from medfig.induce.run import induce_path
    from medfig.induce.writer import write_induced
    from medfig.records import SourceError

    root = Path(args.input)
    if not root.exists():
        print(f"medfig induce: input not found: {root}", file=sys.stderr)
        return 2
    out = Path(args.output)
    counts = {"template": 0, "bow-interval": 0, "band": 0}
    n_ok = n_regionless = n_not_found = pages = n_graphics = 0
    failed: list[str] = []
    try:
        results = list(tqdm(induce_path(root), desc="induce", unit="article", disable=args.quiet))
    except SourceError as exc:
        print(f"medfig induce: {exc}", file=sys.stderr)
        return 2
    for key, paper, error in results:
        if paper is None:
            print(f"medfig induce: {error}", file=sys.stderr)
            failed.append(key)
            continue
        write_induced(paper, out)
        for w in paper.warnings:
            print(f"medfig induce: warning: {w}", file=sys.stderr)
        if args.draw:
            from medfig.induce.draw import draw_paper

            draw_paper(_pdf_bytes(root, key), paper, Path(args.draw))
        n_ok += 1
        pages += paper.n_pages
        n_graphics += sum(1 for g in paper.other_graphics if g.box is not None)
        for f in paper.figures:
            if f.box is not None:
                counts[f.method] += 1
            elif f.page is not None:
                n_regionless += 1
            else:
                n_not_found += 1
    if not results:
        print(f"medfig induce: no article packages under {root}", file=sys.stderr)
        return 2
    print(f"medfig induce: {n_ok}/{len(results)} articles, {pages} pages: {sum(counts.values())} boxes "
          f"({counts['template']} template, {counts['bow-interval']} bow-interval, {counts['band']} band), "
          f"{n_regionless} captions without a region, {n_not_found} JATS captions not in the PDF, "
          f"{n_graphics} images outside figures located -> {out}")
    if failed:
        print(f"medfig induce: {len(failed)} article(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _pdf_bytes(root: Path, key: str) -> bytes:
    from medfig.sources import iter_sources

    for source in iter_sources(root):
        if source.key == key:
            with source.open() as package:
                return package.read_bytes(package.pdf_name)
    raise FileNotFoundError(f"{root}: article {key} vanished")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("induce", help="ground-truth figure/table boxes from JATS + PDF (+ figure files), "
                                      "independent of medfig's extractor")
    p.add_argument("input", help="an article package (folder, PMC .tar.gz, eLife/MECA zip) or a folder of them")
    p.add_argument("-o", "--output", default="induced", help="output folder for {article}.json (default ./induced)")
    p.add_argument("--draw", default=None, help="also draw the boxes on page PNGs in this folder, to check by eye")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
