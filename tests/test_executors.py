"""Executors: a killed worker, a hanging article, and Ray writing the same dataset as the local pool."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.pipeline.article import process_article
from medfig.pipeline.config import BuildConfig
from medfig.pipeline.manifest import shard_of
from medfig.pipeline.build import build

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
PACKAGES = DATA / "jats_pdf_figure_packages"
XML_ONLY = BuildConfig(pdf_figures=False, subfigures=False)
KILLED_ONCE = "PMC4706923"
HANGS = "PMC4706934"


def kill_once_or_hang(source, out_dir: Path):
    """Runs in a worker process: dies under one article the first time, hangs forever on another."""
    marker = Path(out_dir) / f"killed-{source.key}"
    if source.key == KILLED_ONCE and not marker.exists():
        process_article(source, out_dir, XML_ONLY)  # mid-article: its images are already on disk
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    if source.key == HANGS:
        while True:  # a parser stuck in a loop: only a kill stops it
            time.sleep(0.05)
    return process_article(source, out_dir, XML_ONLY)


def dies_every_time(source, out_dir: Path):
    if source.key == KILLED_ONCE:
        os.kill(os.getpid(), signal.SIGKILL)
    return process_article(source, out_dir, XML_ONLY)


def _corpus(root: Path, keys: list[str]) -> Path:
    for key in keys:
        shutil.copytree(HINDAWI / key, root / key)
    return root


def _rows(out: Path, name: str) -> list[dict]:
    return pq.read_table(out / f"{name}.parquet").to_pylist()


def _content(out: Path) -> dict[str, list]:
    """Dataset content, independent of row order and of how it is sharded."""
    return {name: sorted(repr(sorted(r.items())) for r in _rows(out, name))
            for name in ("figures", "articles", "errors", "subfigures")}


def test_killed_worker_is_retried_and_hanging_article_times_out(tmp_path):
    keys = ["PMC4657150", "PMC4691483", KILLED_ONCE, HANGS, "PMC4706941"]
    corpus = _corpus(tmp_path / "corpus", keys)
    out = tmp_path / "ds"
    report = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False, timeout_s=5, task=kill_once_or_hang)
    assert (out / f"killed-{KILLED_ONCE}").exists(), "the worker really was killed under the article"
    figures = _rows(out, "figures")
    pairs = [(f["article_key"], f["figure_id"]) for f in figures]
    assert len(pairs) == len(set(pairs)), "no duplicate rows from the retried article"
    assert {k for k, _ in pairs} == set(keys) - {HANGS}
    errors = _rows(out, "errors")
    timeouts = [e for e in errors if e["stage"] == "timeout"]
    assert [e["article_key"] for e in timeouts] == [HANGS] and "5 s" in timeouts[0]["message"]
    assert HANGS in timeouts[0]["file"]
    assert report.articles_failed == 1 and report.articles_processed == 5

    # The hanging article is retried by the next run (here it no longer hangs) and nothing else is redone.
    report = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False, timeout_s=5)
    assert (report.articles_processed, report.articles_skipped) == (1, 4)
    assert {f["article_key"] for f in _rows(out, "figures")} == set(keys)
    assert not [e for e in _rows(out, "errors") if e["stage"] == "timeout"]


def test_article_that_kills_every_worker_becomes_an_error_and_the_build_goes_on(tmp_path):
    corpus = _corpus(tmp_path / "corpus", ["PMC4657150", KILLED_ONCE])
    out = tmp_path / "ds"
    report = build(corpus, out, workers=1, progress=False, pdf_figures=False, subfigures=False, task=dies_every_time)
    errors = [e for e in _rows(out, "errors") if e["stage"] == "worker"]
    assert [e["article_key"] for e in errors] == [KILLED_ONCE]
    assert "2 attempt(s)" in errors[0]["message"]
    assert {f["article_key"] for f in _rows(out, "figures")} == {"PMC4657150"}
    assert report.articles_failed == 1


def test_sharded_dataset_has_the_same_content_and_rewrites_only_changed_shards(tmp_path):
    corpus = _corpus(tmp_path / "corpus", ["PMC4657150", "PMC4691483", "PMC4706923", "PMC4706934", "PMC4706941"])
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    build(corpus, single, workers=2, progress=False, pdf_figures=False, subfigures=False)
    build(corpus, sharded, workers=2, progress=False, pdf_figures=False, subfigures=False, shards=4)
    assert (sharded / "figures.parquet").is_dir()
    assert _content(single) == _content(sharded)
    assert (single / "stats.json").read_text() == (sharded / "stats.json").read_text()

    xml = corpus / "PMC4706941" / "fulltext.xml"  # one article's caption changes
    xml.write_text(xml.read_text().replace("Ultrasound shows hypoechoic nodule", "Ultrasound shows a hypoechoic nodule", 1))
    report = build(corpus, sharded, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_processed == 1
    rewritten_parts = {f.split("/")[1] for f in report.files_written if f.startswith("figures.parquet/")}
    assert rewritten_parts == {f"part-{shard_of('PMC4706941', 4):05d}.parquet"}  # only the changed article's shard


def test_incremental_update_keeps_the_rest_and_removes_retracted(tmp_path):
    first = _corpus(tmp_path / "day1", ["PMC4657150", "PMC4691483", "PMC4706923"])
    out = tmp_path / "ds"
    build(first, out, workers=2, progress=False, pdf_figures=False, subfigures=False)
    delta = _corpus(tmp_path / "day2", ["PMC4706941"])  # the next day's new article only
    report = build(delta, out, workers=2, progress=False, pdf_figures=False, subfigures=False, incremental=True,
                   removed={"PMC4691483": ("retracted", "retraction notice 2026-11-20")})
    assert (report.articles_processed, report.articles_removed) == (1, 1)
    keys = {f["article_key"] for f in _rows(out, "figures")}
    assert keys == {"PMC4657150", "PMC4706923", "PMC4706941"}
    assert _rows(out, "removed") == [
        {"article_key": "PMC4691483", "reason": "retracted", "detail": "retraction notice 2026-11-20"}
    ]
    assert not (out / "images" / "PMC4691483").exists()
    assert report.stats["articles_removed"] == 1


@pytest.fixture(scope="module")
def local_ray():
    import ray

    from medfig.pipeline.ray_executor import connect

    connect(None)  # a local head on 127.0.0.1, as a laptop user gets it
    # Ray workers cannot import this test module: ship its toy tasks by value
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield ray
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.shutdown()


def test_ray_and_local_executors_write_identical_datasets(tmp_path, local_ray):
    corpus = tmp_path / "corpus"
    _corpus(corpus, ["PMC4657150", "PMC4706941", "PMC4709619"])
    shutil.copytree(PACKAGES / "elife-19405_pmc_deposit", corpus / "elife-19405_pmc_deposit")
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    # The default pipeline, PDF cropping included: the layout model loads in Ray workers too.
    build(corpus, local, workers=2, progress=False)
    report = build(corpus, on_ray, workers=2, progress=False, executor="ray", shards=3)
    assert report.articles_processed == 4 and report.executor == "ray"
    assert report.stats["figures_with_image"] == report.stats["figures"] == 10
    for name in ("figures", "articles", "errors", "subfigures"):
        a, b = _content(local)[name], _content(on_ray)[name]
        assert a == b, (name, [x for x in a if x not in b][:2], [x for x in b if x not in a][:2])
    assert (local / "stats.json").read_text() == (on_ray / "stats.json").read_text()
    tif = next(f for f in _rows(on_ray, "figures") if f["article_key"] == "elife-19405_pmc_deposit")
    assert (on_ray / tif["image_path"]).read_bytes() == (local / tif["image_path"]).read_bytes()

    # curation on Ray: per-figure steps mapped over shards in Ray workers, group steps reduced here,
    # duplicate hashing on Ray too; the release equals the one curated in this process
    from medfig.curate.run import CurateOptions, curate

    here = curate(on_ray, tmp_path / "release-here", CurateOptions(licence="open"))
    there = curate(on_ray, tmp_path / "release-ray", CurateOptions(licence="open", executor="ray", workers=2))
    assert here.n_kept == there.n_kept > 0
    for name in ("figures", "exclusions"):
        assert _rows(tmp_path / "release-here", name) == _rows(tmp_path / "release-ray", name), name
    again = build(corpus, on_ray, workers=2, progress=False, executor="ray")
    assert (again.articles_processed, again.files_written) == (0, [])


# --- the executor protocol: one mapping from failure to result, the same on every executor ---------


RAISES = "PMC4691483"


def raises_on_one(source, out_dir: Path):
    if source.key == RAISES:
        raise ValueError(f"a bug met in {source.key}")
    return process_article(source, out_dir, XML_ONLY)


def _square(item):
    """A toy task: says something on stdout and stderr (Python and C level) for some items, raises for one."""
    import sys

    if item == 3:
        raise RuntimeError("three is not welcome")
    if item == "slow":
        time.sleep(60)
    if item in (1, 4):
        print(f"stdout of {item}")
        print(f"stderr of {item}", file=sys.stderr)
        os.write(2, f"fd 2 of {item}\n".encode())
    return item * item


def _as_row(item, failure):
    return ("failed", item, failure.stage, failure.error)


def _executor_kinds():
    return [("local", 0), ("local", 2), ("ray", 2)]


@pytest.mark.parametrize("kind,workers", _executor_kinds())
def test_a_raising_task_is_an_internal_error_row_and_the_build_goes_on(tmp_path, kind, workers, request):
    if kind == "ray":
        request.getfixturevalue("local_ray")
    corpus = _corpus(tmp_path / "corpus", ["PMC4657150", RAISES])
    out = tmp_path / "ds"
    report = build(corpus, out, workers=workers, progress=False, pdf_figures=False, subfigures=False,
                   executor=kind, task=raises_on_one)
    errors = [e for e in _rows(out, "errors") if e["stage"] != "image"]  # Hindawi XML names no image files
    assert [(e["article_key"], e["stage"], e["message"]) for e in errors] == [
        (RAISES, "internal", f"ValueError: a bug met in {RAISES}")]
    assert {f["article_key"] for f in _rows(out, "figures")} == {"PMC4657150"}
    assert report.articles_failed == 1 and report.articles_processed == 2
    logs = "".join(p.read_text() for p in sorted((out / "logs").glob("*.log"))) if workers else ""
    if workers:  # the traceback is in the worker's log, under the article's line
        assert f" {RAISES}\nTraceback" in logs and "raises_on_one" in logs
    else:
        assert not (out / "logs").exists()


@pytest.mark.parametrize("kind,workers", [("local", 1), ("ray", 1)])
def test_a_timeout_is_a_failure_result_and_the_others_still_come(kind, workers, request):
    from medfig.pipeline.executors import make_executor

    if kind == "ray":
        request.getfixturevalue("local_ray")
    started = time.monotonic()
    with make_executor(kind, workers=workers, timeout_s=3, on_failure=_as_row) as ex:
        results = list(ex.map(_square, [2, "slow", 5]))
    assert sorted(map(repr, results)) == sorted(map(repr, [4, ("failed", "slow", "timeout", ""), 25]))
    assert time.monotonic() - started < 40, "the slow item was stopped, not waited for"


def test_same_results_in_process_local_and_ray(tmp_path, local_ray):
    from medfig.pipeline.executors import make_executor

    items = list(range(8))
    seen = {}
    for kind, workers in _executor_kinds():
        with make_executor(kind, workers=workers, timeout_s=60, on_failure=_as_row) as ex:
            seen[(kind, workers)] = sorted(map(repr, ex.map(_square, items)))
    expected = sorted(map(repr, [i * i for i in items if i != 3]
                          + [("failed", 3, "exception", "RuntimeError: three is not welcome")]))
    assert all(result == expected for result in seen.values()), seen


@pytest.mark.parametrize("kind", ["local", "ray"])
def test_worker_output_goes_to_its_log_file(tmp_path, kind, request):
    from medfig.pipeline.executors import make_executor

    prefix = "worker-"
    if kind == "ray":
        node = {n["NodeManagerAddress"] for n in request.getfixturevalue("local_ray").nodes()}.pop()
        prefix = f"ray-{node}-"
    logs = tmp_path / "logs"
    with make_executor(kind, workers=1, timeout_s=60, on_failure=_as_row, log_dir=logs) as ex:
        assert sorted(map(repr, ex.map(_square, [0, 1, 2, 4]))) == sorted(map(repr, [0, 1, 4, 16]))
    files = sorted(logs.glob("*.log"))
    # one local worker; Ray may hand the tasks to more than one of its worker processes
    assert (len(files) == 1 if kind == "local" else files), files
    assert all(f.name.startswith(prefix) for f in files), files
    said = {}
    for f in files:
        lines = f.read_text().splitlines()
        assert lines[0].startswith(f"medfig {'Ray' if kind == 'ray' else 'local'} worker: host ")
        for at, line in enumerate(lines):
            if line.startswith("--- "):
                said[line.rsplit(" ", 1)[1]] = set(lines[at + 1:at + 4])
    assert set(said) == {"1", "4"}, said  # items that said nothing leave no line
    for item in ("1", "4"):
        assert said[item] == {f"stdout of {item}", f"stderr of {item}", f"fd 2 of {item}"}
