"""Issue 19 items 7 and 8: what a user did wrong (or the machine ran out of) is one line, never a traceback.

Each command runs as a real process (``python -m medfig.cli``, the PYTHONPATH of the test run kept,
so ``PYTHONPATH=/old/src pytest tests/faults/test_cli_errors.py`` runs them against another checkout)
and the test checks the exit code, that stderr is one line naming the path or the argument and the
problem, and that no "Traceback" was printed. A full disk and a read-only file system are real: a
small tmpfs, mounted read-only or with a size limit (needs root / CAP_SYS_ADMIN; skipped otherwise).
The web app's out-of-range numbers are checked through Starlette's TestClient.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

# medfig.cli's exit codes, spelled out: the contract under test (and importable from an old checkout)
EXIT_ENVIRONMENT, EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED = 1, 2, 70, 130


def medfig(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("MEDFIG_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "medfig.cli", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess, code: int, *needles: str) -> str:
    """Assert: exit ``code``, no traceback, stderr one line holding every needle. Returns that line."""
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output
    assert proc.returncode == code, (proc.returncode, output)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Two synthetic articles (XML + PDF + figure files, about 8 MB)."""
    from medfig.demo import write_demo_corpus

    folder = tmp_path_factory.mktemp("corpus") / "articles"
    write_demo_corpus(folder, n=2, seed=0)
    return folder


def _mount_tmpfs(target: Path, options: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN): {done.stderr.strip()}")


@pytest.fixture
def tmpfs(tmp_path):
    """``mount(options) -> folder``: a fresh tmpfs, unmounted after the test."""
    mounted: list[Path] = []

    def mount(options: str) -> Path:
        target = tmp_path / f"mnt{len(mounted)}"
        _mount_tmpfs(target, options)
        mounted.append(target)
        return target

    yield mount
    for target in reversed(mounted):
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


# -- output folders -------------------------------------------------------------------------------------------

def test_output_naming_an_existing_file_is_one_line(tmp_path):
    (tmp_path / "in").mkdir()
    existing = tmp_path / "dataset.txt"
    existing.write_text("not a folder\n")
    one_line_error(medfig("build", tmp_path / "in", "-o", existing, "-q"), EXIT_USAGE, str(existing), "not a folder")
    one_line_error(medfig("demo", existing, "--n", "1"), EXIT_USAGE, str(existing), "not a folder")
    below = existing / "sub"
    one_line_error(medfig("build", tmp_path / "in", "-o", below, "-q"), EXIT_USAGE, str(below), "is a file")


def test_output_equal_to_or_inside_the_input_is_refused(tmp_path):
    articles = tmp_path / "articles"
    articles.mkdir()
    one_line_error(medfig("build", articles, "-o", articles, "-q"), EXIT_USAGE, str(articles), "input folder")
    inside = articles / "dataset"
    one_line_error(medfig("build", articles, "-o", inside, "-q"), EXIT_USAGE, str(inside), "inside the input")
    assert not (articles / "manifest.sqlite").exists() and not inside.exists()
    one_line_error(medfig("curate", articles, "-o", articles / "release", "-q"), EXIT_USAGE, "inside the input")


def test_read_only_output_is_one_line(corpus, tmpfs):
    read_only = tmpfs("ro,size=1m")
    out = read_only / "dataset"
    one_line_error(medfig("build", corpus, "-o", out, "--workers", "0", "-q"), EXIT_USAGE, str(out),
                   "Read-only file system")


@pytest.mark.parametrize("free_kb", [0, 256, 2048])
def test_disk_full_during_a_build_is_one_line(corpus, tmpfs, free_kb):
    """A tmpfs filled up to ``free_kb``: nothing fits (0), the manifest or a table cannot be written (256: the first
    writes; 2048: the images fit, the tables written after every article was processed do not). Exit 1: the
    machine's fault, not the user's."""
    disk = tmpfs("size=8m")
    with open(disk / "filler", "wb") as filler:
        filler.write(b"\0" * ((8192 - free_kb) * 1024))
    out = disk / "dataset"
    proc = medfig("build", corpus, "-o", out, "--workers", "0", "-q", "--no-subfigures")
    line = one_line_error(proc, EXIT_ENVIRONMENT, str(out))
    assert "full" in line or "No space left" in line, line


def test_a_corrupt_manifest_is_one_line_naming_it(corpus, tmp_path):
    out = tmp_path / "dataset"
    out.mkdir()
    (out / "manifest.sqlite").write_bytes(b"this is not an SQLite database" * 100)
    one_line_error(medfig("build", corpus, "-o", out, "--workers", "0", "-q"), EXIT_USAGE,
                   str(out / "manifest.sqlite"), "database")


# -- nonsense arguments ---------------------------------------------------------------------------------------

NONSENSE = [
    ("build", "--workers", "-3"),
    ("build", "--timeout", "-5"),
    ("build", "--shards", "-2"),
    ("build", "--shards", "0"),
    ("build", "--crop-dpi", "0"),
    ("curate", "--splits", "abc"),
    ("curate", "--splits", "0.5,0.5,0.5"),
    ("curate", "--min-words", "-5"),
    ("curate", "--phash-threshold", "-1"),
    ("curate", "--dhash-threshold", "99"),
    ("curate", "--language-threshold", "7"),
    ("curate", "--workers", "-1"),
    ("curate", "--min-concept-frequency", "x"),
    ("extract", "--time-limit", "-1"),
    ("extract", "--dpi", "nan"),
]


@pytest.mark.parametrize("command,option,value", NONSENSE, ids=lambda v: str(v))
def test_nonsense_arguments_are_refused_before_any_work(tmp_path, command, option, value):
    source = tmp_path / "in"
    source.mkdir()
    out = tmp_path / "out"
    proc = medfig(command, source, "-o", out, option, value, *(("-q",) if command != "extract" else ()))
    one_line_error(proc, EXIT_USAGE, f"medfig {command}", option, repr(value))
    assert not out.exists(), "nothing may be written for a refused argument"


@pytest.mark.parametrize("args", [("--year-from", "99999"), ("--year-to", "0"), ("--k", "-1")])
def test_search_numbers_out_of_range(tmp_path, args):
    one_line_error(medfig("search", tmp_path, "lung", *args), EXIT_USAGE, args[0])


def test_serve_port_out_of_range(tmp_path):
    one_line_error(medfig("serve", tmp_path, "--port", "70000"), EXIT_USAGE, "--port")


# -- the handler itself (in process) --------------------------------------------------------------------------

def _namespace(func) -> argparse.Namespace:
    return argparse.Namespace(command="build", output="/data/out", input="/data/in", func=func)


def test_a_bug_is_one_line_with_the_debug_hint(capsys, monkeypatch):
    from medfig.cli import run_command

    def broken(args):
        raise RuntimeError("boom")

    assert run_command(_namespace(broken)) == EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: boom" in err and "MEDFIG_DEBUG=1" in err


def test_ctrl_c_is_one_line_and_130(capsys):
    from medfig.cli import run_command

    def interrupted(args):
        raise KeyboardInterrupt

    assert run_command(_namespace(interrupted)) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "medfig build: interrupted\n"
    assert run_command(_namespace(lambda args: 143)) == 143  # a command's own signal exit code is kept


def test_debug_lets_the_traceback_through(monkeypatch, tmp_path):
    from medfig import cli

    import errno

    import medfig.pipeline.build

    def failing_disk(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error", str(tmp_path / "out" / "manifest.sqlite"))

    monkeypatch.setattr(medfig.pipeline.build, "build", failing_disk)
    (tmp_path / "in").mkdir()
    argv = ["build", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-q", "--workers", "0"]
    monkeypatch.setenv("MEDFIG_DEBUG", "1")
    with pytest.raises(OSError, match="Input/output error"):
        cli.main(argv)
    monkeypatch.delenv("MEDFIG_DEBUG")
    assert cli.main(argv) == 1  # without it: one line, exit 1 (the machine failed)


# -- extract: pages read, not the document's page count -------------------------------------------------------

def test_extract_reports_the_pages_it_read(tmp_path):
    import pypdfium2 as pdfium

    from medfig.pdf.extract import DEFAULT_MAX_PAGES

    pdf = pdfium.PdfDocument.new()
    for _ in range(DEFAULT_MAX_PAGES + 50):
        pdf.new_page(200, 200)
    path = tmp_path / "long.pdf"
    pdf.save(str(path))
    pdf.close()
    proc = medfig("extract", path, "-o", tmp_path / "out", "--cheap", "--in-process", "--no-crops")
    assert proc.returncode == 0, proc.stderr
    assert f"{DEFAULT_MAX_PAGES} of {DEFAULT_MAX_PAGES + 50} pages read" in proc.stdout, proc.stdout


# -- the web app: numbers from the URL ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def web(corpus, tmp_path_factory):
    from starlette.testclient import TestClient

    from medfig.pipeline.build import build
    from medfig.search import build_index
    from medfig.web.app import create_app

    dataset = tmp_path_factory.mktemp("web") / "dataset"
    build(corpus, dataset, workers=0, progress=False, pdf_figures=False, subfigures=False)
    build_index(dataset, dense=False, progress=False)
    return TestClient(create_app(dataset, warm=False), raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/figure/99999999999999999999999", "/img/figure/99999999999999999999999",
                                  "/img/panel/99999999999999999999999", "/img/thumb/99999999999999999999999",
                                  "/figure/9223372036854775808", "/figure/-1", "/figure/abc"])
def test_web_ids_out_of_range_are_404(web, path):
    assert web.get(path).status_code == 404


@pytest.mark.parametrize("params", [{"year_from": "99999999999999999999999"}, {"year_to": "10000"},
                                    {"year_from": "-5"}, {"year_to": "abc"}, {"k": "abc"}, {"k": "-3"}])
@pytest.mark.parametrize("path", ["/", "/api/search"])
def test_web_query_numbers_out_of_range_are_400(web, path, params):
    response = web.get(path, params={"q": "ultrasound", **params})
    assert response.status_code == 400, response.text
    assert next(iter(params)) in response.text


def test_web_years_in_range_still_work(web):
    assert web.get("/api/search", params={"q": "figure", "year_from": "1", "year_to": "9999"}).status_code == 200
    assert web.get("/", params={"q": "figure", "year_from": "", "k": ""}).status_code == 200
