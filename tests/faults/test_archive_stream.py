"""Issue 19 item 6 (archives): a tar.gz of zeros costs an error row, not the worker's memory.

The archives are written here with a streaming gzip writer, so a member of a gigabyte
of zeros takes about a megabyte on disk and nothing in memory.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pytest

from medfig.records import SourceError
from medfig.sources import iter_sources, safety

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PMC_PARTIAL = DATA / "jats_pdf_figure_packages" / "PMC10802347_partial_oa_package"
F2 = "nihpp-2023.12.31.573776v1-f0002.jpg"
F3 = "nihpp-2023.12.31.573776v1-f0003.jpg"
MiB = 1024 * 1024


class _Zeros:
    def __init__(self, n: int) -> None:
        self.n = n

    def read(self, k: int = -1) -> bytes:
        k = self.n if k < 0 else min(k, self.n)
        self.n -= k
        return bytes(k)


def _package(dest: Path, replaced: dict[str, object]) -> Path:
    """The real PMC10802347 package as a tar.gz, some members replaced (int: that many zeros)."""
    with tarfile.open(dest, "w:gz") as tar:
        for path in sorted(PMC_PARTIAL.iterdir()):
            if path.name not in replaced:
                tar.add(path, arcname=path.name)
        for name, content in replaced.items():
            info = tarfile.TarInfo(name)
            if isinstance(content, int):
                info.size = content
                tar.addfile(info, _Zeros(content))
            else:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    return dest


_WORKER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from medfig.pipeline.article import process_article
    from medfig.pipeline.config import BuildConfig
    from medfig.sources import iter_sources
    (source,) = iter_sources(sys.argv[1])
    result = process_article(source, Path(sys.argv[2]), BuildConfig(pdf_figures=False, subfigures=False))
    # VmHWM, not ru_maxrss: getrusage's peak survives execve, so a child of a big pytest
    # process would report its parent's peak; VmHWM belongs to this process image alone.
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    peak_mb = int(status["VmHWM"].split()[0]) / 1024
    print(json.dumps({"errors": result.errors, "figures": result.figure_rows, "failed": result.failed,
                      "rss_mb": peak_mb}, default=str))
""")


def test_tar_gz_of_zeros_costs_an_error_row_not_memory(tmp_path):
    inp = tmp_path / "in"
    inp.mkdir()
    # a figure of 500 MiB of zeros (under the member limit) and one of 1 GiB: about 1.5 MB on disk
    archive = _package(inp / "PMC9100002.tar.gz", {F2: 500 * MiB, F3: 1024 * MiB})
    assert archive.stat().st_size < 4 * MiB
    proc = subprocess.run([sys.executable, "-c", _WORKER, str(inp), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["rss_mb"] < 300, result["rss_mb"]
    assert not result["failed"]  # the article stays: its text and its other figures are fine
    by_file = {Path(e["file"]).name: e for e in result["errors"]}
    bomb = by_file[f"PMC9100002.tar.gz:{F2}"]
    assert bomb["stage"] == "image"
    assert f"PMC9100002.tar.gz:{F2}: compression ratio" in bomb["message"]
    assert "limit" in by_file[f"PMC9100002.tar.gz:{F3}"]["message"]
    ok = [f["figure_id"] for f in result["figures"] if f["image_status"] == "ok"]
    assert sorted(ok) == ["F1", "F4"]


def test_a_bomb_the_rest_of_the_file_could_hide_is_stopped_while_copying(tmp_path, monkeypatch):
    """Enough compressed bytes after the member that the up-front check passes: the running one stops it."""
    monkeypatch.setattr(safety, "ZIP_RATIO_MIN_BYTES", 1 * MiB)
    noise = random.Random(19).randbytes(2 * MiB)  # incompressible, after the zeros in the stream
    archive = _package(tmp_path / "PMC9100003.tar.gz", {F2: 300 * MiB, "zz-noise.bin": noise})
    (source,) = iter_sources(archive)
    with source.open() as package:
        assert package.size(F2) == 300 * MiB
        with pytest.raises(SourceError, match=rf"PMC9100003\.tar\.gz:{F2}: compression ratio") as refused:
            package.read_bytes(F2)
        copied = int(re.search(r"\((\d+) bytes from", str(refused.value)).group(1))
        assert copied < 100 * MiB  # stopped early, not after spooling all 300 MiB to disk
        assert package.read_bytes("zz-noise.bin") == noise
        assert package.read_bytes(F3) == (PMC_PARTIAL / F3).read_bytes()
        assert any("compression ratio" in w for w in package.warnings)


def test_real_tar_gz_members_are_unchanged(tmp_path):
    archive = _package(tmp_path / "PMC10802347.tar.gz", {})
    (source,) = iter_sources(archive)
    with source.open() as package:
        for path in sorted(PMC_PARTIAL.iterdir()):
            assert package.read_bytes(path.name) == path.read_bytes()


def test_discovery_does_not_inflate_a_bomb_to_list_it(tmp_path):
    """A bundle is listed in the driver, before any worker: a bomb stops the listing at once."""
    from medfig.sources.archives import list_members

    archive = tmp_path / "bundle.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("A/zeros.bin")
        info.size = 1024 * MiB
        tar.addfile(info, _Zeros(info.size))
        for folder in ("A", "B"):
            for path in sorted(PMC_PARTIAL.iterdir()):
                tar.add(path, arcname=f"{folder}/{path.name}")
    assert list_members(archive) is None
    (source,) = iter_sources(archive)  # still found: opening it gives the error row
    assert source.key == "bundle" and source.prefix == ""
    # a bundle without the bomb is listed as before: one source per article folder
    plain = tmp_path / "plain.tar.gz"
    with tarfile.open(plain, "w:gz") as tar:
        for folder in ("A", "B"):
            for path in sorted(PMC_PARTIAL.iterdir()):
                tar.add(path, arcname=f"{folder}/{path.name}")
    assert [s.key for s in iter_sources(plain)] == ["A", "B"]
