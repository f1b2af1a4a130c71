"""Query latency and index build time at >= 100,000 figures, on one core.

The shared corpus (Hindawi, eLife pairs, packages, jats_xml_only) is built once; its real
figure documents are replicated with new article ids until the index holds --n documents.
Replicas share caption text, so the sentence model encodes each distinct text once (the index
caches embeddings by text hash); the dense build time at 100k distinct captions is therefore
estimated from the measured encoding rate and printed as an estimate.
Queries: inline-reference sentences of the corpus (figure mention cut out) and short keyword
queries taken from captions. The process is pinned to one CPU and BLAS/torch to one thread.

Cold CLI latency (issue 17): ``medfig search DATASET "lung cyst CT"`` run as a new process each
time, as a user at a shell runs it (Python start, imports, opening the index, encoding the query,
ranking, printing), fused and BM25-only, median of --cold-runs runs. Wall-clock seconds depend on what
else the machine runs, so the CPU seconds the process used (user + system) are printed beside them.

    .venv/bin/python benchmarks/search_latency.py [--n 100000] [--queries 300] [--keep DIR]
    .venv/bin/python benchmarks/search_latency.py --cold-only --dataset DIR   # cold CLI table only
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_retrieval import dataset_or_shared, queries_from  # noqa: E402


def replicate(docs, n: int):
    """``n`` documents: the real ones, then copies under new article ids (``<key>~r<i>``)."""
    out = list(docs)
    i = 0
    while len(out) < n:
        i += 1
        for doc in docs:
            if len(out) >= n:
                break
            key = f"{doc.article_key}~r{i}"
            out.append(dataclasses.replace(doc, article_key=key, doc_key=doc.doc_key.replace(doc.article_key, key, 1)))
    return out


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]  # noqa: E731
    return p(0.5), p(0.95), statistics.fmean(ordered)


def cold_cli(dataset: Path, runs: int, query: str = "lung cyst CT") -> list[tuple[str, float, float, float]]:
    """(mode, median wall s, median CPU s, max wall s) of `medfig search` in a fresh process per run."""
    import resource
    import subprocess

    medfig = Path(sys.executable).with_name("medfig")
    command = [str(medfig)] if medfig.is_file() else [sys.executable, "-m", "medfig.cli"]
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}  # as a user's shell has it
    rows = []
    for mode in ("fused", "bm25"):
        walls, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run([*command, "search", str(dataset), query, "--mode", mode], env=env,
                                  capture_output=True, text=True)
            walls.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                raise SystemExit(f"medfig search failed: {done.stderr.strip()}")
        rows.append((mode, statistics.median(walls), statistics.median(cpus), max(walls)))
    return rows


def print_cold(dataset: Path, runs: int) -> None:
    from medfig.search.encoder import onnx_export_present
    from medfig.search.store import index_dir_for

    rows = cold_cli(dataset, runs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    encoder = "ONNX (onnxruntime)" if onnx_export_present(index_dir_for(dataset)) else "torch (no ONNX export)"
    print(f"\nCold CLI search, `medfig search {dataset.name} \"lung cyst CT\"`, a new process per run, median of "
          f"{runs} (query encoder: {encoder}; machine load average {load:.1f} on {os.cpu_count()} cores)")
    print("| mode | median wall s | median CPU s (user+sys) | slowest wall s |")
    print("|---|---|---|---|")
    for mode, wall, cpu, worst in rows:
        print(f"| {mode} | {wall:.2f} | {cpu:.2f} | {worst:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="documents in the index (default 100000)")
    parser.add_argument("--queries", type=int, default=300, help="queries per kind (default 300)")
    parser.add_argument("--dataset", type=Path, help="a built dataset to replicate (default: build the shared corpus)")
    parser.add_argument("--keep", type=Path, help="keep the big index here (for benchmarks/search_pageload.py)")
    parser.add_argument("--cold-runs", type=int, default=7, help="fresh-process CLI searches per mode (default 7)")
    parser.add_argument("--cold-only", action="store_true",
                        help="only the cold CLI table, on --dataset (indexed with `medfig index`)")
    args = parser.parse_args()
    if args.cold_only:
        if not args.dataset or not (args.dataset / "search" / "index.sqlite").is_file():
            parser.error("--cold-only needs --dataset DIR with a search index (`medfig index DIR`)")
        print_cold(args.dataset, args.cold_runs)
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import torch

    torch.set_num_threads(1)
    from medfig.search import SearchIndex, build_index, documents_from_dataset
    from medfig.search.encoder import get_encoder
    from medfig.search.query import Filters

    work = Path(tempfile.mkdtemp(prefix="medfig-latency-"))
    try:
        dataset = dataset_or_shared(args.dataset, work)
        real = documents_from_dataset(dataset)
        docs = replicate(real, args.n)
        index_dir = args.keep or work / "index"
        if index_dir.exists():
            shutil.rmtree(index_dir)

        # encoding rate on the distinct real texts (what a 100k-distinct-caption build would pay per text)
        texts = sorted({d.dense_text(("caption", "subcaption", "concepts")) for d in real} - {""})
        encoder = get_encoder()
        t = time.perf_counter()
        encoder.encode(texts, batch_size=64)
        encode_rate = len(texts) / (time.perf_counter() - t)

        t = time.perf_counter()
        report = build_index(dataset, index_dir=index_dir, docs=docs, progress=False)
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        noop = build_index(dataset, index_dir=index_dir, docs=docs, progress=False)
        noop_s = time.perf_counter() - t
        assert noop.unchanged == len(docs)
        index_mb = sum(p.stat().st_size for p in index_dir.iterdir()) / 1e6

        t = time.perf_counter()
        index = SearchIndex.open(dataset, index_dir=index_dir)
        open_s = time.perf_counter() - t
        rng = random.Random(0)
        sentences = [q["text"] for q in queries_from(dataset)]
        sentences = rng.sample(sentences, min(args.queries, len(sentences)))
        words = [w for d in real for w in (d.caption or "").split() if w.isalpha() and len(w) > 3]
        keywords = [" ".join(rng.sample(words, 3)) for _ in range(args.queries)]
        index.search("warm up the caches", k=10)

        rows = []
        for kind, queries in (("sentence", sentences), ("keywords", keywords)):
            for label, fn in (
                ("BM25 (FTS5)", lambda q: index.bm25(q, 100)),
                ("dense (encode + matmul)", lambda q: index.dense(q, 100)),
                ("fused search, k=10", lambda q: index.search(q, k=10)),
                ("fused + modality=CT, licence=commercial",
                 lambda q: index.search(q, k=10, filters=Filters(modality="CT", licence="commercial"))),
            ):
                samples, cpu = [], []
                for q in queries:
                    t, c = time.perf_counter(), time.process_time()
                    fn(q)
                    samples.append((time.perf_counter() - t) * 1000)
                    cpu.append((time.process_time() - c) * 1000)
                rows.append((kind, label, *percentiles(samples), *percentiles(cpu)[:2]))

        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"\nSearch latency, one core (machine load average {load:.1f} on {os.cpu_count()} cores): {report.documents:,} documents "
              f"({len(real)} real figures of the shared corpus, replicated with new ids); "
              f"index {index_mb:.0f} MB; {len(sentences)} sentence + {len(keywords)} keyword queries")
        print("| queries | path | p50 ms | p95 ms | mean ms | CPU p50 ms | CPU p95 ms |")
        print("|---|---|---|---|---|---|---|")
        for kind, label, p50, p95, mean, cpu50, cpu95 in rows:
            print(f"| {kind} | {label} | {p50:.1f} | {p95:.1f} | {mean:.1f} | {cpu50:.1f} | {cpu95:.1f} |")
        print("(wall-clock ms include waiting for the CPU when other processes share it; CPU ms are this "
              "process's own time on its one core)")
        est_dense = args.n / encode_rate
        print("\nIndex build")
        print("| step | time |")
        print("|---|---|")
        print(f"| full build, {report.documents:,} docs (BM25 + tags + vectors; {report.texts_encoded} distinct texts "
              f"encoded) | {build_s:.1f} s |")
        print(f"| no-op re-index (nothing changed) | {noop_s:.1f} s |")
        print(f"| open index (load {report.documents:,} x 384 vectors) | {open_s:.2f} s |")
        print(f"| sentence-model encoding rate, 1 thread | {encode_rate:.1f} captions/s |")
        print(f"| estimate: encoding {args.n:,} distinct captions at that rate | {est_dense / 60:.0f} min |")
        build_index(dataset, progress=False)  # the dataset's own index, as `medfig index` writes it
        print_cold(dataset, args.cold_runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
