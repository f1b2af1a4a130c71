"""Articles per second for the XML stage on the real Hindawi set.

Usage:  python benchmarks/xml_stage.py [--repeat 5] [--data ../shared/data]

Prints a Markdown table. Stages:
  lxml parse only      -- the floor any JATS reader pays (etree.fromstring)
  parse_jats           -- metadata, licences, every <fig>/<table-wrap>, full captions,
                          graphic resolution and inline references (what `build` runs)
  medfig build (N w)   -- the whole build: discovery, parsing, manifest, Parquet writes
All timings are single-process CPU time unless the row says workers; one core per worker.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from lxml import etree

from medfig.jats.parse import parse_jats
from medfig.pipeline.build import build

from harness import add_data_argument


def _best_rate(fn, n_items: int, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return n_items / min(times), n_items / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    add_data_argument(parser)
    args = parser.parse_args()
    hindawi = args.data / "pmc_hindawi_xml_pdf"
    files = sorted(hindawi.glob("*/fulltext.xml"))
    blobs = [(f.parent.name, f.read_bytes()) for f in files]
    n = len(blobs)
    n_figs = sum(len(parse_jats(b, key=k).figures) for k, b in blobs)

    rows = []
    secure = etree.XMLParser(resolve_entities=False, no_network=True)
    best, median = _best_rate(lambda: [etree.fromstring(b, secure) for _, b in blobs], n, args.repeat)
    rows.append(("lxml parse only", 1, best, median))
    best, median = _best_rate(lambda: [parse_jats(b, key=k, xml_file="fulltext.xml") for k, b in blobs], n, args.repeat)
    rows.append(("parse_jats (full XML stage)", 1, best, median))
    for workers in (1, 2):
        def run_build(workers=workers):
            with tempfile.TemporaryDirectory() as tmp:
                build(hindawi, Path(tmp) / "ds", workers=workers, progress=False)
        best, median = _best_rate(run_build, n, max(1, args.repeat // 2))
        rows.append((f"medfig build, {workers} worker(s)", workers, best, median))

    print(f"XML stage on {n} Hindawi articles ({n_figs} figures), best / median of {args.repeat} runs, "
          f"{os.cpu_count()} cores\n")
    print("| stage | workers | articles/s (best) | articles/s (median) | articles/s per core |")
    print("|---|---:|---:|---:|---:|")
    for name, workers, best, median in rows:
        print(f"| {name} | {workers} | {best:.1f} | {median:.1f} | {median / workers:.1f} |")


if __name__ == "__main__":
    main()
