import os

import pyarrow as pa
import pytest

from medfig import io as atomic


def test_failed_write_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "stats.json"
    atomic.atomic_write_json(target, {"v": 1})

    def crash(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(OSError):
        atomic.atomic_write_json(target, {"v": 2})
    assert target.read_text().strip().endswith("}")
    assert '"v": 1' in target.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["stats.json"]


def test_only_if_changed_skips_identical_bytes(tmp_path):
    target = tmp_path / "t.parquet"
    table = pa.table({"a": [1, 2, 3]})
    assert atomic.atomic_write_parquet(target, table, only_if_changed=True)
    before = target.stat().st_mtime_ns
    assert not atomic.atomic_write_parquet(target, table, only_if_changed=True)
    assert target.stat().st_mtime_ns == before
    assert atomic.atomic_write_parquet(target, pa.table({"a": [1, 2]}), only_if_changed=True)


def test_stale_temps_are_swept(tmp_path):
    (tmp_path / "sub").mkdir()
    stale = tmp_path / "sub" / f".figures.parquet{atomic.TEMP_MARK}123-abcd"
    stale.write_bytes(b"half")
    keep = tmp_path / "sub" / "figures.parquet"
    keep.write_bytes(b"whole")
    assert atomic.remove_stale_temps(tmp_path) == 1
    assert not stale.exists() and keep.exists()
