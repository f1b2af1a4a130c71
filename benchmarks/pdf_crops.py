"""Figures located and cropped by `medfig build` on articles without figure files, per publisher,
with the crops' resolution and the build's CPU cost (issue 15: full-resolution images).

Usage:  python benchmarks/pdf_crops.py [--split development|heldout|all] [--max-crop-dpi 600]
                                       [--compare-dpi 150] [--no-subfigures]

Corpus: ``pmc_dev_corpus`` (14 publishers), the publishers of ``--split`` as set aside in
``benchmarks/heldout_publishers.json``. Every article is built in this process (``workers=0``,
so CPU time is this process's) into a fresh dataset, once per crop setting:

- ``native``: the default, each crop at its embedded rasters' resolution (``--crop-dpi`` 150 as
  the floor for vector art, ``--max-crop-dpi`` as the cap);
- ``fixed``: ``--compare-dpi`` for every crop (the resolution medfig used before).

Per publisher it prints the XML figures whose file is not in the package (the ones the PDF must
give), how many were located and cropped, how many are not printed in the PDF (their caption
text is on no page), how many are printed but not located (error rows), and the share located
of those printed; then the median crop size in pixels for both settings, pages per CPU-second
and the peak memory of the build (VmHWM of this process, which ran everything).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
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


def build_once(folders: list[Path], out: Path, crop_dpi: float, max_crop_dpi: float, subfigures: bool) -> tuple[float, int]:
    """Build ``folders`` into ``out`` in this process; (CPU seconds, pages)."""
    import pypdfium2 as pdfium

    from medfig.pipeline.build import build
    from medfig.pipeline.config import BuildConfig

    staging = out.parent / f"{out.name}-input"
    staging.mkdir(parents=True)
    pages = 0
    for folder in folders:  # a folder of article folders is what `medfig build` takes
        shutil.copytree(folder, staging / folder.name)  # copies: the article scan does not follow links
        for pdf in folder.glob("*.pdf"):
            pages += len(pdfium.PdfDocument(pdf))
    config = BuildConfig(crop_dpi=crop_dpi, max_crop_dpi=max_crop_dpi, subfigures=subfigures)
    started = time.process_time()
    build(staging, out, workers=0, progress=False, config=config)
    return time.process_time() - started, pages


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_argument(ap)
    ap.add_argument("--split", choices=("development", "heldout", "all"), default="development")
    ap.add_argument("--crop-dpi", type=float, default=150.0)
    ap.add_argument("--max-crop-dpi", type=float, default=600.0)
    ap.add_argument("--compare-dpi", type=float, default=150.0, help="the fixed resolution to compare with (0: skip)")
    ap.add_argument("--no-subfigures", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    wanted = publishers_of(a.split)
    corpus = Path(a.data) / "pmc_dev_corpus"
    folders = sorted(d for d in corpus.iterdir() if d.is_dir() and d.name.split("_")[0] in wanted)
    work = Path(tempfile.mkdtemp(prefix="medfig-pdf-crops-"))
    try:
        cpu, pages = build_once(folders, work / "native", a.crop_dpi, a.max_crop_dpi, not a.no_subfigures)
        rss = peak_rss_mb()
        native = crop_sizes(work / "native")
        fixed = {}
        if a.compare_dpi:
            cpu_fixed, _ = build_once(folders, work / "fixed", a.compare_dpi, a.compare_dpi, not a.no_subfigures)
            fixed = crop_sizes(work / "fixed")
        counts = located_table(work / "native")
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
    print(f"pmc_dev_corpus, {a.split} publishers: {len(folders)} articles, {pages} PDF pages\n")
    print(format_table(["publisher", "figures needing the PDF", "located+cropped", "not printed", "not located",
                        "located of printed"], rows, markdown=a.markdown))

    def median_px(sizes: dict[str, list[int]]) -> str:
        if not sizes:
            return "-"
        return f"{statistics.median(w for w, _ in sizes.values()):.0f} x {statistics.median(h for _, h in sizes.values()):.0f}"

    both = sorted(set(native) & set(fixed))
    gain = [native[k][0] * native[k][1] / max(1, fixed[k][0] * fixed[k][1]) for k in both]
    print()
    res_rows = [["native (default)", f"{a.crop_dpi:g}-{a.max_crop_dpi:g}", len(native), median_px(native),
                 f"{pages / cpu:.2f}", f"{rss:.0f}"]]
    if fixed:
        res_rows.append(["fixed (before)", f"{a.compare_dpi:g}", len(fixed), median_px(fixed), f"{pages / cpu_fixed:.2f}", "-"])
    print(format_table(["crops", "dpi", "figures", "median crop px (w x h)", "pages per CPU-second", "peak RSS MB"],
                       res_rows, markdown=a.markdown))
    if gain:
        print(f"\nsame figures at native vs fixed resolution: median {statistics.median(gain):.1f}x the pixels "
              f"(max {max(gain):.1f}x) over {len(gain)} figures")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
