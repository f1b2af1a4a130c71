"""SIGTERM, SIGINT and SIGKILL during `medfig build` (issue 19, items 4 and 5).

A 10-article build whose articles each take a second (MEDFIG_FAULT_SLEEP_S) runs as a subprocess in
its own process group; once some articles are in the manifest it gets a signal. TERM and INT: one line,
exit 143 / 130, no traceback anywhere, no worker left. KILL: no worker outlives the driver. Every time,
the next run skips at least the articles finished before the signal, and the dataset it ends with
equals an undisturbed build's, row by row and image by image.
"""

from __future__ import annotations

import os
import re
import shutil
import signal

import pyarrow.parquet as pq
import pytest

import medfig.pipeline.build as build_module
from medfig.pipeline.build import build

STOPPED = re.compile(r"medfig build: stopped by (SIGTERM|SIGINT): (\d+) articles kept, (\d+) left for the next run")
SKIPPED = re.compile(r"(\d+) processed, (\d+) skipped \(done\)")


def _signal_after_some_articles(ten_articles, out, faults, signum, *, to_group: bool, sleep_s: float = 1.0,
                                min_done: int = 3, grace_s: float = 10.0, options: tuple = ()):
    process = faults.start_build(ten_articles, out, sleep_s=sleep_s, options=options)

    def some_done() -> bool:
        if process.poll() is not None:
            pytest.fail(f"the build ended (exit {process.returncode}) before {min_done} articles were in its "
                        f"manifest:\n{process.stderr.read()[-3000:]}")
        return faults.manifest_count(out) >= min_done

    faults.wait_for(some_done, what=f"{min_done} articles in the manifest")
    done_before = faults.manifest_count(out)
    (os.killpg if to_group else os.kill)(process.pid, signum)  # INT as a terminal sends it: to the group
    assert done_before < 10, "the manifest had every article before the signal: commits are not per article"
    process.wait(timeout=120)  # the driver only: communicate() would also wait for workers holding its pipes
    left = faults.no_processes_left(process.pid, grace_s)  # the group id is the driver's pid (start_new_session)
    stdout, stderr = process.communicate(timeout=120)
    return process.returncode, stdout, stderr, done_before, left


def _rerun_and_compare(ten_articles, out, faults, reference, done_before: int) -> int:
    again = faults.run_build(ten_articles, out)
    assert again.returncode == 0, again.stderr
    processed, skipped = map(int, SKIPPED.search(again.stdout).groups())
    assert skipped >= done_before and processed + skipped == 10, again.stdout
    assert faults.dataset_contents(out) == reference
    return skipped


@pytest.mark.parametrize("signum, code, to_group, executor", [
    (signal.SIGTERM, 143, False, "local"), (signal.SIGINT, 130, True, "local"), (signal.SIGTERM, 143, False, "ray")],
    ids=["SIGTERM", "SIGINT", "SIGTERM-ray"])
def test_a_signal_stops_the_build_cleanly_and_the_next_run_finishes_it(ten_articles, reference, tmp_path, faults,
                                                                       signum, code, to_group, executor):
    out = tmp_path / "ds"
    returncode, _stdout, stderr, done_before, left = _signal_after_some_articles(
        ten_articles, out, faults, signum, to_group=to_group, options=("--executor", executor))
    assert returncode == code, stderr[-3000:]
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    if executor == "ray":  # Ray's own start-up lines (token authentication, local instance) come first
        stderr = "\n".join(line for line in stderr.splitlines() if not re.match(r"\d{4}-\d\d-\d\d .*(INFO|WARNING)", line))
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and STOPPED.fullmatch(lines[0]), stderr
    name, kept, not_done = STOPPED.fullmatch(lines[0]).groups()
    assert name == signum.name and int(kept) >= done_before and int(kept) + int(not_done) == 10
    assert left == [], f"processes left behind by the driver: {left}"
    for log in (out / "logs").glob("*.log"):
        assert "Traceback" not in log.read_text(errors="replace"), log
    skipped = _rerun_and_compare(ten_articles, out, faults, reference, done_before)
    assert skipped == int(kept)


def test_a_killed_driver_takes_its_workers_along_and_loses_only_articles_in_flight(ten_articles, reference,
                                                                                   tmp_path, faults):
    out = tmp_path / "ds"
    # 3 s per article: killed just after the first two, each worker is well inside its next article, and
    # must be gone within 1.5 s (a worker that only notices the closed pipe would live ~3 s more)
    returncode, _stdout, _stderr, done_before, left = _signal_after_some_articles(
        ten_articles, out, faults, signal.SIGKILL, to_group=False, sleep_s=3.0, min_done=2, grace_s=1.5)
    assert returncode == -signal.SIGKILL
    assert left == [], f"workers outlived their killed driver: {left}"
    _rerun_and_compare(ten_articles, out, faults, reference, done_before)


def test_articles_committed_before_a_stop_reach_the_tables_on_a_run_with_nothing_to_do(ten_articles, tmp_path,
                                                                                         monkeypatch):
    corpus, out = tmp_path / "corpus", tmp_path / "ds"
    keys = sorted(p.name for p in ten_articles.iterdir())[:3]
    for key in keys[:2]:
        shutil.copytree(ten_articles / key, corpus / key)
    fast = dict(workers=0, progress=False, pdf_figures=False, subfigures=False)
    build(corpus, out, **fast)
    shutil.copytree(ten_articles / keys[2], corpus / keys[2])

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt  # the build stops after committing the new article, before consolidating

    with monkeypatch.context() as patch:
        patch.setattr(build_module, "consolidate", stopped)
        with pytest.raises(KeyboardInterrupt):
            build(corpus, out, **fast)
    report = build(corpus, out, **fast)
    assert (report.articles_processed, report.articles_skipped) == (0, 3)
    assert sorted(pq.read_table(out / "articles.parquet")["article_key"].to_pylist()) == keys


def test_a_signal_caught_inside_a_c_extension_still_stops_the_build():
    """Ray's CoreWorker.wait turns the handler's exception into a SystemError; it is still the signal."""
    import signal as signals_module

    from medfig.pipeline.build import _Signals, _Stop

    signals = _Signals()
    with pytest.raises(_Stop):
        with signals.stoppable():
            signals.signum = signals_module.SIGTERM  # the handler ran while C code was waiting
            raise SystemError("<cyfunction CoreWorker.wait> returned a result with an exception set")
    with pytest.raises(SystemError):  # without a signal a SystemError is a bug, not a stop
        with _Signals().stoppable():
            raise SystemError("a real one")
