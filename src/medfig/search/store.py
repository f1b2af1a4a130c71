"""The search index on disk, inside the dataset folder (nothing to start, nothing to host).

Layout of ``DATASET/search/``::

    index.sqlite        docs (one row per panel/figure, full record as JSON), doc_tags (filters),
                        fts (SQLite FTS5, BM25), embeddings (vector per dense-text hash), meta
    vectors.npy         float32 [n_docs, 384], L2-normalised, row i belongs to doc id vector_ids[i]
    vector_ids.npy      int64 [n_docs]
    query_encoder.onnx  the sentence model as ONNX (+ query_tokenizer.json, query_encoder.json): searches
                        encode the query with onnxruntime, without importing torch (see encoder.py)

Indexing is incremental: a document whose content hash is unchanged is not
touched; the sentence model only encodes texts it has never seen (embeddings are
keyed by a hash of the text). The vector files are rewritten atomically whenever
a document was added, changed or removed.
"""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from medfig.dataset import DatasetFolder
from medfig.io import atomic_write_bytes, atomic_write_json
from medfig.records import MedfigError
from medfig.pipeline.article import NOT_IN_PDF
from medfig.search.documents import TEXT_FIELDS, SearchDoc, documents_from_dataset
from medfig.search.licences import licence_tags
from medfig.search.querytext import content_words

SCHEMA_VERSION = 3  # 3: modality tags are canonical names (medfig.text.modality); dense floor in meta
INDEX_DIR = "search"
DEFAULT_FIELDS = TEXT_FIELDS  # caption, subcaption, refs, concepts, title
TOKENIZER = "porter unicode61 remove_diacritics 2"

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    doc_id INTEGER PRIMARY KEY,
    doc_key TEXT NOT NULL UNIQUE,
    content_hash TEXT NOT NULL,
    dense_hash TEXT,
    kind TEXT NOT NULL,
    article_key TEXT NOT NULL,
    figure_id TEXT NOT NULL,
    panel_label TEXT,
    year INTEGER,
    doc_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_figure ON docs(article_key, figure_id);
CREATE INDEX IF NOT EXISTS docs_year ON docs(year);
CREATE TABLE IF NOT EXISTS doc_tags (doc_id INTEGER NOT NULL, tag TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS doc_tags_lookup ON doc_tags(tag, value, doc_id);
CREATE INDEX IF NOT EXISTS doc_tags_doc ON doc_tags(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5({", ".join(TEXT_FIELDS)}, tokenize='{TOKENIZER}');
CREATE TABLE IF NOT EXISTS embeddings (text_hash TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
"""


@dataclass
class IndexReport:
    index_dir: Path
    documents: int = 0
    panels: int = 0
    figures: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    texts_encoded: int = 0
    dense: bool = False
    fields: tuple[str, ...] = DEFAULT_FIELDS
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            f"medfig index -> {self.index_dir}",
            f"  documents : {self.documents} ({self.panels} panels, {self.figures} whole figures)",
            f"  this run  : {self.added} added, {self.updated} updated, {self.removed} removed, "
            f"{self.unchanged} unchanged",
            f"  BM25      : SQLite FTS5 over {', '.join(self.fields)}",
            f"  dense     : " + (f"all-MiniLM-L6-v2, {self.texts_encoded} texts encoded this run" if self.dense
                                 else "off"),
        ]
        lines += [f"  note      : {n}" for n in self.notes]
        lines.append(f"  time      : {self.seconds:.1f} s")
        return "\n".join(lines)


def index_dir_for(dataset: str | Path) -> Path:
    return Path(dataset) / INDEX_DIR


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _doc_tags(doc: SearchDoc) -> list[tuple[str, str]]:
    tags = [("licence", t) for t in licence_tags(doc.licence_spdx)]
    tags += [("modality", m) for m in doc.modalities]  # canonical names: "X-ray", "CT"
    tags += [("concept", c.lower()) for c in doc.concepts]
    tags.append(("kind", doc.kind))
    return tags


def _check_meta(conn: sqlite3.Connection, fields: tuple[str, ...]) -> bool:
    """True when the stored index was built with these fields (else it must be rebuilt)."""
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if not meta:
        return True
    return meta.get("schema_version") == str(SCHEMA_VERSION) and meta.get("fields") == ",".join(fields)


def _clear(conn: sqlite3.Connection) -> None:
    for table in ("docs", "doc_tags", "fts", "meta"):
        conn.execute(f"DELETE FROM {table}")


def _write_doc(conn: sqlite3.Connection, doc_id: int | None, doc: SearchDoc, fields, dense_hash) -> int:
    record = (doc.doc_key, doc.content_hash(), dense_hash, doc.kind, doc.article_key, doc.figure_id,
              doc.panel_label, doc.year, json.dumps(asdict(doc), ensure_ascii=False))
    if doc_id is None:
        cur = conn.execute(
            "INSERT INTO docs (doc_key, content_hash, dense_hash, kind, article_key, figure_id, panel_label, year,"
            " doc_json) VALUES (?,?,?,?,?,?,?,?,?)", record)
        doc_id = cur.lastrowid
    else:
        conn.execute(
            "UPDATE docs SET doc_key=?, content_hash=?, dense_hash=?, kind=?, article_key=?, figure_id=?,"
            " panel_label=?, year=?, doc_json=? WHERE doc_id=?", (*record, doc_id))
        conn.execute("DELETE FROM fts WHERE rowid=?", (doc_id,))
        conn.execute("DELETE FROM doc_tags WHERE doc_id=?", (doc_id,))
    texts = doc.text_for(fields)
    conn.execute(f"INSERT INTO fts (rowid, {', '.join(TEXT_FIELDS)}) VALUES (?{', ?' * len(TEXT_FIELDS)})",
                 (doc_id, *(texts[f] for f in TEXT_FIELDS)))
    conn.executemany("INSERT INTO doc_tags (doc_id, tag, value) VALUES (?,?,?)",
                     [(doc_id, tag, value) for tag, value in _doc_tags(doc)])
    return doc_id


def _npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _encode_missing(conn, hashes_to_text: dict[str, str], batch: int, progress: bool) -> int:
    from medfig.search.encoder import get_encoder

    known = set()
    keys = list(hashes_to_text)
    for start in range(0, len(keys), 900):
        chunk = keys[start:start + 900]
        known.update(h for (h,) in conn.execute(
            f"SELECT text_hash FROM embeddings WHERE text_hash IN ({','.join('?' * len(chunk))})", chunk))
    todo = [h for h in keys if h not in known]
    if not todo:
        return 0
    encoder = get_encoder()
    bar = tqdm(total=len(todo), unit="text", desc="embedding", disable=not progress, file=sys.stderr)
    for start in range(0, len(todo), batch):
        chunk = todo[start:start + batch]
        vectors = encoder.encode([hashes_to_text[h] for h in chunk])
        conn.executemany("INSERT OR REPLACE INTO embeddings (text_hash, vector) VALUES (?, ?)",
                         [(h, v.astype(np.float32).tobytes()) for h, v in zip(chunk, vectors)])
        conn.commit()  # a killed run keeps what it encoded
        bar.update(len(chunk))
    bar.close()
    return len(todo)


def _write_vectors(conn: sqlite3.Connection, index_dir: Path) -> None:
    rows = conn.execute(
        "SELECT d.doc_id, e.vector FROM docs d JOIN embeddings e ON e.text_hash = d.dense_hash ORDER BY d.doc_id"
    ).fetchall()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1) if rows \
        else np.zeros((0, 384), dtype=np.float32)
    atomic_write_bytes(index_dir / "vector_ids.npy", _npy_bytes(ids))
    atomic_write_bytes(index_dir / "vectors.npy", _npy_bytes(matrix))


def _write_term_df(conn: sqlite3.Connection, docs: list[SearchDoc], fields: tuple[str, ...]) -> None:
    """Document frequency of every content word: the query side keeps only a query's rarest words."""
    df: Counter = Counter()
    for doc in docs:
        df.update(set(content_words(" ".join(doc.text_for(fields).values()))))
    conn.execute("DELETE FROM term_df")
    conn.executemany("INSERT INTO term_df (term, df) VALUES (?, ?)", df.items())


NULL_QUERIES = 64


def null_queries(n: int = NULL_QUERIES, seed: int = 0) -> list[str]:
    """Strings that mean nothing (random letters, 5-12 long, as "xyzzyplugh"): the dense floor's baseline."""
    import random
    import string

    rng = random.Random(seed)
    return ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 12))) for _ in range(n)]


def dense_floor(index_dir: Path) -> float:
    """The lowest cosine a dense hit may have: the best similarity any indexed document reaches to any of
    NULL_QUERIES meaningless strings. Cosine has no absolute scale (it depends on the model and on what
    the index holds), so the floor comes from this index's own score distribution: a document counts as
    a dense match only when it is closer to the query than the index ever gets to a query that means
    nothing. With more documents the chance best match of nonsense rises, and the floor with it."""
    from medfig.search.encoder import query_encoder

    vectors = np.load(index_dir / "vectors.npy")
    if len(vectors) == 0:
        return 1.0
    null = query_encoder(index_dir).encode(null_queries())
    return float((vectors @ null.T).max())


def build_index(
    dataset: str | Path,
    *,
    index_dir: str | Path | None = None,
    fields: Iterable[str] = DEFAULT_FIELDS,
    dense: bool | None = None,
    docs: list[SearchDoc] | None = None,
    progress: bool = True,
    batch_size: int = 256,
) -> IndexReport:
    """Create or update the search index of a built dataset.

    ``fields`` chooses what BM25 and the sentence model see (the retrieval benchmark
    indexes ``caption, subcaption`` only). ``dense=None`` means: on when the offline
    model is installed. ``docs`` replaces reading the dataset tables (benchmarks).
    """
    started = time.perf_counter()
    fields = tuple(f for f in TEXT_FIELDS if f in set(fields))
    unknown = set(fields) - set(TEXT_FIELDS)
    if unknown:
        raise MedfigError(f"unknown index field(s): {', '.join(sorted(unknown))}")
    # one writer at a time: the dataset's lock when the index lives inside it (as `medfig build` takes
    # it), else the index folder's own (a dataset elsewhere may be read-only)
    locked = Path(dataset) if index_dir is None and dataset is not None else Path(index_dir)
    index_dir = Path(index_dir) if index_dir is not None else index_dir_for(dataset)
    index_dir.mkdir(parents=True, exist_ok=True)
    with DatasetFolder(locked).lock("medfig index"):
        return _build_index_locked(dataset, index_dir, fields, dense, docs, progress, batch_size, started)


def _build_index_locked(dataset, index_dir: Path, fields: tuple[str, ...], dense: bool | None,
                        docs: list[SearchDoc] | None, progress: bool, batch_size: int, started: float) -> IndexReport:
    from medfig.search.encoder import INSTALL_HINT, dense_available

    skipped: Counter = Counter()
    if docs is None:
        docs = documents_from_dataset(dataset, skipped)
    dupes = len(docs) - len({d.doc_key for d in docs})
    if dupes:
        raise MedfigError(f"{dataset}: {dupes} duplicate figure/panel ids; cannot index")
    if dense is None:
        dense = dense_available()
    report = IndexReport(index_dir=index_dir, documents=len(docs), fields=fields, dense=dense,
                         panels=sum(d.kind == "panel" for d in docs), figures=sum(d.kind == "figure" for d in docs))
    if not dense:
        report.notes.append(f"dense vectors off; for fused search: {INSTALL_HINT}")
    if skipped[NOT_IN_PDF]:
        report.notes.append(f"{skipped[NOT_IN_PDF]} figures not indexed: the PDF does not print them "
                            "(image_status not_in_pdf), so no image exists")

    conn = connect(index_dir / "index.sqlite")
    try:
        conn.executescript(_SCHEMA)
        if not _check_meta(conn, fields):
            report.notes.append("fields or schema changed: documents re-indexed from scratch")
            _clear(conn)
        existing = {key: (doc_id, chash) for doc_id, key, chash in
                    conn.execute("SELECT doc_id, doc_key, content_hash FROM docs")}
        dense_texts: dict[str, str] = {}
        with conn:
            for doc in tqdm(docs, unit="doc", desc="indexing", disable=not progress, file=sys.stderr):
                text = doc.dense_text(fields) if dense else ""
                dense_hash = _text_hash(text) if text else None
                if dense_hash:
                    dense_texts[dense_hash] = text
                old = existing.pop(doc.doc_key, None)
                if old is None:
                    _write_doc(conn, None, doc, fields, dense_hash)
                    report.added += 1
                elif old[1] != doc.content_hash():
                    _write_doc(conn, old[0], doc, fields, dense_hash)
                    report.updated += 1
                else:
                    if dense_hash:  # same content, but dense may have been off last time
                        conn.execute("UPDATE docs SET dense_hash=? WHERE doc_id=? AND dense_hash IS NOT ?",
                                     (dense_hash, old[0], dense_hash))
                    report.unchanged += 1
            gone = [doc_id for doc_id, _ in existing.values()]
            for doc_id in gone:
                conn.execute("DELETE FROM docs WHERE doc_id=?", (doc_id,))
                conn.execute("DELETE FROM fts WHERE rowid=?", (doc_id,))
                conn.execute("DELETE FROM doc_tags WHERE doc_id=?", (doc_id,))
            report.removed = len(gone)
            term_df_empty = conn.execute("SELECT count(*) FROM term_df").fetchone()[0] == 0
            if report.added or report.updated or report.removed or (term_df_empty and docs):
                _write_term_df(conn, docs, fields)
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [
                ("schema_version", str(SCHEMA_VERSION)), ("fields", ",".join(fields)),
                ("dataset", str(Path(dataset).resolve()) if dataset is not None else ""),
                ("dense", "1" if dense else "0")])
        if dense:
            report.texts_encoded = _encode_missing(conn, dense_texts, batch_size, progress)
        changed = report.added or report.updated or report.removed or report.texts_encoded
        if dense and (changed or not (index_dir / "vectors.npy").is_file()):
            _write_vectors(conn, index_dir)
        if dense:
            from medfig.search.encoder import export_query_encoder

            note = export_query_encoder(index_dir)
            if note:
                report.notes.append(note)
            has_floor = conn.execute("SELECT 1 FROM meta WHERE key='dense_floor'").fetchone()
            if changed or not has_floor:
                floor = dense_floor(index_dir)
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('dense_floor', ?)", (repr(floor),))
                conn.commit()
        if not dense:
            for name in ("vectors.npy", "vector_ids.npy", "query_encoder.onnx", "query_tokenizer.json",
                         "query_encoder.json"):
                (index_dir / name).unlink(missing_ok=True)
        if changed:
            conn.execute("INSERT INTO fts(fts) VALUES ('optimize')")  # merge FTS segments: faster queries
            conn.commit()
        atomic_write_json(index_dir / "index.json", {
            "schema_version": SCHEMA_VERSION, "fields": list(fields), "dense": dense,
            "documents": report.documents, "panels": report.panels, "figures": report.figures,
        }, only_if_changed=True)
    finally:
        conn.close()
    report.seconds = time.perf_counter() - started
    return report
