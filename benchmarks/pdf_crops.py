"""Figures located and cropped by `medfig build` on articles without figure files, per publisher,
with the crops' resolution and the build's CPU cost (issue 15: full-resolution images).

Usage:  python benchmarks/pdf_crops.py [--split development|heldout|all] [--max-crop-dpi 600]
                                       [--compare-dpi 150] [--no-subfigures] [--old-src DIR] [--rounds 1]

Corpus: ``pmc_dev_corpus`` (14 publishers), the publishers of ``--split`` as set aside in
``benchmarks/heldout_publishers.json``. Every build runs in a fresh Python process that plays
one build worker: it loads the models first (start-up, reported apart: a worker pays it once,
not per article), runs the detector on one ONNX thread (``MEDFIG_ONNX_THREADS=1``, as
``medfig.pipeline.local_pool`` sets for its workers), then builds every article in-process
(``workers=0``) into a fresh dataset. Settings built:

- ``native``: the default, each crop at its embedded rasters' resolution (``--crop-dpi`` 150 as
  the floor for vector art, ``--max-crop-dpi`` as the cap);
- ``fixed``: ``--compare-dpi`` for every crop (the resolution medfig used before);
- with ``--old-src DIR`` (the ``src`` folder of another checkout, e.g. ``git archive COMMIT src``):
  both settings again with that code, in the same run, so the ratios hold whatever the machine's load.

Per publisher it prints the XML figures whose file is not in the package (the ones the PDF must
give), how many were located and cropped, how many are not printed in the PDF (their caption
text is on no page), how many are printed but not located (error rows), and the share located
of those printed; then per build the median crop size, pages per CPU-second (the worker's
``process_time`` over the build, start-up excluded), the start-up CPU, the peak resident memory
of the worker (VmHWM) and the load average. CPU time, not wall time: the machine may be shared.
``--rounds N`` repeats the builds in turn and reports the best round of each (the least disturbed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq

from harness import add_data_argument, format_table

HERE = Path(__file__).resolve().parent


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def publishers_of(split: str) -> set[str]:
    sets = json.loads((HERE / "heldout_publishers.json").read_text())
    return {"development": set(sets["development"]), "heldout": set(sets["heldout"]),
            "all": set(sets["development"]) | set(sets["heldout"])}[split]


def dev_folders(data: Path, split: str) -> list[Path]:
    """The article folders of ``pmc_dev_corpus`` whose publisher is in ``split``, sorted."""
    wanted = publishers_of(split)
    corpus = data / "pmc_dev_corpus"
    return sorted(d for d in corpus.iterdir() if d.is_dir() and d.name.split("_")[0] in wanted)


def stage_input(folders: list[Path], staging: Path) -> int:
    """Copy the article folders into ``staging`` (a folder of article folders is what `medfig build`
    takes; copies, as the article scan does not follow links); the number of PDF pages."""
    import pypdfium2 as pdfium

    staging.mkdir(parents=True)
    pages = 0
    for folder in folders:
        shutil.copytree(folder, staging / folder.name)
        for pdf in folder.glob("*.pdf"):
            doc = pdfium.PdfDocument(pdf)
            pages += len(doc)
            doc.close()
    return pages


def build_once(folders: list[Path], out: Path, crop_dpi: float, max_crop_dpi: float, subfigures: bool) -> tuple[float, int]:
    """Build ``folders`` into ``out`` in this process; (CPU seconds of the build, pages)."""
    from medfig.pipeline.build import build
    from medfig.pipeline.config import BuildConfig

    staging = out.parent / f"{out.name}-input"
    pages = stage_input(folders, staging)
    config = BuildConfig(crop_dpi=crop_dpi, max_crop_dpi=max_crop_dpi, subfigures=subfigures)
    started = time.process_time()
    build(staging, out, workers=0, progress=False, config=config)
    return time.process_time() - started, pages


def worker_build(staging: Path, out: Path, crop_dpi: float, max_crop_dpi: float, subfigures: bool) -> dict:
    """One build in this process, as one build worker runs it (see the module docstring)."""
    os.environ.setdefault("MEDFIG_ONNX_THREADS", "1")
    started = time.process_time()
    import medfig
    from medfig.pdf.layout import get_detector
    from medfig.pipeline.build import build
    from medfig.pipeline.config import BuildConfig
    from medfig.vision.letter_recogniser import ocr_engine

    get_detector()
    ocr_engine()
    import medfig.compound.scaled, medfig.jats.parse, medfig.pdf.extract, medfig.pdf.locate, pdfplumber  # noqa: E401,F401
    startup = time.process_time() - started
    config = BuildConfig(crop_dpi=crop_dpi, max_crop_dpi=max_crop_dpi, subfigures=subfigures)
    started = time.process_time()
    build(staging, out, workers=0, progress=False, config=config)
    return {"cpu_s": time.process_time() - started, "startup_cpu_s": startup, "peak_rss_mb": peak_rss_mb(),
            "medfig": str(Path(medfig.__file__).parent)}


def run_build(staging: Path, out: Path, crop_dpi: float, max_crop_dpi: float, subfigures: bool,
              src: Path | None) -> dict:
    """``worker_build`` in a fresh Python process (``src``: import medfig from there instead)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(staging), str(out), str(crop_dpi),
           str(max_crop_dpi), "1" if subfigures else "0"]
    load = os.getloadavg()[0]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"pdf_crops: the build worker failed ({' '.join(cmd)}):\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["load"] = (load + os.getloadavg()[0]) / 2
    return result


def crop_sizes(out: Path) -> dict[str, list[int]]:
    """figure key -> [width, height] of every figure cropped from the PDF."""
    rows = pq.read_table(out / "figures.parquet").to_pylist()
    return {f"{r['article_key']}/{r['figure_id']}": [r["width"], r["height"]] for r in rows
            if r["image_status"] == "ok" and r["image_source"] == "pdf"}


def located_table(out: Path) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in pq.read_table(out / "figures.parquet").to_pylist():
        if r["image_source"] == "package" or (r["image_status"] == "ok" and r["image_source"] != "pdf"):
            continue  # the package had a readable file: nothing to locate
        c = counts[r["article_key"].split("_")[0]]
        c["need the PDF"] += 1
        error = r["image_error"] or ""
        if r["image_status"] == "ok":
            c["cropped"] += 1
        elif "not printed" in error:
            c["not printed"] += 1
        else:
            c["not located"] += 1
    return counts


def median_px(sizes: dict[str, list[int]]) -> str:
    if not sizes:
        return "-"
    return f"{statistics.median(w for w, _ in sizes.values()):.0f} x {statistics.median(h for _, h in sizes.values()):.0f}"


def main() -> None:
    if len(sys.argv) == 7 and sys.argv[1] == "--worker":
        staging, out, crop, max_crop, sub = sys.argv[2:]
        print(json.dumps(worker_build(Path(staging), Path(out), float(crop), float(max_crop), sub == "1")))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_argument(ap)
    ap.add_argument("--split", choices=("development", "heldout", "all"), default="development")
    ap.add_argument("--crop-dpi", type=float, default=150.0)
    ap.add_argument("--max-crop-dpi", type=float, default=600.0)
    ap.add_argument("--compare-dpi", type=float, default=150.0, help="the fixed resolution to compare with (0: skip)")
    ap.add_argument("--old-src", type=Path, help="the src folder of another medfig checkout, built in the same run")
    ap.add_argument("--rounds", type=int, default=1, help="build every setting this many times, in turn; best round kept")
    ap.add_argument("--no-subfigures", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.old_src is not None and not (a.old_src / "medfig" / "__init__.py").is_file():
        sys.exit(f"pdf_crops: {a.old_src}: not a src folder holding medfig/")
    folders = dev_folders(Path(a.data), a.split)
    settings = [("native (default)", f"{a.crop_dpi:g}-{a.max_crop_dpi:g}", a.crop_dpi, a.max_crop_dpi, None)]
    if a.compare_dpi:
        settings.append(("fixed (before)", f"{a.compare_dpi:g}", a.compare_dpi, a.compare_dpi, None))
    if a.old_src is not None:  # each setting's old-code build right after its own: the same machine load
        settings = [s for name, dpi, lo, hi, _ in settings
                    for s in ((name, dpi, lo, hi, None), (f"{name}, old code", dpi, lo, hi, a.old_src))]
    work = Path(tempfile.mkdtemp(prefix="medfig-pdf-crops-"))
    best: dict[str, dict] = {}
    sizes: dict[str, dict[str, list[int]]] = {}
    try:
        pages = stage_input(folders, work / "input")
        for round_ in range(a.rounds):
            for i, (name, _, lo, hi, src) in enumerate(settings):
                out = work / f"build-{i}-{round_}"
                result = run_build(work / "input", out, lo, hi, not a.no_subfigures, src)
                if name not in best or result["cpu_s"] < best[name]["cpu_s"]:
                    best[name] = result
                if round_ == 0:
                    sizes[name] = crop_sizes(out)
                    if i == 0:
                        counts = located_table(out)
                shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    rows, total = [], defaultdict(int)
    for publisher in sorted(counts):
        c = counts[publisher]
        printed = c["need the PDF"] - c["not printed"]
        rows.append([publisher, c["need the PDF"], c["cropped"], c["not printed"], c["not located"],
                     f"{c['cropped'] / printed:.1%}" if printed else "-"])
        for k, v in c.items():
            total[k] += v
    printed = total["need the PDF"] - total["not printed"]
    rows.append(["ALL", total["need the PDF"], total["cropped"], total["not printed"], total["not located"],
                 f"{total['cropped'] / printed:.1%}" if printed else "-"])
    print(f"pmc_dev_corpus, {a.split} publishers: {len(folders)} articles, {pages} PDF pages; "
          f"{os.cpu_count()} CPUs\n")
    print(format_table(["publisher", "figures needing the PDF", "located+cropped", "not printed", "not located",
                        "located of printed"], rows, markdown=a.markdown))
    print()
    res_rows = []
    for name, dpi, *_ in settings:
        r = best[name]
        res_rows.append([name, dpi, len(sizes[name]), median_px(sizes[name]), f"{pages / r['cpu_s']:.2f}",
                         f"{r['cpu_s']:.1f}", f"{r['startup_cpu_s']:.1f}", f"{r['peak_rss_mb']:.0f}", f"{r['load']:.1f}"])
    print(format_table(["crops", "dpi", "figures", "median crop px (w x h)", "pages per CPU-second", "build CPU s",
                        "worker start-up CPU s", "peak RSS MB (worker)", "load average"], res_rows, markdown=a.markdown))
    for name, *_ in settings:
        print(f"{name}: medfig imported from {best[name]['medfig']}")
    native, fixed = sizes[settings[0][0]], sizes.get("fixed (before)", {})
    both = sorted(set(native) & set(fixed))
    gain = [native[k][0] * native[k][1] / max(1, fixed[k][0] * fixed[k][1]) for k in both]
    if gain:
        print(f"\nsame figures at native vs fixed resolution: median {statistics.median(gain):.1f}x the pixels "
              f"(max {max(gain):.1f}x) over {len(gain)} figures")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
