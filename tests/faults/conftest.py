"""Helpers for the fault tests: real `medfig build` processes on 10 Hindawi articles, killed, signalled
or racing each other, and the comparison of their datasets with an undisturbed build.

Builds run as subprocesses of the console script next to this Python (``.venv/bin/medfig``), with
``tests/hooks`` on PYTHONPATH so ``MEDFIG_FAULT_SLEEP_S`` can make every article slow (see
tests/hooks/sitecustomize.py). The PYTHONPATH of the test run is kept, so
``PYTHONPATH=/old/src pytest tests/faults`` runs them against another checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest

HOOKS = Path(__file__).resolve().parents[1] / "hooks"
MEDFIG = Path(sys.executable).parent / "medfig"
FAST = ("--no-pdf-figures", "--no-subfigures", "-q")
PACKAGES = ("PMC10802347_partial_oa_package", "elife-00353_vor")
TABLES = ("figures", "articles", "errors", "subfigures", "exclusions", "removed")


def medfig_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HOOKS), env.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


def start_build(corpus: Path, out: Path, *, workers: int = 2, sleep_s: float | None = None, options: tuple = (),
                **popen) -> subprocess.Popen:
    """``medfig build corpus -o out`` in its own process group (signals to the group reach only it)."""
    env = medfig_env(**({"MEDFIG_FAULT_SLEEP_S": str(sleep_s)} if sleep_s else {}))
    return subprocess.Popen([str(MEDFIG), "build", str(corpus), "-o", str(out), "--workers", str(workers), *FAST,
                             *options],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **popen)


def run_build(corpus: Path, out: Path, **kwargs) -> subprocess.CompletedProcess:
    process = start_build(corpus, out, **kwargs)
    stdout, stderr = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def manifest_count(out: Path) -> int:
    """Articles committed to the manifest so far (read while the build writes it)."""
    path = out / "manifest.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM articles").fetchone()[0]
    except sqlite3.Error:
        return 0


def wait_for(predicate, timeout_s: float = 120, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def group_processes(pgid: int) -> list[str]:
    """Live processes of process group ``pgid`` (a build's driver and its workers), as 'pid cmdline'."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                found.append(f"{entry.name} {cmd[:200]}")
        except (OSError, ValueError, IndexError):
            continue
    return found


def no_processes_left(pgid: int, timeout_s: float = 10) -> list[str]:
    deadline = time.monotonic() + timeout_s
    while (left := group_processes(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def dataset_contents(folder: Path) -> dict:
    """Every table's rows (order-independent), stats.json and every image's bytes."""
    contents: dict = {}
    for name in TABLES:
        location = folder / f"{name}.parquet"
        rows = pq.read_table(location).to_pylist() if location.exists() else []
        contents[name] = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
    contents["stats.json"] = json.loads((folder / "stats.json").read_text())
    images = folder / "images"
    contents["images"] = {p.relative_to(folder).as_posix(): p.read_bytes()
                          for p in sorted(images.rglob("*")) if p.is_file()} if images.is_dir() else {}
    return contents


@pytest.fixture(scope="session")
def ten_articles(data_dir, tmp_path_factory) -> Path:
    """8 Hindawi articles (no figure files: no images without PDF cropping) and 2 packages with figure files."""
    corpus = tmp_path_factory.mktemp("faults") / "ten"
    hindawi = sorted(p for p in (data_dir / "pmc_hindawi_xml_pdf").iterdir() if p.is_dir())[:8]
    packages = [data_dir / "jats_pdf_figure_packages" / name for name in PACKAGES]
    for article in hindawi + packages:
        shutil.copytree(article, corpus / article.name)
    return corpus


@pytest.fixture(scope="session")
def reference(ten_articles, tmp_path_factory) -> dict:
    """The dataset of an undisturbed build of the ten articles."""
    out = tmp_path_factory.mktemp("faults") / "reference"
    done = run_build(ten_articles, out)
    assert done.returncode == 0, done.stderr
    contents = dataset_contents(out)
    assert len(contents["articles"]) == 10 and contents["figures"] and contents["images"]
    return contents


@pytest.fixture(scope="session")
def faults() -> SimpleNamespace:
    """This module's helpers for the tests (a conftest cannot be imported by name beside tests/conftest.py)."""
    return SimpleNamespace(start_build=start_build, run_build=run_build, manifest_count=manifest_count,
                           wait_for=wait_for, group_processes=group_processes, no_processes_left=no_processes_left,
                           dataset_contents=dataset_contents, medfig_env=medfig_env, MEDFIG=MEDFIG, FAST=FAST)
