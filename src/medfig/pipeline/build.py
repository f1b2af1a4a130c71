"""``medfig build``: articles in, a resumable figure dataset out.

The output folder's layout (single-file or sharded tables, images, manifest,
ledger) is described and owned by :mod:`medfig.dataset`; with ``shards > 1`` only
the shards whose articles changed are rewritten.

A re-run skips articles whose fingerprint is unchanged and that succeeded,
retries failed ones, and rewrites a file only when its bytes change. Several
inputs build into one dataset, and articles already in the dataset that this
run's inputs do not hold stay, unless ``sync=True`` (then the dataset mirrors its
inputs and the report names the articles that left); articles the sources or the
``removed`` list mark as retracted or withdrawn leave in every mode. See
:mod:`medfig.pipeline.inputs`.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from medfig.dataset import DatasetFolder
from medfig.io import remove_stale_temps
from medfig.pipeline.article import ArticleResult, process_article
from medfig.pipeline.config import BuildConfig
from medfig.pipeline.consolidate import TABLES, consolidate, shards_to_write
from medfig.pipeline.inputs import GONE, collect_sources, leaving as leaving_articles, name_some, not_in_input
from medfig.pipeline.manifest import Manifest
from medfig.records import MedfigError

EXECUTORS = ("local", "ray")
DEFAULT_TIMEOUT_S = 600.0


@dataclass
class BuildReport:
    out_dir: Path
    executor: str = "local"
    articles_seen: int = 0
    articles_processed: int = 0
    articles_skipped: int = 0
    articles_failed: int = 0
    articles_removed: int = 0  # left the dataset this run: gone from the input (sync), retracted, withdrawn
    removed_by_reason: Counter = field(default_factory=Counter)
    removed_keys: list[str] = field(default_factory=list)  # the articles that left, by key
    articles_not_in_input: list[str] = field(default_factory=list)  # in the dataset, not in this input: kept
    figures_written: int = 0
    errors_by_stage: Counter = field(default_factory=Counter)
    stats: dict = field(default_factory=dict)
    files_written: list[str] = field(default_factory=list)
    seconds: float = 0.0
    seconds_by_stage: Counter = field(default_factory=Counter)  # summed over articles processed this run
    peak_worker_rss_mb: float = 0.0
    stopped_by: str | None = None  # SIGTERM / SIGINT when a signal stopped the run

    def summary(self) -> str:
        s = self.stats
        removed = ", ".join(f"{v} {k}" for k, v in sorted(self.removed_by_reason.items()))
        lines = [
            f"medfig build -> {self.out_dir}",
            f"  articles this run : {self.articles_processed} processed, {self.articles_skipped} skipped (done), "
            f"{self.articles_failed} failed" + (f", {self.articles_removed} removed ({removed})" if removed else ""),
            f"  dataset           : {s.get('articles', 0)} articles, {s.get('figures', 0)} figures "
            f"({s.get('figures_with_image', 0)} with image), {s.get('inline_refs', 0)} inline refs, "
            f"{s.get('tables', 0)} tables",
        ]
        if s.get("compound_figures"):
            lines.append(f"  compound figures  : {s['compound_figures']} split into {s.get('subfigures', 0)} panels "
                         f"(letters read: {s.get('subfigures_by_label_source', {}).get('ocr', 0)})")
        statuses = s.get("figures_by_image_status", {})
        if statuses:
            lines.append("  figure images     : " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
                         + (" (not_in_pdf: figure supplements the PDF does not print, not errors)"
                            if statuses.get("not_in_pdf") else ""))
        flags = s.get("figures_by_flag", {})
        if flags:
            lines.append("  figure flags      : " + ", ".join(f"{k} {v}" for k, v in sorted(flags.items())))
        if self.removed_keys:
            lines.append(f"  removed articles  : {name_some(self.removed_keys)}")
        if self.articles_not_in_input:
            lines.append(f"  kept, not in input: {len(self.articles_not_in_input)} articles of earlier runs "
                         f"({name_some(self.articles_not_in_input, 5)}); --sync removes them")
        errors = s.get("errors_by_stage", {})
        lines.append(
            "  errors by stage   : " + (", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "none")
        )
        lines.append(f"  files rewritten   : {', '.join(self.files_written) or 'none (dataset unchanged)'}")
        rate = self.articles_processed / self.seconds if self.seconds > 0 else 0.0
        lines.append(f"  time              : {self.seconds:.1f} s ({rate:.1f} articles/s, {self.executor} executor)")
        return "\n".join(lines)


class BuildInterrupted(MedfigError):
    """``build()`` was stopped by SIGTERM or SIGINT. Every article finished before the signal is
    committed to the manifest; the rest (those in flight were abandoned) are done by the next run.
    ``exit_code``: 128 + the signal number (143, 130), what a shell reports for it."""

    def __init__(self, signum: int, kept: int, left: int | None):
        self.signum, self.kept, self.left = signum, kept, left
        self.exit_code = 128 + signum
        name = signal.Signals(signum).name
        what = (f"{kept} articles kept, {left} left for the next run" if left is not None
                else "while listing the input; nothing processed")
        super().__init__(f"stopped by {name}: {what}")


class _Stop(BaseException):
    """Raised by the build's signal handler at a point where stopping is safe."""


class _Signals:
    """SIGTERM and SIGINT for the length of one build (main thread only; elsewhere signals are
    left alone). The first signal stops the build: at once where that is safe (listing the input,
    waiting for results, consolidating), else at the next such point, so a manifest commit is never
    cut in half. Later signals are ignored while the build winds down (workers stopped, manifest
    closed), which takes seconds."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._safe = False
        self._previous: dict = {}

    def __enter__(self) -> "_Signals":
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum, _frame) -> None:
        if self.signum is None:
            self.signum = signum
            if self._safe:
                raise _Stop

    @contextmanager
    def stoppable(self):
        """A block that a signal may interrupt (and one that does not start after a signal)."""
        if self.signum is not None:
            raise _Stop
        self._safe = True
        try:
            yield
        except Exception:
            # A C extension the handler interrupted (Ray's CoreWorker.wait) reports our _Stop as a
            # SystemError ("returned a result with an exception set"): it is still the signal.
            if self.signum is not None:
                raise _Stop from None
            raise
        finally:
            self._safe = False


def run_articles(sources: list, out_dir: Path, *, executor: str, workers: int, task: Callable,
                 timeout_s: float | None, ray_address: str | None) -> Iterator[ArticleResult]:
    """Run ``task(source, out_dir)`` per source on the chosen executor (:mod:`medfig.pipeline.executors`);
    results arrive in completion order. A failed task (it raised, timed out, its worker died) becomes
    the article's error row. Workers' output goes to ``out_dir/logs/`` (not for ``workers=0``)."""
    from medfig.pipeline.executors import WithOutDir, make_executor

    runner = make_executor(executor, workers=workers, timeout_s=timeout_s, ray_address=ray_address,
                           log_dir=out_dir / "logs")  # raises here for an unknown executor

    def results() -> Iterator[ArticleResult]:
        with runner:
            yield from runner.map(WithOutDir(task, out_dir), sources)

    return results()


def _needs_work(source, states: dict[str, tuple[str, str]]) -> bool:
    state = states.get(source.key)
    return state is None or state[1] != "done" or state[0] != source.fingerprint


def build(
    input_path: str | Path | None,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    progress: bool = True,
    sources: Iterable | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    shards: int | None = None,
    sync: bool = False,
    incremental: bool = False,
    removed: dict[str, tuple[str, str]] | None = None,
    timeout_s: float | None = DEFAULT_TIMEOUT_S,
    pdf_figures: bool | None = None,
    subfigures: bool | None = None,
    config: BuildConfig | None = None,
    task: Callable | None = None,
) -> BuildReport:
    """Build (or resume, or update) a figure dataset from ``input_path`` into ``out_dir``.

    ``input_path``: one input or a list of them (merged: :mod:`medfig.pipeline.inputs`).
    ``sync``: articles of the dataset that the inputs no longer hold leave it (default: they stay).
    ``incremental``: the former name of the default (kept for callers; it may not be combined with sync).

    ``workers``: processes (local) or articles in flight (ray); 0 runs in this process.
    ``shards``: number of Parquet parts per table; default 1, or what the dataset already has.
    ``removed``: article key or PMCID -> (reason, detail), e.g. PMC's retraction list.
    ``timeout_s``: per-article limit; a worker past it is stopped and the article recorded as failed.
    ``pdf_figures``: crop figures that have no file from the article's PDF (slower; Hindawi-like corpora
    have no figure files at all). ``subfigures``: split compound figures into panels with their
    subcaptions (``subfigures.parquet`` and crops). Both default to on; both are shorthands for
    ``config`` (:class:`BuildConfig`: every output-affecting setting, read once from the environment
    here and handed to the workers). A run whose config fingerprint differs redoes every article.
    ``task``: what runs per article (default ``process_article``); must be importable by worker processes.

    Only one process writes a folder at a time: ``out_dir/.medfig.lock`` (:meth:`DatasetFolder.lock`)
    is held for the whole build, and a second build (or ``medfig curate``/``index`` on it) raises
    MedfigError at once, naming the holder's pid and command.
    """
    started = time.perf_counter()
    _check_arguments(workers=workers, shards=shards, timeout_s=timeout_s, executor=executor)
    if sync and incremental:
        raise MedfigError("sync (mirror the inputs) and incremental (the input is a delta) contradict each other")
    out_dir = Path(out_dir).resolve()
    folder = DatasetFolder(out_dir)
    with folder.lock("medfig build"):  # one writer per folder; a second build raises MedfigError here
        remove_stale_temps(out_dir)  # only under the lock: another build's temps are not stale
        return _build_locked(input_path, folder, started=started, workers=workers, progress=progress,
                             sources=sources, executor=executor, ray_address=ray_address, shards=shards,
                             sync=sync, removed=removed, timeout_s=timeout_s,
                             pdf_figures=pdf_figures, subfigures=subfigures, config=config, task=task)


def _check_arguments(*, workers: int | None, shards: int | None, timeout_s: float | None, executor: str) -> None:
    """The notebook API refuses what the CLI's argument types refuse (medfig.commands._args)."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 0):
        raise MedfigError(f"workers must be a whole number >= 0 (0: in this process), got {workers!r}")
    if shards is not None and (isinstance(shards, bool) or not isinstance(shards, int) or shards < 1):
        raise MedfigError(f"shards must be a whole number >= 1, got {shards!r}")
    if timeout_s is not None and not (isinstance(timeout_s, (int, float)) and 0 < timeout_s < float("inf")):
        raise MedfigError(f"timeout_s must be a positive number of seconds or None, got {timeout_s!r}")
    if executor not in EXECUTORS:
        raise MedfigError(f"unknown executor {executor!r}: use one of {', '.join(EXECUTORS)}")


def _build_locked(input_path, folder: DatasetFolder, **kwargs) -> BuildReport:
    """The build, with SIGTERM / SIGINT turned into :class:`BuildInterrupted` once it has stopped cleanly."""
    report = BuildReport(out_dir=folder.root, executor=kwargs["executor"])
    todo: list = []
    with _Signals() as signals:
        try:
            return _run(input_path, folder, report, todo, signals, **kwargs)
        except _Stop:
            report.stopped_by = signal.Signals(signals.signum).name
            report.seconds = time.perf_counter() - kwargs["started"]
            if report.articles_seen:
                _write_run_record(folder, report, "null")
            left = len(todo) - report.articles_processed if report.articles_seen else None
            raise BuildInterrupted(signals.signum, report.articles_processed, left) from None


def _run(input_path, folder: DatasetFolder, report: BuildReport, todo: list, signals: _Signals, *,
         started: float, workers, progress, sources, executor, ray_address, shards, sync, removed,
         timeout_s, pdf_figures, subfigures, config, task) -> BuildReport:
    out_dir = folder.root
    if workers is None:  # on Ray: as many in flight as the cluster has CPUs (make_executor's 0)
        workers = 0 if executor == "ray" else os.cpu_count() or 1
    if config is None:
        config = BuildConfig.from_environment(pdf_figures=pdf_figures, subfigures=subfigures)
    if task is None:
        task = functools.partial(process_article, config=config)
    fingerprint = json.dumps(config.fingerprint_fields(), sort_keys=True)

    with signals.stoppable():
        inputs = input_path if isinstance(input_path, (list, tuple)) else [input_path]
        all_sources = list(sources) if sources is not None else collect_sources(inputs)
    report.articles_seen = len(all_sources)
    with Manifest(folder.manifest_path) as manifest:
        old_shards = int(manifest.get_meta("shards") or 0)
        shards = max(1, shards or old_shards or 1)
        if old_shards and old_shards != shards:
            manifest.reshard(shards)  # marks every shard pending
        manifest.set_meta("shards", str(shards))
        folder.switch_layout(TABLES, shards)

        before = manifest.states()
        leaving = leaving_articles(all_sources, before, removed or {}, sync)
        report.articles_removed = manifest.remove(sorted(leaving))
        report.removed_by_reason = Counter(reason for reason, _ in leaving.values())
        report.removed_keys = sorted(k for k in leaving if k in before)
        report.articles_not_in_input = not_in_input(all_sources, before, leaving)
        manifest.mark_removed({k: v for k, v in leaving.items() if v[0] != GONE})
        for key in leaving:
            shutil.rmtree(folder.image_dir(key), ignore_errors=True)

        states = manifest.states()
        if manifest.get_meta("config") not in (None, fingerprint):
            states = {}  # other settings or versions than the rows were made with: redo every article
        manifest.set_meta("config", fingerprint)
        todo.extend(s for s in all_sources if s.key not in leaving and _needs_work(s, states))
        manifest.unmark_removed(s.key for s in todo)
        report.articles_skipped = sum(1 for s in all_sources if s.key not in leaving) - len(todo)
        results = run_articles(todo, out_dir, executor=executor, workers=workers, task=task,
                               timeout_s=timeout_s, ray_address=ray_address)
        _collect(results, manifest, report, shards, signals, total=len(todo), progress=progress)
        # shards whose articles changed, this run or in a run stopped before it consolidated
        dirty = {s for s in manifest.pending() if s < shards}
        to_write = shards_to_write(folder, shards, dirty)
        if to_write:
            with signals.stoppable():  # parts are written atomically; stopped here, the next run redoes them
                report.stats, report.files_written = consolidate(folder, manifest, shards, to_write)
            manifest.clear_pending()
        else:
            report.stats = folder.read_json("stats.json")
    report.seconds = time.perf_counter() - started
    _write_run_record(folder, report, fingerprint)
    return report


def _write_run_record(folder: DatasetFolder, report: BuildReport, config: str) -> None:
    """``runs/<UTC time>-<pid>.json``: what this run did and how long it took. Timings live here,
    not in stats.json, so a run that changes nothing leaves the dataset's own files untouched."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    record = {
        "finished_utc": stamp, "executor": report.executor, "config": json.loads(config),
        "articles_seen": report.articles_seen, "articles_processed": report.articles_processed,
        "articles_skipped": report.articles_skipped, "articles_failed": report.articles_failed,
        "articles_removed": report.articles_removed, "figures_written": report.figures_written,
        "errors_by_stage": dict(report.errors_by_stage), "files_written": report.files_written,
        "seconds": round(report.seconds, 3),
        "seconds_by_stage": {k: round(v, 3) for k, v in sorted(report.seconds_by_stage.items())},
        "peak_worker_rss_mb": round(report.peak_worker_rss_mb, 1),
    }
    if report.stopped_by:
        record["stopped_by"] = report.stopped_by
    folder.write_json(f"runs/{stamp}-{os.getpid()}.json", record)


def _collect(results: Iterator[ArticleResult], manifest: Manifest, report: BuildReport, shards: int,
             signals: _Signals, *, total: int, progress: bool) -> None:
    """Commit each result to the manifest as it arrives (a kill loses only the articles in flight).
    A signal stops the wait for the next result; closing ``results`` stops the workers."""
    bar = tqdm(total=total, unit="article", disable=not progress or not total, file=sys.stderr)
    try:
        while True:
            with signals.stoppable():
                result = next(results, None)
            if result is None:
                break
            manifest.record([result], shards)
            report.articles_processed += 1
            report.articles_failed += result.failed
            report.figures_written += len(result.figure_rows)
            report.seconds_by_stage.update(result.seconds_by_stage)
            report.peak_worker_rss_mb = max(report.peak_worker_rss_mb, result.peak_rss_mb)
            for error in result.errors:
                report.errors_by_stage[error["stage"]] += 1
            bar.update(1)
            bar.set_postfix(figures=report.figures_written, errors=sum(report.errors_by_stage.values()))
    finally:
        results.close()  # a no-op when the workers are already stopped
        bar.close()
