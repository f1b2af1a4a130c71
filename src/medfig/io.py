"""Atomic file writes: write to a temp file in the same folder, then rename.

A build killed at any moment leaves either the old file or the new one, never a
half-written file. Temp names start with ``.`` and contain ``.tmp-`` so a later
run can sweep leftovers with :func:`remove_stale_temps`.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

TEMP_MARK = ".tmp-"


def _temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}{TEMP_MARK}{os.getpid()}-{uuid.uuid4().hex[:8]}")


def atomic_write_bytes(path: Path, data: bytes, *, only_if_changed: bool = False) -> bool:
    """Write ``data`` to ``path`` atomically. Returns False when nothing was written."""
    path = Path(path)
    if only_if_changed and path.is_file() and path.stat().st_size == len(data):
        if path.read_bytes() == data:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_path(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return True


def atomic_write_json(path: Path, obj: Any, *, only_if_changed: bool = False) -> bool:
    text = json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return atomic_write_bytes(path, text.encode("utf-8"), only_if_changed=only_if_changed)


def parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def atomic_write_parquet(path: Path, table: pa.Table, *, only_if_changed: bool = False) -> bool:
    return atomic_write_bytes(path, parquet_bytes(table), only_if_changed=only_if_changed)


def remove_stale_temps(root: Path) -> int:
    """Delete temp files left by a killed run. Returns how many were removed."""
    removed = 0
    if not root.exists():
        return 0
    for tmp in root.rglob(f".*{TEMP_MARK}*"):
        if tmp.is_file():
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed
