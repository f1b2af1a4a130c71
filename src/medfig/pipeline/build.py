"""``medfig build``: articles in, a resumable figure dataset out.

Layout of the output folder::

    figures.parquet   one row per <fig>            (schema: medfig.pipeline.rows.FIGURES)
    articles.parquet  one row per parsed article   (ARTICLES)
    errors.parquet    one row per problem          (ERRORS)
    stats.json        counts describing the dataset (no timings: a no-op run changes nothing)
    manifest.sqlite   per-article status and rows; makes re-runs resumable
    images/<article>/<figure>.{jpg,png}

A re-run skips articles whose fingerprint is unchanged and that succeeded,
retries failed ones, drops articles that are no longer in the input (the
dataset mirrors its input), and rewrites a consolidated file only when its
bytes change.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from medfig.pipeline import rows as schemas
from medfig.pipeline.article import ArticleResult, image_dir, process_article
from medfig.pipeline.atomic import atomic_write_json, atomic_write_parquet, remove_stale_temps
from medfig.pipeline.manifest import Manifest

COMMIT_EVERY = 64  # articles per manifest transaction: bounds redo work after a kill


@dataclass
class BuildReport:
    out_dir: Path
    articles_seen: int = 0
    articles_processed: int = 0
    articles_skipped: int = 0
    articles_failed: int = 0
    articles_removed: int = 0  # in the dataset before, no longer in the input
    figures_written: int = 0
    errors_by_stage: Counter = field(default_factory=Counter)
    stats: dict = field(default_factory=dict)
    files_written: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        s = self.stats
        lines = [
            f"medfig build -> {self.out_dir}",
            f"  articles this run : {self.articles_processed} processed, {self.articles_skipped} skipped (done), "
            f"{self.articles_failed} failed",
            f"  dataset           : {s.get('articles', 0)} articles, {s.get('figures', 0)} figures "
            f"({s.get('figures_with_image', 0)} with image), {s.get('inline_refs', 0)} inline refs, "
            f"{s.get('tables', 0)} tables",
        ]
        statuses = s.get("figures_by_image_status", {})
        if statuses:
            lines.append("  figure images     : " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
        flags = s.get("figures_by_flag", {})
        if flags:
            lines.append("  figure flags      : " + ", ".join(f"{k} {v}" for k, v in sorted(flags.items())))
        errors = s.get("errors_by_stage", {})
        lines.append(
            "  errors by stage   : " + (", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "none")
        )
        lines.append(f"  files rewritten   : {', '.join(self.files_written) or 'none (dataset unchanged)'}")
        rate = self.articles_processed / self.seconds if self.seconds > 0 else 0.0
        lines.append(f"  time              : {self.seconds:.1f} s ({rate:.1f} articles/s)")
        return "\n".join(lines)


def _run_serial(sources: list, out_dir: Path) -> Iterator[ArticleResult]:
    for source in sources:
        yield process_article(source, out_dir)


def _run_pool(sources: list, out_dir: Path, workers: int) -> Iterator[ArticleResult]:
    """Bounded in-flight submission so millions of articles never sit in the queue at once."""
    pending = iter(sources)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        in_flight = set()
        for source in pending:
            in_flight.add(pool.submit(process_article, source, out_dir))
            if len(in_flight) >= workers * 4:
                break
        while in_flight:
            done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                nxt = next(pending, None)
                if nxt is not None:
                    in_flight.add(pool.submit(process_article, nxt, out_dir))


def _needs_work(source, states: dict[str, tuple[str, str]]) -> bool:
    state = states.get(source.key)
    return state is None or state[1] != "done" or state[0] != source.fingerprint


def compute_stats(figures: list[dict], articles: list[dict], errors: list[dict], failed: int) -> dict:
    return {
        "articles": len(articles),
        "articles_failed": failed,
        "figures": len(figures),
        "figures_with_image": sum(1 for f in figures if f["image_status"] == "ok"),
        "figures_by_image_status": dict(sorted(Counter(f["image_status"] for f in figures).items())),
        "figures_by_licence": dict(sorted(Counter(str(f["licence_spdx"]) for f in figures).items())),
        "figures_by_flag": dict(sorted(Counter(flag for f in figures for flag in f["flags"]).items())),
        "inline_refs": sum(f["n_inline_refs"] for f in figures),
        "fig_xrefs": sum(a["n_fig_xrefs"] for a in articles),
        "tables": sum(a["n_tables"] for a in articles),
        "errors": len(errors),
        "errors_by_stage": dict(sorted(Counter(e["stage"] for e in errors).items())),
    }


def consolidate(out_dir: Path, manifest: Manifest) -> tuple[dict, list[str]]:
    """Write the dataset tables from the manifest; only files whose bytes change are rewritten."""
    figures, articles, errors = [], [], []
    failed = 0
    for _key, status, payload in manifest.results():
        failed += status == "failed"
        if payload["article"] is not None:
            articles.append(payload["article"])
        figures.extend(payload["figures"])
        errors.extend(payload["errors"])
    written = []
    for name, table_rows, schema in (
        ("figures.parquet", figures, schemas.FIGURES),
        ("articles.parquet", articles, schemas.ARTICLES),
        ("errors.parquet", errors, schemas.ERRORS),
    ):
        if atomic_write_parquet(out_dir / name, schemas.to_table(table_rows, schema), only_if_changed=True):
            written.append(name)
    stats = compute_stats(figures, articles, errors, failed)
    if atomic_write_json(out_dir / "stats.json", stats, only_if_changed=True):
        written.append("stats.json")
    return stats, written


def build(
    input_path: str | Path,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    progress: bool = True,
    sources: Iterable | None = None,
) -> BuildReport:
    """Build (or resume) a figure dataset from ``input_path`` into ``out_dir``."""
    from medfig.sources import iter_sources

    started = time.perf_counter()
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(out_dir)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    report = BuildReport(out_dir=out_dir)

    all_sources = list(sources if sources is not None else iter_sources(input_path))
    report.articles_seen = len(all_sources)
    with Manifest(out_dir / "manifest.sqlite") as manifest:
        states = manifest.states()
        current = {s.key for s in all_sources}
        gone = sorted(set(states) - current)
        report.articles_removed = manifest.remove(gone)
        for key in gone:
            shutil.rmtree(image_dir(out_dir, key), ignore_errors=True)
        todo = [s for s in all_sources if _needs_work(s, states)]
        report.articles_skipped = len(all_sources) - len(todo)
        runner = _run_serial(todo, out_dir) if workers == 1 or len(todo) <= 1 else _run_pool(todo, out_dir, workers)
        batch: list[ArticleResult] = []
        bar = tqdm(total=len(todo), unit="article", disable=not progress or not todo, file=sys.stderr)
        try:
            for result in runner:
                batch.append(result)
                report.articles_processed += 1
                report.articles_failed += result.failed
                report.figures_written += len(result.figure_rows)
                for error in result.errors:
                    report.errors_by_stage[error["stage"]] += 1
                bar.update(1)
                bar.set_postfix(figures=report.figures_written, errors=sum(report.errors_by_stage.values()))
                if len(batch) >= COMMIT_EVERY:
                    manifest.record(batch)
                    batch = []
        finally:
            manifest.record(batch)  # keep what finished, even on Ctrl-C
            bar.close()
        outputs_missing = any(
            not (out_dir / name).exists()
            for name in ("figures.parquet", "articles.parquet", "errors.parquet", "stats.json")
        )
        if todo or gone or outputs_missing:
            report.stats, report.files_written = consolidate(out_dir, manifest)
        else:
            import json

            report.stats = json.loads((out_dir / "stats.json").read_text())
    report.seconds = time.perf_counter() - started
    return report
