"""Where `medfig build` spends its CPU on articles whose figures come from the PDF, stage by stage.

    python benchmarks/pdf_stage_times.py [--split development] [--limit N] [--crop-dpi 150] [--max-crop-dpi 600]
    PYTHONPATH=/path/to/other/checkout/src python benchmarks/pdf_stage_times.py   # the same table for other code

Builds the ``pmc_dev_corpus`` articles of ``--split`` (publishers as set aside in
``benchmarks/heldout_publishers.json``) in this process (``workers=0``, the detector on one ONNX
thread as in a build worker), after loading the models once (a worker's start-up, not counted).
Each stage is a function of medfig (or Pillow) wrapped by a timer of this process's CPU time
(``time.process_time``); a stage's time is exclusive: a stage called inside another (a PNG
encode inside a crop render) is counted once, in the inner stage. "other" is the rest of the
build (step framework, rows, parquet, manifest). CPU time, not wall time: the machine is shared.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from harness import add_data_argument, format_table

# (stage, module, attribute): the attribute is replaced where its callers look it up
STAGES = (
    ("xml (JATS parse)", "medfig.jats.parse", "parse_jats"),
    ("page words + drawn objects (pdfium)", "medfig.pdf.extract", "read_page"),
    ("captions", "medfig.pdf.extract", "find_captions"),
    ("page render for the detector", "medfig.pdf.extract", "render_page"),
    ("layout detector (onnxruntime)", "medfig.pdf.extract", "detect"),
    ("regions + pairing", "medfig.pdf.extract", "propose_regions"),
    ("regions + pairing", "medfig.pdf.extract", "pair"),
    ("caption-text search (pdfplumber)", "medfig.pdf.locate", "locate_by_caption_text"),
    ("caption-text search (pdfplumber)", "medfig.pdf.locate", "unlocated_reason"),
    ("crop dpi (raster scan)", "medfig.pdf.output", "raster_dpi"),
    ("crop render (pdfium)", "medfig.pdf.output", "render_box_png"),
    ("crop render (pdfium)", "medfig.pdf.output", "render_box"),
    ("compound split (panels, letters)", "medfig.compound", "analyze_compound"),
    ("panel-letter OCR (onnxruntime)", "medfig.vision.panel_labels", "recognise"),
    ("panel crops", "medfig.compound", "write_crops"),
    ("file writes (atomic, fsync)", "medfig.io", "atomic_write_bytes"),
    ("file writes (atomic, fsync)", "medfig.pipeline.article", "atomic_write_bytes"),
)
PIL_STAGES = (  # methods of Pillow classes, wherever they are called from
    ("PNG encode", "PIL.Image", "Image", "save"),
    ("image decode", "PIL.ImageFile", "ImageFile", "load"),
    ("image resize (split copy)", "PIL.Image", "Image", "resize"),
)


class StageClock:
    """Exclusive CPU seconds per stage: a stack of running stages, each charged for its own time only."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list] = []  # [stage, started, children's seconds]

    def wrap(self, stage: str, fn):
        clock = self

        def timed(*args, **kwargs):
            clock._stack.append([stage, time.process_time(), 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                name, started, inner = clock._stack.pop()
                spent = time.process_time() - started
                clock.seconds[name] += spent - inner
                clock.calls[name] += 1
                if clock._stack:
                    clock._stack[-1][2] += spent

        timed.__wrapped__ = fn
        return timed

    def install(self) -> None:
        for stage, module, attr in STAGES:
            mod = importlib.import_module(module)
            if hasattr(mod, attr):
                setattr(mod, attr, self.wrap(stage, getattr(mod, attr)))
        for stage, module, cls, attr in PIL_STAGES:
            owner = getattr(importlib.import_module(module), cls)
            setattr(owner, attr, self.wrap(stage, getattr(owner, attr)))


def warm_up() -> None:
    """Load what a build worker loads once (detector, OCR engine, lazy imports)."""
    os.environ.setdefault("MEDFIG_ONNX_THREADS", "1")  # as a build worker (medfig.pipeline.local_pool)
    from medfig.pdf.layout import get_detector
    from medfig.vision.letter_recogniser import ocr_engine

    get_detector()
    ocr_engine()
    for module in ("medfig.pipeline.build", "medfig.pdf.extract", "medfig.pdf.locate", "medfig.pdf.output",
                   "medfig.compound", "medfig.compound.scaled", "medfig.jats.parse", "pdfplumber"):
        importlib.import_module(module)


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pdf_crops import build_once, dev_folders

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_argument(ap)
    ap.add_argument("--split", choices=("development", "heldout", "all"), default="development")
    ap.add_argument("--limit", type=int, default=0, help="first N articles only (0: all)")
    ap.add_argument("--crop-dpi", type=float, default=150.0)
    ap.add_argument("--max-crop-dpi", type=float, default=600.0)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    folders = dev_folders(Path(a.data), a.split)[: a.limit or None]
    warm_up()
    clock = StageClock()
    clock.install()
    work = Path(tempfile.mkdtemp(prefix="medfig-stage-times-"))
    before = resource.getrusage(resource.RUSAGE_SELF)
    try:
        cpu, pages = build_once(folders, work / "out", a.crop_dpi, a.max_crop_dpi, True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_SELF)
    import medfig

    rows = []
    counted = 0.0
    for stage, seconds in sorted(clock.seconds.items(), key=lambda kv: -kv[1]):
        counted += seconds
        rows.append([stage, clock.calls[stage], f"{seconds:.1f}", f"{seconds / cpu:.1%}", f"{1000 * seconds / pages:.1f}"])
    rows.append(["other (steps, rows, parquet, manifest)", "-", f"{cpu - counted:.1f}", f"{(cpu - counted) / cpu:.1%}",
                 f"{1000 * (cpu - counted) / pages:.1f}"])
    rows.append(["ALL", "-", f"{cpu:.1f}", "100%", f"{1000 * cpu / pages:.1f}"])
    print(f"medfig from {Path(medfig.__file__).parent}; {a.split} split of pmc_dev_corpus: {len(folders)} articles, "
          f"{pages} pages; crops {a.crop_dpi:g}-{a.max_crop_dpi:g} dpi; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs\n")
    print(format_table(["stage", "calls", "CPU s", "share", "CPU ms/page"], rows, markdown=a.markdown))
    print(f"\n{pages / cpu:.2f} pages per CPU-second; of the build's CPU {after.ru_stime - before.ru_stime:.1f} s is system "
          f"time; {(after.ru_minflt - before.ru_minflt) / pages:.0f} page faults per page")


if __name__ == "__main__":
    main()
