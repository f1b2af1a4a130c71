"""Time to write a ~1,000-figure release (bar: under a minute on one core, no image classifier).

Input: the 30 Hindawi articles built by medfig (figures cropped from the PDFs), replicated
9 times under new article keys (hard-linked images) -> 1,080 figure rows. Timed separately:
`curate` with every step (licence, captions, language, keywords, images, duplicates with
hashing of every image, manual concepts, concepts with the ROCOv2 vocabulary, splits) -
copies are exact duplicates, so the duplicate step drops them - and `curate` without the
duplicate step followed by each export of the resulting ~1,000-figure release.
Everything runs in one process (one core), except the row that hashes images in 2 processes.

Run: .venv/bin/python benchmarks/curate_release_speed.py [--work /tmp/medfig-bench-curate]
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from medfig.curate.run import CurateOptions, curate

from harness import DATA


def replicated_dataset(work: Path, copies: int = 9) -> Path:
    from medfig.pipeline.build import build

    base = work / "built"
    if not (base / "figures.parquet").is_file():
        build(DATA / "pmc_hindawi_xml_pdf", base, workers=1, progress=False)
    big = work / "big"
    if (big / "figures.parquet").is_file():
        return big
    figs = pq.read_table(base / "figures.parquet").to_pylist()
    arts = pq.read_table(base / "articles.parquet").to_pylist()
    out_f, out_a = [], []
    for c in range(copies):
        for a in arts:
            out_a.append({**a, "article_key": f"{a['article_key']}_c{c}"})
        for f in figs:
            row = {**f, "article_key": f"{f['article_key']}_c{c}"}
            if f.get("image_path"):
                dst = big / f"c{c}" / f["image_path"]
                dst.parent.mkdir(parents=True, exist_ok=True)
                if not dst.exists():
                    os.link(base / f["image_path"], dst)
                row["image_path"] = f"c{c}/{f['image_path']}"
            out_f.append(row)
    pq.write_table(pa.Table.from_pylist(out_f), big / "figures.parquet")
    pq.write_table(pa.Table.from_pylist(out_a), big / "articles.parquet")
    return big


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/medfig-bench-curate")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    big = replicated_dataset(work)
    n = pq.read_metadata(big / "figures.parquet").num_rows
    vocab = str(DATA / "rocov2_concepts" / "cui_mapping.csv")
    rows = []
    for name, opts in (("curate, all steps (duplicates hash every image)", CurateOptions(vocabulary=vocab)),
                       ("curate, no duplicate step", CurateOptions(vocabulary=vocab, duplicates=False)),
                       ("curate, all steps, hashing in 2 processes (--workers 2)",
                        CurateOptions(vocabulary=vocab, workers=2))):
        out = work / ("rel" if not opts.duplicates else f"rel_dup{opts.workers}")
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.perf_counter()
        rep = curate(big, out, opts)
        rows.append((name, n, rep.n_kept, time.perf_counter() - t0))
    from medfig.export.card import write_card
    from medfig.export.hf import export_hf
    from medfig.export.medicat import export_medicat
    from medfig.export.release import load_release
    from medfig.export.rocov2 import export_rocov2
    from medfig.export.webdataset import export_webdataset

    release = load_release(work / "rel")
    for name, fn in (("export rocov2 (JPEG re-encode)", export_rocov2), ("export medicat", export_medicat),
                     ("export hf parquet", export_hf), ("export webdataset", export_webdataset),
                     ("export card", write_card)):
        out = work / ("exp_" + name.split()[1])
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.perf_counter()
        fn(release, out)
        rows.append((name, len(release.figures), len(release.figures), time.perf_counter() - t0))
    print("| stage | figures in | figures out | seconds |")
    print("|---|---|---|---|")
    for name, a, b, s in rows:
        print(f"| {name} | {a} | {b} | {s:.1f} |")
    total = rows[1][3] + sum(r[3] for r in rows[3:])
    print(f"\ncurate (no duplicates) + every export of a {len(release.figures)}-figure release: {total:.1f} s")


if __name__ == "__main__":
    main()
