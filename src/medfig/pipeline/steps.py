"""The step framework shared by the build and curation, in the spirit of datatrove.

A step is a small object with one job and a ``name``; the framework (not the step)
runs it, times it and counts what it did (:class:`StepStats`).

The build runs article steps (:class:`ArticleStep`) over one article at a time in a worker
(:mod:`medfig.pipeline.article`): each reads and extends the article's work record,
or stops the article with an error row.

Curation runs figure steps. A figure travels as a plain ``dict`` (one row of
``figures.parquet`` joined with its article's metadata). Three kinds of figure step:

- :class:`Filter` - ``filter(record) -> Verdict``: keep it, or drop it with a reason.
- :class:`Enricher` - ``enrich(record)``: adds or rewrites fields, never drops.
- :class:`GroupStep` - sees all surviving records at once (duplicates, splits) and
  returns the verdict of each; used where one record's fate depends on others.

Every drop becomes one row of the exclusion ledger (:mod:`medfig.ledger`): ``article_key,
figure_id, step, reason, detail``. ``reason`` is a short fixed vocabulary per step (so summaries can
count it), ``detail`` is free text for a human ("licence CC-BY-NC-ND-4.0").
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple

Record = dict


class Verdict(NamedTuple):
    keep: bool
    reason: str = ""
    detail: str = ""


KEEP = Verdict(True)


def drop(reason: str, detail: str = "") -> Verdict:
    return Verdict(False, reason, detail)


class Step:
    """Base of every step. ``name`` is what the ledger, the summary and the timings call it."""

    name: str = "step"

    def describe(self) -> str:
        return self.name


class Filter(Step):
    def filter(self, record: Record) -> Verdict:  # pragma: no cover - abstract
        raise NotImplementedError


class Enricher(Step):
    def enrich(self, record: Record) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class GroupStep(Step):
    def run_group(self, records: list[Record]) -> list[Verdict]:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass
class StepStats:
    """Per-step counters, datatrove-style: what came in, what was dropped and why."""

    name: str
    seen: int = 0
    dropped: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)  # records a step could not judge (no image, ...)
    seconds: float = 0.0  # wall time in the step; not in as_dict (summaries stay deterministic)

    @contextmanager
    def timing(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - started

    def as_dict(self) -> dict:
        return {
            "seen": self.seen,
            "dropped": sum(self.dropped.values()),
            "dropped_by_reason": dict(self.dropped.most_common()),
            "skipped_by_reason": dict(self.skipped.most_common()),
        }


def note_skip(record: Record, step: str, reason: str) -> None:
    """Mark that ``step`` could not judge ``record`` (kept, but the summary counts it)."""
    record.setdefault("_skips", []).append((step, reason))


def _verdicts(step: Step, records: list[Record], progress: bool) -> list[Verdict]:
    from tqdm import tqdm

    if isinstance(step, GroupStep):
        return step.run_group(records)
    verdicts = []
    for rec in tqdm(records, desc=step.name, unit="fig", disable=not progress, leave=False):
        if isinstance(step, Filter):
            verdicts.append(step.filter(rec))
        else:
            step.enrich(rec)
            verdicts.append(KEEP)
    return verdicts


def _apply(step: Step, alive: list[Record], st: StepStats, drops: list[dict], progress: bool) -> list[Record]:
    """One step over the surviving records: counts, drops and skips go to ``st`` and ``drops``."""
    st.seen += len(alive)
    with st.timing():
        verdicts = _verdicts(step, alive, progress)
    survivors = []
    for rec, verdict in zip(alive, verdicts):
        if verdict.keep:
            survivors.append(rec)
        else:
            st.dropped[verdict.reason] += 1
            drops.append({"article_key": rec.get("article_key"), "figure_id": rec.get("figure_id"),
                          "step": step.name, "reason": verdict.reason, "detail": verdict.detail})
    for rec in survivors:
        for skip_step, reason in rec.get("_skips", ()):
            if skip_step == step.name:
                st.skipped[reason] += 1
    return survivors


@dataclass
class _Segment:
    """Consecutive record-by-record steps, run over one shard of records in a worker (the map side)."""

    steps: list[Step]

    def __call__(self, shard: tuple[int, list[Record]]) -> tuple[int, list[Record], list[list[dict]], list[StepStats]]:
        index, alive = shard
        drops: list[list[dict]] = []
        stats = []
        for step in self.steps:
            st, step_drops = StepStats(step.name), []
            alive = _apply(step, alive, st, step_drops, progress=False)
            drops.append(step_drops)
            stats.append(st)
        return index, alive, drops, stats


def _segments(steps: list[Step]) -> list[list[Step]]:
    """Steps grouped into runs of record-by-record steps; every GroupStep stands alone."""
    out: list[list[Step]] = []
    for step in steps:
        if isinstance(step, GroupStep) or not out or isinstance(out[-1][0], GroupStep):
            out.append([step])
        else:
            out[-1].append(step)
    return out


def _map_segment(segment: list[Step], alive: list[Record], executor, shards: int, stats: dict[str, StepStats],
                 drops: list[dict]) -> list[Record]:
    from medfig.records import MedfigError

    size = max(1, -(-len(alive) // shards))
    pieces = [(i, alive[start:start + size]) for i, start in enumerate(range(0, len(alive), size))]
    results = {}
    for outcome in executor.map(_Segment(segment), pieces):
        if not isinstance(outcome, tuple):  # a TaskFailure: curation is all or nothing
            raise MedfigError(f"curation steps {', '.join(s.name for s in segment)} failed on a shard: {outcome}")
        results[outcome[0]] = outcome
    survivors = []
    for position, step in enumerate(segment):  # drops in the order a one-process run makes them
        for index in sorted(results):
            drops.extend(results[index][2][position])
            merge_stats(stats[step.name], results[index][3][position])
    for index in sorted(results):
        survivors.extend(results[index][1])
    return survivors


def merge_stats(total: StepStats, part: StepStats) -> None:
    total.seen += part.seen
    total.dropped.update(part.dropped)
    total.skipped.update(part.skipped)
    total.seconds += part.seconds


def run_steps(records: Iterable[Record], steps: list[Step], progress: bool = False, *, executor=None,
              shards: int = 1):
    """Apply ``steps`` in order. Returns ``(kept, drops, stats)``.

    Steps run one after the other over the surviving list (not record by record)
    so a GroupStep sees exactly the records that passed every earlier step.

    With an ``executor`` (:func:`medfig.pipeline.executors.make_executor`), each run of
    record-by-record steps is mapped over ``shards`` slices of the records in its workers
    (local processes or Ray), and group steps (duplicates, concepts, splits) reduce on this
    process over all survivors; kept records, drops and counts equal a one-process run's.
    """
    alive = list(records)
    drops: list[dict] = []
    stats = {step.name: StepStats(step.name) for step in steps}
    for segment in _segments(steps):
        if executor is not None and shards > 1 and not isinstance(segment[0], GroupStep) and len(alive) > 1:
            alive = _map_segment(segment, alive, executor, shards, stats, drops)
            continue
        for step in segment:
            alive = _apply(step, alive, stats[step.name], drops, progress)
    for rec in alive:
        rec.pop("_skips", None)
    return alive, drops, [stats[step.name] for step in steps]


class ArticleStep(Step):
    """One job of the per-article build task. ``applies(work)`` says whether it runs for this
    article; ``run(work)`` reads and extends ``work`` (a :class:`medfig.pipeline.article.ArticleWork`)
    and calls ``work.stop()`` when the article cannot go on."""

    def applies(self, work: Any) -> bool:
        return True

    def run(self, work: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def run_article_steps(work: Any, steps: list[ArticleStep], stats: dict[str, StepStats]) -> None:
    """Run ``steps`` on one article until one stops it; each step's time and count go to ``stats``."""
    for step in steps:
        if work.stopped:
            return
        if not step.applies(work):
            continue
        st = stats.setdefault(step.name, StepStats(step.name))
        st.seen += 1
        with st.timing():
            step.run(work)
