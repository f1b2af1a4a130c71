"""The build manifest: which articles are done, with their rows, by output shard.

SQLite gives atomic commits for free: an article is either recorded with all
its rows or not at all, so a killed build never leaves partial or duplicate
rows, and the next run redoes only what was not committed. The Parquet shards
are derived from this file, one shard at a time, so consolidating a corpus of
millions of articles never holds more than one shard's rows in memory.

Only the driver process writes it (workers return rows to the driver), so the
same manifest serves the local pool and a Ray cluster.

Each finished article is committed at once (:meth:`Manifest.record` of one result), so a
``kill -9`` of the driver loses only the articles in flight. The database runs in WAL mode
with ``synchronous=NORMAL``: a commit appends to the log without an fsync (a commit costs
well under a millisecond), and a process crash never loses a committed article (a power cut
may lose the last ones, which the next run redoes). The ``pending`` table lists the shards
whose Parquet parts are behind the manifest (an article committed, then the build stopped
before it consolidated); the next build rewrites them even when it has nothing else to do.
"""

from __future__ import annotations

import hashlib
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
    shard INTEGER NOT NULL,
    n_figures INTEGER NOT NULL,
    n_errors INTEGER NOT NULL,
    result BLOB NOT NULL           -- zlib(JSON {article, figures, errors, subfigures})
);
CREATE INDEX IF NOT EXISTS articles_by_shard ON articles(shard, key);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS removed (
    key TEXT PRIMARY KEY,
    reason TEXT NOT NULL,          -- why the article left the dataset (retracted, withdrawn, ...)
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pending (shard INTEGER PRIMARY KEY);  -- Parquet parts behind the manifest
"""


def shard_of(key: str, shards: int) -> int:
    """Stable across runs, machines and Python versions (unlike ``hash``)."""
    if shards <= 1:
        return 0
    return int.from_bytes(hashlib.sha1(key.encode("utf-8", "surrogateescape")).digest()[:8], "big") % shards


class Manifest:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._db.execute("PRAGMA journal_mode=WAL")  # persistent: set once per database
        self._db.execute("PRAGMA synchronous=NORMAL")
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"articles", "meta", "removed", "pending"} <= tables:  # only write when needed: a no-op run must not touch it
            with self._db:
                self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Manifest":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def get_meta(self, name: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def set_meta(self, name: str, value: str) -> None:
        if self.get_meta(name) != value:
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", (name, value))

    def states(self) -> dict[str, tuple[str, str]]:
        """key -> (fingerprint, status) for every recorded article."""
        return {k: (f, s) for k, f, s in self._db.execute("SELECT key, fingerprint, status FROM articles")}

    def record(self, results: Iterable[ArticleResult], shards: int) -> int:
        rows = []
        for result in results:
            payload = {"article": result.article_row, "figures": result.figure_rows, "errors": result.errors,
                       "subfigures": result.subfigure_rows}
            blob = zlib.compress(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8"), 6)
            status = "failed" if result.failed else "done"
            rows.append((result.key, result.fingerprint, status, shard_of(result.key, shards),
                         len(result.figure_rows), len(result.errors), blob))
        if rows:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO articles(key, fingerprint, status, shard, n_figures, n_errors, result) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.executemany("INSERT OR IGNORE INTO pending(shard) VALUES (?)", {(r[3],) for r in rows})
        return len(rows)

    def pending(self) -> set[int]:
        """Shards whose Parquet parts do not yet hold what the manifest holds."""
        return {shard for (shard,) in self._db.execute("SELECT shard FROM pending")}

    def clear_pending(self) -> None:
        """After a consolidation of every pending shard."""
        if self._db.execute("SELECT 1 FROM pending LIMIT 1").fetchone():
            with self._db:
                self._db.execute("DELETE FROM pending")

    def reshard(self, shards: int) -> None:
        keys = [k for (k,) in self._db.execute("SELECT key FROM articles")]
        with self._db:
            self._db.executemany("UPDATE articles SET shard = ? WHERE key = ?", [(shard_of(k, shards), k) for k in keys])
            self._db.executemany("INSERT OR IGNORE INTO pending(shard) VALUES (?)", [(s,) for s in range(shards)])

    def shards_of(self, keys: Iterable[str]) -> set[int]:
        found = set()
        for key in keys:
            row = self._db.execute("SELECT shard FROM articles WHERE key = ?", (key,)).fetchone()
            if row:
                found.add(row[0])
        return found

    def remove(self, keys: list[str]) -> int:
        if keys:
            shards = self.shards_of(keys)
            with self._db:
                self._db.executemany("DELETE FROM articles WHERE key = ?", [(k,) for k in keys])
                self._db.executemany("INSERT OR IGNORE INTO pending(shard) VALUES (?)", [(s,) for s in shards])
        return len(keys)

    def mark_removed(self, reasons: dict[str, tuple[str, str]]) -> None:
        """Record why articles left the dataset; a later run that sees them again clears the mark."""
        if reasons:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO removed(key, reason, detail) VALUES (?, ?, ?)",
                                     [(k, r, d) for k, (r, d) in reasons.items()])

    def unmark_removed(self, keys: Iterable[str]) -> None:
        keys = [k for k in keys if self._db.execute("SELECT 1 FROM removed WHERE key = ?", (k,)).fetchone()]
        if keys:
            with self._db:
                self._db.executemany("DELETE FROM removed WHERE key = ?", [(k,) for k in keys])

    def removed(self) -> list[dict]:
        return [{"article_key": k, "reason": r, "detail": d}
                for k, r, d in self._db.execute("SELECT key, reason, detail FROM removed ORDER BY key")]

    def results(self, shard: int | None = None) -> Iterator[tuple[str, str, dict]]:
        """(key, status, payload) in key order, for one shard or all."""
        if shard is None:
            cursor = self._db.execute("SELECT key, status, result FROM articles ORDER BY key")
        else:
            cursor = self._db.execute("SELECT key, status, result FROM articles WHERE shard = ? ORDER BY key", (shard,))
        for key, status, blob in cursor:
            yield key, status, json.loads(zlib.decompress(blob))
