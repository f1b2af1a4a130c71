"""``medfig extract PAPER.pdf|FOLDER -o DIR``: figures and tables (with captions) out of PDFs.

One JSON per PDF (``--format medfig`` or ``pdffigures2``) plus one PNG crop per figure.
A bad PDF prints an error naming the file and the run goes on; the exit code is 1 when
any PDF failed.

Per-paper hard time limit: with ``--time-limit N`` (default 120 s) every PDF is read *and
written* in a worker process; a PDF still running after N s has its worker killed (a
parser stuck in C code answers no signal), is reported as ``timed out after N s`` and the
run goes on with a fresh worker. Inside the worker the extractor's own cooperative budget
is ``COOPERATIVE_SHARE`` of N, so a long-but-progressing PDF ends with the pages read so
far (and a warning) before the hard kill. ``--time-limit 0`` or ``--in-process`` runs
everything in this process: no worker start-up, no protection against a hang.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

COOPERATIVE_SHARE = 0.75  # of --time-limit: the extractor stops reading pages here, the worker is killed at 100%
WORKER_STARTUP_S = 120.0  # importing pdfplumber/scipy and loading the ONNX models, not counted against a paper
# TEST ONLY (tests/test_pdf_robustness.py): a worker given the PDF whose file name equals
# TEST_HANG_ENV sleeps for an hour before reading it (a PDF that hangs a parser); one given
# the PDF named by TEST_CRASH_ENV exits at once with code 70 (a parser that segfaults).
TEST_HANG_ENV = "MEDFIG_TEST_EXTRACT_HANG_ON"
TEST_CRASH_ENV = "MEDFIG_TEST_EXTRACT_CRASH_ON"
_READY = "ready"


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


def _worker_main(conn: Connection, use_layout: bool) -> None:
    # the parent only waits: the worker is the one busy process and keeps onnxruntime's default threads
    import medfig.pdf.extract  # noqa: F401  (import once, before the first paper's clock starts)

    if use_layout:
        from medfig.pdf.layout import get_detector

        get_detector()
    conn.send(_READY)
    hang_on, crash_on = os.environ.get(TEST_HANG_ENV), os.environ.get(TEST_CRASH_ENV)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        if hang_on and Path(job.pdf).name == hang_on:
            time.sleep(3600)
        if crash_on and Path(job.pdf).name == crash_on:
            os._exit(70)
        conn.send(_extract_one(job))


class _KillableWorker:
    """One spawned worker process; a paper past the limit gets the worker killed and replaced."""

    def __init__(self, use_layout: bool):
        self._ctx = mp.get_context("spawn")  # fork + onnxruntime/tqdm threads can deadlock the child
        self._use_layout = use_layout
        self._process = None
        self._conn: Connection | None = None

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        self._process = self._ctx.Process(target=_worker_main, args=(child, self._use_layout), daemon=True)
        self._process.start()
        child.close()
        self._conn = parent
        if not parent.poll(WORKER_STARTUP_S) or parent.recv() != _READY:
            self.close()
            raise RuntimeError("medfig extract: the worker process could not start; use --in-process")

    def run(self, job: _Job, timeout_s: float):
        if self._process is None or not self._process.is_alive():
            self._start()
        self._conn.send(job)
        if self._conn.poll(timeout_s):
            try:
                return self._conn.recv()
            except (EOFError, OSError):
                pass  # died while answering
            self._process.join(5)  # reap it, so its exit code is known
            code = self._process.exitcode
            self.close()
            return f"{job.pdf}: the worker process died while reading it (exit code {code})"
        self.close()
        return f"{job.pdf}: timed out after {timeout_s:g} s (worker stopped; the run goes on)"

    def close(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(5)
            self._conn.close()
        self._process = self._conn = None


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
    worker = None if (limit is None or args.in_process) else _KillableWorker(use_layout=not args.cheap)
    n_fig = n_tab = n_regionless = n_pages = 0
    failed: list[str] = []
    seconds = 0.0
    try:
        for pdf in tqdm(pdfs, desc="extract", unit="pdf", disable=args.quiet or len(pdfs) == 1):
            job = _Job(pdf=str(pdf), out=str(out), stem=_stem(pdf, root), use_layout=not args.cheap,
                       layout_pages=args.layout_pages, time_limit_s=_cooperative(limit, worker is not None),
                       cross_page=args.cross_page_captions,
                       dpi=args.dpi, native=args.native, fmt=args.format, crops=not args.no_crops)
            result = _extract_one(job) if worker is None else worker.run(job, limit)
            if isinstance(result, str):
                print(f"medfig extract: {result}", file=sys.stderr)
                failed.append(str(pdf))
                continue
            for w in result.warnings:
                print(f"medfig extract: warning: {w}", file=sys.stderr)
            n_fig += sum(1 for f in result.figures if f.fig_type == "Figure")
            n_tab += sum(1 for f in result.figures if f.fig_type == "Table")
            n_regionless += len(result.regionless)
            n_pages += result.n_pages
            seconds += result.seconds
    finally:
        if worker is not None:
            worker.close()
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
    p.add_argument("--no-cross-page-captions", dest="cross_page_captions", action="store_false",
                   help="do not pair a caption left without a region with the art of the page before/after "
                        "it (by default they are paired when that page has no caption: legend pages, "
                        "a figure filling a page)")
    p.add_argument("--no-crops", action="store_true", help="write the JSON only")
    p.add_argument("--time-limit", type=float, default=120.0,
                   help="hard seconds per PDF (default 120): each PDF runs in a worker process that is killed "
                        "past the limit and the PDF reported as timed out; pages stop being read at 75%% of it. "
                        "0: no limit, in this process")
    p.add_argument("--in-process", action="store_true",
                   help="run in this process (no worker start-up; a hanging PDF then hangs the run)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
