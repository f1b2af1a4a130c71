"""``medfig extract PAPER.pdf|FOLDER -o DIR``: figures and tables (with captions) out of PDFs.

One JSON per PDF (``--format medfig`` or ``pdffigures2``) plus one PNG crop per figure.
A bad PDF prints an error naming the file and the run goes on; the exit code is 1 when
any PDF failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _pdfs(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    return [path]


def _stem(pdf: Path, root: Path) -> str:
    """Output name: the PDF's path under the input folder, so two fulltext.pdf do not collide."""
    if root.is_dir():
        rel = pdf.relative_to(root).with_suffix("")
        return "__".join(rel.parts)
    return pdf.stem


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from medfig.pdf.document import read_pdf_bytes
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.output import write_extraction
    from medfig.pdf.types import PdfExtractionError

    root = Path(args.input)
    if not root.exists():
        print(f"medfig extract: input not found: {root}", file=sys.stderr)
        return 2
    pdfs = _pdfs(root)
    if not pdfs:
        print(f"medfig extract: no .pdf files under {root}", file=sys.stderr)
        return 2
    out = Path(args.output)
    n_fig = n_tab = n_regionless = n_pages = 0
    failed: list[str] = []
    seconds = 0.0
    for pdf in tqdm(pdfs, desc="extract", unit="pdf", disable=args.quiet or len(pdfs) == 1):
        try:
            data, display = read_pdf_bytes(pdf)
            result = extract_pdf(data, name=display, use_layout=not args.cheap, layout_pages=args.layout_pages,
                                 time_limit_s=args.time_limit or None)
            write_extraction(data, result, out, _stem(pdf, root), dpi=args.dpi, native=args.native, fmt=args.format,
                             crops=not args.no_crops)
        except PdfExtractionError as exc:
            print(f"medfig extract: {exc}", file=sys.stderr)
            failed.append(str(pdf))
            continue
        for w in result.warnings:
            print(f"medfig extract: warning: {w}", file=sys.stderr)
        n_fig += sum(1 for f in result.figures if f.fig_type == "Figure")
        n_tab += sum(1 for f in result.figures if f.fig_type == "Table")
        n_regionless += len(result.regionless)
        n_pages += result.n_pages
        seconds += result.seconds
    ok = len(pdfs) - len(failed)
    rate = f", {n_pages / seconds:.1f} pages/s" if seconds else ""
    print(f"medfig extract: {ok}/{len(pdfs)} PDFs, {n_pages} pages: {n_fig} figures, {n_tab} tables, "
          f"{n_regionless} captions without a region{rate} -> {out}")
    if failed:
        print(f"medfig extract: {len(failed)} PDF(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("extract", help="extract figures and tables with captions from PDFs (JSON + crops)")
    p.add_argument("input", help="a PDF, or a folder searched recursively for .pdf files")
    p.add_argument("-o", "--output", required=True, help="output folder: {name}.json + {name}-figure-1.png ...")
    p.add_argument("--dpi", type=float, default=150.0, help="crop resolution (default 150)")
    p.add_argument("--format", choices=["medfig", "pdffigures2"], default="medfig",
                   help="JSON schema: medfig (default) or pdffigures2's field names")
    p.add_argument("--native", action="store_true",
                   help="render crops at the resolution of the embedded raster they contain (capped at 600 dpi)")
    p.add_argument("--cheap", action="store_true",
                   help="no layout detector: embedded images + vector clusters only (fast; tables need the detector)")
    p.add_argument("--layout-pages", choices=["captions", "all"], default="captions",
                   help="run the layout detector on pages with a caption (default) or on every page")
    p.add_argument("--no-crops", action="store_true", help="write the JSON only")
    p.add_argument("--time-limit", type=float, default=120.0,
                   help="seconds per PDF, checked between pages: longer PDFs are cut with a warning (0: none)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
