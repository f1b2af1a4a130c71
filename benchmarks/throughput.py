"""Throughput of the full default `medfig build` on the real shared corpus, replicated.

Usage:  python benchmarks/throughput.py [--n 300] [--executors local ray] [--workers 1 2]

The corpus is every article of ../shared/data that has a PDF or figure files
(Hindawi case reports, eLife, medRxiv MECA, the NIH package) plus the XML-only
articles, each copied under new folder names until there are at least --n
articles. Each configuration builds a fresh dataset and prints:

  articles/min, articles/min per core, speed-up over one worker of the same
  executor, peak RSS of any worker, and where the time goes by stage
  (open, xml, images, pdf ... summed over articles, as a share of worker time).

The Ray rows start a local Ray with exactly --workers CPUs before the clock
starts (cluster start-up is not article work). Machines here are shared:
compare rows of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from medfig.pipeline.build import build
from medfig.sources import iter_sources

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CORPORA = ("pmc_hindawi_xml_pdf", "elife_xml_pdf_pairs", "jats_pdf_figure_packages", "jats_xml_only")


def _copy(src: Path, dst: Path) -> None:
    if src.is_dir():
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.jinja", "SOURCES.md"))
    else:
        dst.mkdir(parents=True)
        shutil.copy2(src, dst / src.name)


def replicate(data: Path, target: Path, n: int) -> int:
    """Copy each real article into its own folder, round after round, until there are >= n."""
    originals = []
    for name in CORPORA:
        for source in iter_sources(data / name):
            if source.kind in ("folder", "file"):
                originals.append((source.key, Path(source.container)))
    count, round_ = 0, 0
    while count < n:
        for key, path in originals:
            _copy(path, target / f"{key}-r{round_:03d}")
            count += 1
        round_ += 1
    return count


def run(corpus: Path, executor: str, workers: int, work: Path, subfigures: bool = True) -> dict:
    if executor == "ray":
        import ray

        from medfig.pipeline.ray_executor import connect

        ray.shutdown()
        connect(None, num_cpus=workers)
    out = work / f"ds-{executor}-{workers}"
    started = time.perf_counter()
    report = build(corpus, out, workers=workers, progress=False, executor=executor, subfigures=subfigures)
    wall = time.perf_counter() - started
    if executor == "ray":
        import ray

        ray.shutdown()
    shutil.rmtree(out)
    return {"articles": report.articles_processed, "figures": report.figures_written, "wall": wall,
            "stages": dict(report.seconds_by_stage), "rss": report.peak_worker_rss_mb,
            "errors": sum(report.errors_by_stage.values())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--executors", nargs="+", default=["local", "ray"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--no-subfigures", action="store_true", help="build without compound-figure splitting")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("MEDFIG_BENCH_TMP")) as tmp:
        work = Path(tmp)
        n = replicate(args.data, work / "corpus", args.n)
        results = {}
        for executor in args.executors:
            for workers in args.workers:
                results[(executor, workers)] = run(work / "corpus", executor, workers, work,
                                                   subfigures=not args.no_subfigures)
        what = "without compound splitting" if args.no_subfigures else "default pipeline"
        print(f"medfig build ({what}) on {n} real articles (shared corpus replicated), {os.cpu_count()} cores\n")
        print("| executor | workers | articles | figures | wall s | articles/min | articles/min/core "
              "| speed-up vs 1 worker | peak RSS/worker MB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (executor, workers), r in results.items():
            rate = r["articles"] / r["wall"] * 60
            base = results.get((executor, 1))
            speedup = base["wall"] / r["wall"] if base else float("nan")
            print(f"| {executor} | {workers} | {r['articles']} | {r['figures']} | {r['wall']:.1f} | {rate:.0f} "
                  f"| {rate / workers:.0f} | {speedup:.2f}x | {r['rss']:.0f} |")
        stages = sorted({s for r in results.values() for s in r["stages"]})
        print("\nTime by stage (seconds summed over articles; share of worker time)\n")
        print("| executor | workers | " + " | ".join(stages) + " |")
        print("|---|---:|" + "---:|" * len(stages))
        for (executor, workers), r in results.items():
            total = sum(r["stages"].values()) or 1.0
            cells = [f"{r['stages'].get(s, 0):.1f} ({r['stages'].get(s, 0) / total:.0%})" for s in stages]
            print(f"| {executor} | {workers} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
