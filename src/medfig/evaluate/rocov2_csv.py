"""One reader for ROCOv2's two-column release files (``ID,Caption`` captions, ``ID,CUIs`` concepts).

Both files share their shape: a fixed header, one row per image, the image ID first and never
empty nor repeated, blank lines ignored. Only the second column's meaning and how many fields a
row may have differ, so each caller passes a ``value_of(row)`` that turns a row into its value
and raises :class:`RowError` for a row it cannot read. Every problem is one ``MedfigError``
naming the file and the line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from medfig.records import MedfigError

V = TypeVar("V")


class RowError(ValueError):
    """A row ``value_of`` cannot read; its message follows ``<file>: line <n>:``."""


def read_rocov2_csv(path: str | Path, header: tuple[str, str], kind: str,
                    value_of: Callable[[list[str]], V]) -> dict[str, V]:
    """``{image ID: value_of(row)}`` from a ROCOv2 ``kind`` file (``captions``, ``concepts``)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # Excel writes a byte-order mark
    except (OSError, UnicodeDecodeError) as exc:
        raise MedfigError(f"{path}: cannot read {kind} file ({exc})") from exc
    reader = csv.reader(io.StringIO(text, newline=""))
    values: dict[str, V] = {}
    try:
        found = next(reader, None)
        if found is None or tuple(h.strip() for h in found) != header:
            raise MedfigError(f"{path}: line 1: header must be '{','.join(header)}' (ROCOv2 {kind} file), "
                              f"got {found!r}")
        for row in reader:
            line = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # blank line
            try:
                value = value_of(row)
            except RowError as exc:
                raise MedfigError(f"{path}: line {line}: {exc}") from None
            image_id = row[0].strip()
            if not image_id:
                raise MedfigError(f"{path}: line {line}: empty image ID")
            if image_id in values:
                raise MedfigError(f"{path}: line {line}: image ID {image_id!r} given twice")
            values[image_id] = value
    except csv.Error as exc:
        raise MedfigError(f"{path}: line {reader.line_num}: not valid CSV ({exc})") from exc
    return values
