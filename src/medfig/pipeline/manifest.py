"""The build manifest: which articles are done, with their rows.

SQLite gives atomic commits for free: an article is either recorded with all
its rows or not at all, so a killed build never leaves partial or duplicate
rows, and the next run redoes only what was not committed. The consolidated
Parquet tables are derived from this file.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from medfig.pipeline.article import ArticleResult

SCHEMA = """
CREATE TABLE IF NOT EXISTS articles (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status TEXT NOT NULL,          -- done | failed
    n_figures INTEGER NOT NULL,
    n_errors INTEGER NOT NULL,
    result BLOB NOT NULL           -- zlib(JSON {article, figures, errors})
)
"""


class Manifest:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        exists = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='articles'"
        ).fetchone()
        if not exists:  # only write when needed: a no-op run must not touch the file
            with self._db:
                self._db.execute(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Manifest":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def states(self) -> dict[str, tuple[str, str]]:
        """key -> (fingerprint, status) for every recorded article."""
        return {k: (f, s) for k, f, s in self._db.execute("SELECT key, fingerprint, status FROM articles")}

    def record(self, results: Iterable[ArticleResult]) -> int:
        rows = []
        for result in results:
            payload = {"article": result.article_row, "figures": result.figure_rows, "errors": result.errors}
            blob = zlib.compress(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8"), 6)
            status = "failed" if result.failed else "done"
            rows.append((result.key, result.fingerprint, status, len(result.figure_rows), len(result.errors), blob))
        if rows:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO articles(key, fingerprint, status, n_figures, n_errors, result) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
        return len(rows)

    def remove(self, keys: list[str]) -> int:
        if keys:
            with self._db:
                self._db.executemany("DELETE FROM articles WHERE key = ?", [(k,) for k in keys])
        return len(keys)

    def results(self) -> Iterator[tuple[str, str, dict]]:
        """(key, status, payload) in key order, for consolidation."""
        for key, status, blob in self._db.execute("SELECT key, status, result FROM articles ORDER BY key"):
            yield key, status, json.loads(zlib.decompress(blob))
