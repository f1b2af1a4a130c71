"""``medfig extract PAPER.pdf|FOLDER -o DIR``: figures and tables (with captions) out of PDFs.

One JSON per PDF (``--format medfig`` or ``pdffigures2``) plus one PNG crop per figure.
A bad PDF prints an error naming the file and the run goes on; the exit code is 1 when
any PDF failed.

Per-paper hard time limit: with ``--time-limit N`` (default 120 s) every PDF is read *and
written* in a worker process; a PDF still running after N s has its worker killed (a
parser stuck in C code answers no signal), is reported as ``timed out after N s`` and the
run goes on with a fresh worker (the build's :class:`~medfig.pipeline.local_pool.LocalPool`,
one worker, no retry). Inside the worker the extractor's own cooperative budget
is ``COOPERATIVE_SHARE`` of N, so a long-but-progressing PDF ends with the pages read so
far (and a warning) before the hard kill. ``--time-limit 0`` or ``--in-process`` runs
everything in this process: no worker start-up, no protection against a hang.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from medfig.records import MedfigError

COOPERATIVE_SHARE = 0.75  # of --time-limit: the extractor stops reading pages here, the worker is killed at 100%


@dataclass(slots=True)
class _Job:
    pdf: str
    out: str
    stem: str
    use_layout: bool
    layout_pages: str
    time_limit_s: float | None  # the extractor's cooperative budget
    cross_page: bool
    dpi: float
    native: bool
    fmt: str
    crops: bool


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


def _extract_one(job: _Job):
    """Read, extract and write one PDF. Returns the PdfExtraction or an error message naming the file."""
    from medfig.pdf.document import read_pdf_bytes
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.output import write_extraction
    from medfig.pdf.types import PdfExtractionError

    try:
        data, display = read_pdf_bytes(job.pdf)
        result = extract_pdf(data, name=display, use_layout=job.use_layout, layout_pages=job.layout_pages,
                             time_limit_s=job.time_limit_s, cross_page=job.cross_page)
        write_extraction(data, result, Path(job.out), job.stem, dpi=job.dpi, native=job.native, fmt=job.fmt,
                         crops=job.crops)
        return result
    except PdfExtractionError as exc:
        return str(exc)
    except Exception as exc:  # a reader bug on one odd PDF must not end a folder run
        return f"{job.pdf}: unexpected error ({type(exc).__name__}: {exc})"


def _cooperative(limit: float | None, killable: bool) -> float | None:
    """The extractor's own page-loop budget: all of the limit in process, a share of it in a worker."""
    if limit is None:
        return None
    return COOPERATIVE_SHARE * limit if killable else limit


def _extract_task(job: _Job, _out_dir: Path) -> tuple[str, object]:
    """One PDF on the worker pool: (pdf, PdfExtraction or error message)."""
    return job.pdf, _extract_one(job)


def _warm_up(use_layout: bool) -> None:
    """Imports and the layout model, before the first paper's clock starts."""
    import medfig.pdf.extract  # noqa: F401

    if use_layout:
        from medfig.pdf.layout import get_detector

        get_detector()


def _extract_failure(job: _Job, failure) -> tuple[str, str]:
    if failure.stage == "timeout":
        return job.pdf, f"{job.pdf}: timed out after {failure.timeout_s:g} s (worker stopped; the run goes on)"
    return job.pdf, f"{job.pdf}: the worker process died while reading it (exit code {failure.exit_code})"


def _results(jobs: list[_Job], limit: float | None, in_process: bool, use_layout: bool):
    """(pdf, result) per job, in order: in this process, or on one killable worker (see module doc)."""
    if limit is None or in_process:
        yield from ((job.pdf, _extract_one(job)) for job in jobs)
        return
    from medfig.pipeline.local_pool import LocalPool

    # one worker, the only busy process: onnxruntime keeps its default threads
    pool = LocalPool(_extract_task, Path(jobs[0].out), workers=1, timeout_s=limit, max_attempts=1,
                     on_failure=_extract_failure, warm_up=partial(_warm_up, use_layout),
                     single_threaded_models=False)
    yield from pool.run(jobs)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    root = Path(args.input)
    if not root.exists():
        print(f"medfig extract: input not found: {root}", file=sys.stderr)
        return 2
    pdfs = _pdfs(root)
    if not pdfs:
        print(f"medfig extract: no .pdf files under {root}", file=sys.stderr)
        return 2
    out = Path(args.output)
    limit = args.time_limit if args.time_limit and args.time_limit > 0 else None
    killable = not (limit is None or args.in_process)
    jobs = [_Job(pdf=str(pdf), out=str(out), stem=_stem(pdf, root), use_layout=not args.cheap,
                 layout_pages=args.layout_pages, time_limit_s=_cooperative(limit, killable),
                 cross_page=args.cross_page_captions,
                 dpi=args.dpi, native=args.native, fmt=args.format, crops=not args.no_crops) for pdf in pdfs]
    n_fig = n_tab = n_regionless = n_read = n_pages = 0
    failed: list[str] = []
    seconds = 0.0
    try:
        results = _results(jobs, limit, args.in_process, not args.cheap)
        for pdf, result in tqdm(results, total=len(jobs), desc="extract", unit="pdf",
                                disable=args.quiet or len(pdfs) == 1):
            if isinstance(result, str):
                print(f"medfig extract: {result}", file=sys.stderr)
                failed.append(pdf)
                continue
            for w in result.warnings:
                print(f"medfig extract: warning: {w}", file=sys.stderr)
            n_fig += sum(1 for f in result.figures if f.fig_type == "Figure")
            n_tab += sum(1 for f in result.figures if f.fig_type == "Table")
            n_regionless += len(result.regionless)
            n_read += len(result.page_sizes_pt)  # pages actually read: a long PDF stops at max_pages / the time limit
            n_pages += result.n_pages
            seconds += result.seconds
    except MedfigError as exc:  # the worker could not start
        print(f"medfig extract: {exc}; or use --in-process", file=sys.stderr)
        return 2
    ok = len(pdfs) - len(failed)
    rate = f", {n_read / seconds:.1f} pages/s" if seconds else ""
    pages = f"{n_read} pages" if n_read == n_pages else f"{n_read} of {n_pages} pages read"
    print(f"medfig extract: {ok}/{len(pdfs)} PDFs, {pages}: {n_fig} figures, {n_tab} tables, "
          f"{n_regionless} captions without a region{rate} -> {out}")
    if failed:
        print(f"medfig extract: {len(failed)} PDF(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("extract", help="extract figures and tables with captions from PDFs (JSON + crops)")
    p.add_argument("input", help="a PDF, or a folder searched recursively for .pdf files")
    p.add_argument("-o", "--output", required=True, help="output folder: {name}.json + {name}-figure-1.png ...")
    p.add_argument("--dpi", type=_args.dpi, default=150.0, help="crop resolution (default 150)")
    p.add_argument("--format", choices=["medfig", "pdffigures2"], default="medfig",
                   help="JSON schema: medfig (default) or pdffigures2's field names")
    p.add_argument("--native", action="store_true",
                   help="render crops at the resolution of the embedded raster they contain (capped at 600 dpi)")
    p.add_argument("--cheap", action="store_true",
                   help="no layout detector: embedded images + vector clusters only (fast; tables need the detector)")
    p.add_argument("--layout-pages", choices=["captions", "all"], default="captions",
                   help="run the layout detector on pages with a caption (default) or on every page")
    p.add_argument("--no-cross-page-captions", dest="cross_page_captions", action="store_false",
                   help="do not pair a caption left without a region with the art of the page before/after "
                        "it (by default they are paired when that page has no caption: legend pages, "
                        "a figure filling a page)")
    p.add_argument("--no-crops", action="store_true", help="write the JSON only")
    p.add_argument("--time-limit", type=_args.non_negative_float, default=120.0,
                   help="hard seconds per PDF (default 120): each PDF runs in a worker process that is killed "
                        "past the limit and the PDF reported as timed out; pages stop being read at 75%% of it. "
                        "0: no limit, in this process")
    p.add_argument("--in-process", action="store_true",
                   help="run in this process (no worker start-up; a hanging PDF then hangs the run)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
