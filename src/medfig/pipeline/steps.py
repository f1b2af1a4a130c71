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


def run_steps(records: Iterable[Record], steps: list[Step], progress: bool = False):
    """Apply ``steps`` in order. Returns ``(kept, drops, stats)``.

    Steps run one after the other over the surviving list (not record by record)
    so a GroupStep sees exactly the records that passed every earlier step.
    """
    from tqdm import tqdm

    alive = list(records)
    drops: list[dict] = []
    stats: list[StepStats] = []
    for step in steps:
        st = StepStats(step.name)
        st.seen = len(alive)
        with st.timing():
            if isinstance(step, GroupStep):
                verdicts = step.run_group(alive)
            else:
                verdicts = []
                it = tqdm(alive, desc=step.name, unit="fig", disable=not progress, leave=False)
                for rec in it:
                    if isinstance(step, Filter):
                        verdicts.append(step.filter(rec))
                    else:
                        step.enrich(rec)
                        verdicts.append(KEEP)
        survivors = []
        for rec, verdict in zip(alive, verdicts):
            if verdict.keep:
                survivors.append(rec)
            else:
                st.dropped[verdict.reason] += 1
                drops.append(
                    {
                        "article_key": rec.get("article_key"),
                        "figure_id": rec.get("figure_id"),
                        "step": step.name,
                        "reason": verdict.reason,
                        "detail": verdict.detail,
                    }
                )
        for rec in survivors:
            for skip_step, reason in rec.get("_skips", ()):
                if skip_step == step.name:
                    st.skipped[reason] += 1
        alive = survivors
        stats.append(st)
    for rec in alive:
        rec.pop("_skips", None)
    return alive, drops, stats


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
