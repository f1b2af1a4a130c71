"""Throughput of the full default pipeline (`medfig build` + `medfig curate`) on the real
shared corpus, replicated.

Usage:  python benchmarks/throughput.py [--n 300] [--executors local ray] [--workers 1 2]
                                        [--no-subfigures] [--no-curate] [--cpu-stages]

The corpus is every article of ../shared/data that has a PDF or figure files
(Hindawi case reports, eLife, medRxiv MECA, the NIH package) plus the XML-only
articles, each copied under new folder names until there are at least --n
articles. Each configuration builds a fresh dataset and prints:

  articles/min, articles/min per core, speed-up over one worker of the same
  executor, peak RSS of any worker, and where the time goes by stage
  (open, xml, images, pdf ... summed over articles, as a share of worker time).

Curation is the default `medfig curate` (its Python API, medfig.curate.run.curate with
CurateOptions(): licence, caption, language, medical-keyword, image and near-duplicate
filters, concepts, splits; no trained image filter, which is not in the default). It is
one process over the whole dataset, so it runs once, on the dataset of the first
configuration, and its seconds (loading its models included) are charged to every row:
articles/min/core = articles / (build wall x workers + curate seconds) x 60, i.e. the
core-seconds of both stages. The build-only rate is printed next to it, and, for the
local executor, the same rate over CPU seconds (this process + its worker processes):
on a shared machine wall time also counts other people's jobs, CPU time much less.

--cpu-stages adds a finer table: one more build, in this process (ONNX single-threaded as
in a worker), with the CPU seconds of the expensive calls inside the per-article task
(page reading, detector render and inference, crop render + PNG, compound splitting).

The Ray rows start a local Ray with exactly --workers CPUs before the clock
starts (cluster start-up is not article work). Machines here are shared:
compare rows of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from medfig.pipeline.build import build
from medfig.sources import iter_sources

from harness import SHARED_CORPUS, add_data_argument


def _copy(src: Path, dst: Path) -> None:
    if src.is_dir():
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.jinja", "SOURCES.md"))
    else:
        dst.mkdir(parents=True)
        shutil.copy2(src, dst / src.name)


def replicate(data: Path, target: Path, n: int) -> int:
    """Copy each real article into its own folder, round after round, until there are >= n."""
    originals = []
    for name in SHARED_CORPUS:
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


def run_curate(dataset: Path, release: Path) -> dict:
    """The default `medfig curate` over a built dataset; seconds per step (setup = loading the steps' models)."""
    from medfig.curate.run import CurateOptions, curate, default_steps
    from medfig.pipeline.steps import Enricher, Filter, GroupStep

    seconds: dict[str, float] = {}

    def timed(name: str, fn):
        def call(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - t
        return call

    started, cpu_before = time.perf_counter(), _cpu_seconds()
    opts = CurateOptions()
    steps = default_steps(dataset, opts)
    seconds["setup"] = time.perf_counter() - started
    for step in steps:  # instance attributes shadow the methods run_steps calls
        if isinstance(step, GroupStep):
            step.run_group = timed(step.name, step.run_group)
        elif isinstance(step, Filter):
            step.filter = timed(step.name, step.filter)
        elif isinstance(step, Enricher):
            step.enrich = timed(step.name, step.enrich)
    report = curate(dataset, release, opts, steps=steps)
    total = time.perf_counter() - started
    seconds["write"] = max(0.0, total - sum(seconds.values()))  # loading rows, writing the release
    shutil.rmtree(release)
    return {"seconds": total, "cpu": _cpu_seconds() - cpu_before, "steps": seconds, "figures_in": report.n_in,
            "figures_kept": report.n_kept}


def run(corpus: Path, executor: str, workers: int, work: Path, subfigures: bool = True,
        curate_into: Path | None = None) -> dict:
    if executor == "ray":
        import ray

        from medfig.pipeline.ray_executor import connect

        ray.shutdown()
        connect(None, num_cpus=workers)
    out = work / f"ds-{executor}-{workers}"
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    report = build(corpus, out, workers=workers, progress=False, executor=executor, subfigures=subfigures)
    wall = time.perf_counter() - started
    # CPU seconds of this process and of the local pool's worker processes (its children, reaped at
    # the end of the build): less sensitive than wall time to other jobs on a shared machine. Ray's
    # workers are not our children, so the Ray rows leave it out.
    cpu = _cpu_seconds() - cpu_before if executor == "local" else None
    if executor == "ray":
        import ray

        ray.shutdown()
    curated = run_curate(out, curate_into) if curate_into is not None else None
    shutil.rmtree(out)
    return {"articles": report.articles_processed, "figures": report.figures_written, "wall": wall,
            "stages": dict(report.seconds_by_stage), "rss": report.peak_worker_rss_mb,
            "errors": sum(report.errors_by_stage.values()), "curate": curated, "cpu": cpu}


# (module, function, label): the calls --cpu-stages times, where the article task spends its CPU
_CPU_STAGES = (
    ("medfig.pdf.extract", "read_page", "pdf: read page (text, objects)"),
    ("medfig.pdf.extract", "render_page", "pdf: render page for the detector"),
    ("medfig.pdf.extract", "detect", "pdf: layout detector"),
    ("medfig.pdf.extract", "propose_regions", "pdf: regions"),
    ("medfig.pdf.locate", "locate", "pdf: extraction, total"),
    ("medfig.pdf.output", "render_box_png", "crop: render + PNG"),
    ("medfig.pipeline.article", "CropFromPdf.run", "crop: total"),
    ("medfig.compound", "split_compound", "subfigures: split"),
    ("medfig.compound", "write_crops", "subfigures: write panel crops"),
    ("medfig.pipeline.article", "SplitCompoundFigures.run", "subfigures: total"),
)


def cpu_stage_table(corpus: Path, work: Path, subfigures: bool) -> None:
    """One in-process build with the CPU time of the expensive calls (process_time: other jobs on the
    machine do not count). Wrappers are installed on module attributes the task looks up at call time."""
    import functools
    import importlib

    os.environ["MEDFIG_ONNX_THREADS"] = "1"  # as in a build worker
    spent: dict[str, float] = {}
    calls: dict[str, int] = {}

    def wrap(fn, label):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - t
                calls[label] = calls.get(label, 0) + 1
        return timed

    originals = []
    for module_name, path, label in _CPU_STAGES:
        owner = importlib.import_module(module_name)  # "Class.method" wraps a step's method on its class
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        originals.append((owner, name, getattr(owner, name)))
        setattr(owner, name, wrap(getattr(owner, name), label))
    try:
        out = work / "ds-cpu-stages"
        started = time.process_time()
        report = build(corpus, out, workers=0, progress=False, subfigures=subfigures)
        total = time.process_time() - started
        shutil.rmtree(out)
    finally:
        for owner, name, fn in originals:
            setattr(owner, name, fn)
    n = report.articles_processed
    print(f"\nCPU seconds by call, one in-process build of {n} articles ({total:.1f} CPU s, "
          f"{n / total * 60:.0f} articles per CPU-minute, build only)\n")
    print("| call | CPU s | share | calls | ms per call |")
    print("|---|---:|---:|---:|---:|")
    for _, _, label in _CPU_STAGES:
        if label in spent:
            print(f"| {label} | {spent[label]:.1f} | {spent[label] / total:.0%} | {calls[label]} "
                  f"| {spent[label] / calls[label] * 1000:.0f} |")


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300)
    add_data_argument(parser)
    parser.add_argument("--executors", nargs="+", default=["local", "ray"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--no-subfigures", action="store_true", help="build without compound-figure splitting")
    parser.add_argument("--no-curate", action="store_true", help="build only (no `medfig curate`)")
    parser.add_argument("--cpu-stages", action="store_true", help="also print CPU seconds by call (one more build)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("MEDFIG_BENCH_TMP")) as tmp:
        work = Path(tmp)
        n = replicate(args.data, work / "corpus", args.n)
        results = {}
        curated = None
        for executor in args.executors:
            for workers in args.workers:
                into = work / "release" if curated is None and not args.no_curate else None
                results[(executor, workers)] = r = run(work / "corpus", executor, workers, work,
                                                       subfigures=not args.no_subfigures, curate_into=into)
                curated = curated or r["curate"]
        curate_s = curated["seconds"] if curated else 0.0
        what = "without compound splitting" if args.no_subfigures else "default pipeline"
        what += "" if curated else ", build only"
        print(f"medfig build + curate ({what}) on {n} real articles (shared corpus replicated), "
              f"{os.cpu_count()} cores\n")
        curate_cpu = curated["cpu"] if curated else 0.0
        print("| executor | workers | articles | figures | build wall s | build articles/min/core | curate s "
              "| **articles/min/core (build + curate)** | articles per CPU-minute (build + curate) "
              "| build speed-up vs 1 worker | peak RSS/worker MB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (executor, workers), r in results.items():
            build_rate = r["articles"] / (r["wall"] * workers) * 60
            rate = r["articles"] / (r["wall"] * workers + curate_s) * 60
            cpu_rate = f"{r['articles'] / (r['cpu'] + curate_cpu) * 60:.0f}" if r["cpu"] else "n/a"
            base = results.get((executor, 1))
            speedup = base["wall"] / r["wall"] if base else float("nan")
            print(f"| {executor} | {workers} | {r['articles']} | {r['figures']} | {r['wall']:.1f} | {build_rate:.0f} "
                  f"| {curate_s:.1f} | **{rate:.0f}** | {cpu_rate} | {speedup:.2f}x | {r['rss']:.0f} |")
        stages = sorted({s for r in results.values() for s in r["stages"]})
        columns = stages + (["curate"] if curated else [])
        print("\nTime by stage (build: seconds summed over articles in the workers; curate: the one curation "
              "run; share of all core-seconds)\n")
        print("| executor | workers | " + " | ".join(columns) + " |")
        print("|---|---:|" + "---:|" * len(columns))
        for (executor, workers), r in results.items():
            values = dict(r["stages"], curate=curate_s) if curated else r["stages"]
            total = sum(values.values()) or 1.0
            cells = [f"{values.get(s, 0):.1f} ({values.get(s, 0) / total:.0%})" for s in columns]
            print(f"| {executor} | {workers} | " + " | ".join(cells) + " |")
        if curated:
            print(f"\nCuration steps ({curated['figures_in']} figures in, {curated['figures_kept']} kept; "
                  f"seconds; setup = loading the steps' models, write = reading rows and writing the release)\n")
            print("| " + " | ".join(curated["steps"]) + " | total |")
            print("|" + "---:|" * (len(curated["steps"]) + 1))
            print("| " + " | ".join(f"{v:.1f}" for v in curated["steps"].values()) + f" | {curate_s:.1f} |")
        if args.cpu_stages:
            cpu_stage_table(work / "corpus", work, subfigures=not args.no_subfigures)


if __name__ == "__main__":
    main()
