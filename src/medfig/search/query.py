"""Querying the index: BM25 (FTS5), dense (cosine over the NumPy matrix) and their RRF fusion.

>>> index = SearchIndex.open("demo-dataset")               # doctest: +SKIP
>>> for hit in index.search("lung cyst CT", k=5, filters=Filters(modality="CT")):   # doctest: +SKIP
...     print(hit.rank, hit.doc.label, hit.doc.panel_label, hit.doc.subcaption)
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from medfig.records import MedfigError
from medfig.search.documents import SearchDoc
from medfig.search.fusion import reciprocal_rank_fusion
from medfig.search.licences import licence_name
from medfig.search.modality import canonical_modality, modality_of
from medfig.search.results import PageRequest, SearchPage, one_per_figure, paginate
from medfig.search.querytext import MAX_QUERY_CHARS, fts_match_expression
from medfig.search.store import INDEX_DIR, SCHEMA_VERSION, TEXT_FIELDS

# BM25 column weights, in TEXT_FIELDS order (caption, subcaption, refs, concepts, title): a panel's own
# subcaption says most about it; citing sentences and the article title are looser evidence.
BM25_WEIGHTS = (1.0, 2.0, 0.6, 0.8, 0.3)
MODES = ("fused", "bm25", "dense")
# BM25 uses a query's rarest words only (see querytext.query_terms): this bounds the postings FTS5
# scores, which keeps long citing-sentence queries fast at 100k+ documents.
BM25_MAX_TERMS = 10


@dataclass(slots=True)
class Filters:
    """Restrict results. ``licence``: an SPDX id (``CC-BY-4.0``), a family (``CC-BY-NC``), ``cc`` or
    ``commercial`` (reuse and adaptation for any purpose: CC0, CC BY, CC BY-SA)."""

    modality: str | None = None
    concept: str | None = None
    licence: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    kind: str | None = None  # "panel" | "figure"

    def active(self) -> bool:
        return any(v is not None and v != "" for v in asdict(self).values())


@dataclass(slots=True)
class SearchHit:
    """One ranked panel or figure. ``score`` is the fused RRF score (or BM25 / cosine in single modes)."""

    rank: int
    score: float
    doc_id: int
    doc: SearchDoc
    bm25_rank: int | None = None
    dense_rank: int | None = None
    attribution: str = ""
    cited_panel_refs: list[dict] = field(default_factory=list)  # sentences naming this very panel

    def to_dict(self) -> dict:
        out = asdict(self)
        out.update(out.pop("doc"))
        return out


def attribution_for(doc: SearchDoc) -> str:
    """A ready-to-paste credit line: who, what, where, under which licence."""
    authors = doc.authors[:3]
    who = ", ".join(authors) + (" et al." if len(doc.authors) > 3 else "") if authors else "Unknown authors"
    what = (doc.label or doc.figure_id) + (f" ({doc.panel_label})" if doc.panel_label else "")
    parts = [f"{what} from {who}"]
    if doc.year:
        parts[0] += f" ({doc.year})"
    if doc.title:
        parts.append(doc.title.rstrip("."))
    if doc.journal:
        parts.append(doc.journal)
    if doc.doi:
        parts.append(f"https://doi.org/{doc.doi}")
    elif doc.pmcid:
        parts.append(f"https://www.ncbi.nlm.nih.gov/pmc/articles/{doc.pmcid}/")
    licence = licence_name(doc.licence_spdx)
    if doc.licence_url:
        licence += f" ({doc.licence_url})"
    parts.append(licence)
    return ". ".join(parts) + "."


class SearchIndex:
    """A read-only view of ``DATASET/search``. Thread-safe: one lock around the SQLite connection."""

    def __init__(self, index_dir: Path, dataset_root: Path | None):
        self.index_dir = index_dir
        self.dataset_root = dataset_root
        db = index_dir / "index.sqlite"
        if not db.is_file():
            raise MedfigError(f"{db}: no search index (run `medfig index {dataset_root or index_dir}` first)")
        self._conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self.meta = dict(self._conn.execute("SELECT key, value FROM meta"))
        if self.meta.get("schema_version") != str(SCHEMA_VERSION):
            raise MedfigError(f"{db}: index format {self.meta.get('schema_version')} is not {SCHEMA_VERSION} "
                              f"(re-run `medfig index`)")
        self.doc_freq = dict(self._conn.execute("SELECT term, df FROM term_df"))
        # dense hits below this cosine are no evidence (store.dense_floor: the index's nonsense baseline)
        self.dense_floor = float(self.meta.get("dense_floor", "-1"))
        self._allowed_cache: dict[tuple, np.ndarray] = {}
        self.vectors: np.ndarray | None = None
        self.vector_ids: np.ndarray | None = None
        vec_file, ids_file = index_dir / "vectors.npy", index_dir / "vector_ids.npy"
        if vec_file.is_file() and ids_file.is_file():
            self.vectors = np.load(vec_file)
            self.vector_ids = np.load(ids_file)

    @classmethod
    def open(cls, dataset: str | Path, index_dir: str | Path | None = None) -> "SearchIndex":
        root = Path(dataset) if dataset is not None else None
        return cls(Path(index_dir) if index_dir else root / INDEX_DIR, root)

    def close(self) -> None:
        self._conn.close()

    @property
    def has_dense(self) -> bool:
        return self.vectors is not None and len(self.vectors) > 0

    def _sql(self, sql: str, params=()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    # ---- filters -------------------------------------------------------------------------------------
    def _filter_sql(self, filters: Filters | None) -> tuple[str, list]:
        """A sub-select of allowed doc ids ('' when nothing is filtered)."""
        if filters is None or not filters.active():
            return "", []
        parts, params = [], []
        if filters.modality:
            parts.append("SELECT doc_id FROM doc_tags WHERE tag='modality' AND value=?")
            params.append(canonical_modality(filters.modality))
        if filters.concept:
            parts.append("SELECT doc_id FROM doc_tags WHERE tag='concept' AND value=?")
            params.append(filters.concept.lower())
        if filters.licence:
            parts.append("SELECT doc_id FROM doc_tags WHERE tag='licence' AND value=?")
            params.append(filters.licence.upper())
        if filters.kind:
            parts.append("SELECT doc_id FROM doc_tags WHERE tag='kind' AND value=?")
            params.append(filters.kind)
        if filters.year_from is not None:
            parts.append("SELECT doc_id FROM docs WHERE year >= ?")
            params.append(int(filters.year_from))
        if filters.year_to is not None:
            parts.append("SELECT doc_id FROM docs WHERE year <= ?")
            params.append(int(filters.year_to))
        return " INTERSECT ".join(parts), params

    def _allowed_ids(self, filters: Filters | None) -> np.ndarray | None:
        """Sorted doc ids passing the filters (None: no filter), cached per distinct filter."""
        allowed, params = self._filter_sql(filters)
        if not allowed:
            return None
        key = (allowed, tuple(params))
        cached = self._allowed_cache.get(key)
        if cached is None:
            cached = np.sort(np.fromiter((d for (d,) in self._sql(allowed, params)), dtype=np.int64))
            with self._lock:  # the web server calls this from several threads
                if len(self._allowed_cache) >= 64:
                    self._allowed_cache.pop(next(iter(self._allowed_cache)))
                self._allowed_cache[key] = cached
        return cached

    # ---- the two retrievers --------------------------------------------------------------------------
    def bm25(self, query: str, n: int = 100, filters: Filters | None = None) -> list[tuple[int, float]]:
        """(doc_id, bm25) best first; FTS5's bm25() is negative, smaller is better, returned negated."""
        expression = fts_match_expression(query, self.doc_freq, BM25_MAX_TERMS)
        if expression is None:
            return []
        allowed, params = self._filter_sql(filters)
        weights = ", ".join(str(w) for w in BM25_WEIGHTS)
        sql = f"SELECT rowid, bm25(fts, {weights}) AS s FROM fts WHERE fts MATCH ?"
        if allowed:
            # "+rowid": keep the filter away from FTS5's planner, which would otherwise run one full-text
            # lookup per allowed document (seconds at 100k); as a plain condition it is a set-membership test.
            sql += f" AND +rowid IN ({allowed})"
        sql += " ORDER BY s LIMIT ?"
        return [(int(doc_id), -float(score)) for doc_id, score in self._sql(sql, (expression, *params, n))]

    def dense(self, query: str, n: int = 100, filters: Filters | None = None) -> list[tuple[int, float]]:
        """(doc_id, cosine) best first, by exact dot product over the normalised matrix; only documents
        at or above the index's dense floor."""
        if not self.has_dense:
            return []
        from medfig.search.encoder import query_encoder

        vector = query_encoder(self.index_dir).encode([query])[0]
        return self.dense_from_vector(vector, n, filters)

    def dense_from_vector(self, vector: np.ndarray, n: int = 100, filters: Filters | None = None):
        """(doc_id, cosine) best first. Filters mask the full score vector: one matrix-vector product
        over all rows costs less than gathering a large filtered sub-matrix."""
        assert self.vectors is not None and self.vector_ids is not None
        scores = self.vectors @ vector
        ids = self.vector_ids
        keep = self._allowed_ids(filters)
        if keep is not None:
            rows = np.searchsorted(self.vector_ids, keep)  # vector_ids is sorted (written ORDER BY doc_id)
            rows = rows[(rows < len(ids)) & (ids[np.minimum(rows, len(ids) - 1)] == keep)]
            if len(rows) == 0:
                return []
            scores, ids = scores[rows], ids[rows]
        above = scores >= self.dense_floor
        if not above.all():
            scores, ids = scores[above], ids[above]
        n = min(n, len(scores))
        if n == 0:
            return []
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in top]

    # ---- the public search ---------------------------------------------------------------------------
    def _check(self, query: str, mode: str) -> str:
        query = (query or "").strip()
        if len(query) > MAX_QUERY_CHARS:
            raise MedfigError(f"query too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
        if mode not in MODES:
            raise MedfigError(f"unknown search mode {mode!r} (choose from {', '.join(MODES)})")
        if mode == "dense" and not self.has_dense:
            raise MedfigError(f"{self.index_dir}: index has no dense vectors (re-run `medfig index` with the "
                              "sentence model installed)")
        return query

    def _ranking(self, query: str, filters: Filters | None, mode: str, depth: int, with_matches: bool = False):
        """(ranked [(doc_id, score)], bm25 ranks, dense ranks, every matching doc id or None).

        A document matches when BM25 finds one of the query's words in it or its cosine to the query
        is at least the index's dense floor; nonsense matches nothing."""
        bm25 = self.bm25(query, depth, filters) if mode in ("fused", "bm25") else []
        vector = None
        if mode in ("fused", "dense") and self.has_dense:
            from medfig.search.encoder import query_encoder

            vector = query_encoder(self.index_dir).encode([query])[0]
        dense = self.dense_from_vector(vector, depth, filters) if vector is not None else []
        bm25_rank = {d: r for r, (d, _) in enumerate(bm25, start=1)}
        dense_rank = {d: r for r, (d, _) in enumerate(dense, start=1)}
        if mode == "fused" and dense:
            ranked = reciprocal_rank_fusion([[d for d, _ in bm25], [d for d, _ in dense]])
        else:
            ranked = bm25 if mode != "dense" else dense
        ranked = self._prefer_named_modality(query, ranked, filters)
        matches = None
        if with_matches:
            matches = set(bm25_rank) | set(dense_rank)
            if mode in ("fused", "bm25") and len(bm25) >= depth:
                matches |= self._bm25_match_ids(query, filters)
            if vector is not None and len(dense) >= depth:
                matches |= {d for d, _ in self.dense_from_vector(vector, len(self.vectors), filters)}
        return ranked, bm25_rank, dense_rank, matches

    def _bm25_match_ids(self, query: str, filters: Filters | None) -> set[int]:
        expression = fts_match_expression(query, self.doc_freq, BM25_MAX_TERMS)
        if expression is None:
            return set()
        allowed, params = self._filter_sql(filters)
        sql = "SELECT rowid FROM fts WHERE fts MATCH ?" + (f" AND +rowid IN ({allowed})" if allowed else "")
        return {d for (d,) in self._sql(sql, (expression, *params))}

    def _prefer_named_modality(self, query: str, ranked, filters: Filters | None):
        """A query that names a modality ("histology of the cyst") ranks documents whose own modality
        evidence is another one (an MRI panel whose caption mentions a histology result) after the
        rest, keeping the order within each group. An explicit modality filter already decides."""
        wanted = modality_of(query)
        if not wanted or not ranked or (filters is not None and filters.modality):
            return ranked
        ids = [d for d, _ in ranked]
        tagged: dict[int, set[str]] = {}
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            for doc_id, value in self._sql(f"SELECT doc_id, value FROM doc_tags WHERE tag='modality' AND doc_id IN "
                                           f"({','.join('?' * len(chunk))})", chunk):
                tagged.setdefault(doc_id, set()).add(value)
        other = {d for d, values in tagged.items() if wanted not in values}
        return [r for r in ranked if r[0] not in other] + [r for r in ranked if r[0] in other]

    def search(self, query: str, k: int = 10, filters: Filters | None = None, mode: str = "fused",
               depth: int = 100) -> list[SearchHit]:
        """The top ``k`` panels/figures in rank order (no paging, no diversification: the raw ranking).
        ``mode``: fused (RRF of BM25 and dense), bm25 or dense."""
        query = self._check(query, mode)
        if not query:
            return []
        ranked, bm25_rank, dense_rank, _ = self._ranking(query, filters, mode, max(depth, k))
        return self._hits(ranked[:k], bm25_rank, dense_rank)

    def search_page(self, query: str, request: PageRequest | None = None, filters: Filters | None = None,
                    mode: str = "fused") -> SearchPage:
        """One page of results, diversified per figure and article, with the number of all matches."""
        request = request or PageRequest()
        query = self._check(query, mode)
        result = SearchPage(query=query, page=request.page, per_page=request.per_page,
                            one_per_figure=request.one_per_figure)
        if not query:
            return result
        ranked, bm25_rank, dense_rank, matches = self._ranking(query, filters, mode, request.depth(), True)
        figure_of = self._figures_of(set(matches) | {d for d, _ in ranked})
        result.figures = len({figure_of[d] for d in matches})
        result.articles = len({figure_of[d][0] for d in matches})
        order = [d for d, _ in ranked]
        if request.one_per_figure:
            order = one_per_figure(order, figure_of)
        result.total = result.figures if request.one_per_figure else len(matches)
        score = dict(ranked)
        chosen = paginate(order, figure_of, request)
        hits = self._hits([(d, score[d]) for d in chosen], bm25_rank, dense_rank)
        for offset, hit in enumerate(hits):
            hit.rank = (request.page - 1) * request.per_page + offset + 1
        result.hits = hits
        return result

    def _figures_of(self, doc_ids: set[int]) -> dict[int, tuple[str, str]]:
        out: dict[int, tuple[str, str]] = {}
        ids = list(doc_ids)
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            for doc_id, article, figure in self._sql(
                    f"SELECT doc_id, article_key, figure_id FROM docs WHERE doc_id IN ({','.join('?' * len(chunk))})",
                    chunk):
                out[doc_id] = (article, figure)
        return out

    def _hits(self, ranked, bm25_rank, dense_rank) -> list[SearchHit]:
        docs = self.docs([d for d, _ in ranked])
        hits = []
        for rank, (doc_id, score) in enumerate(ranked, start=1):
            doc = docs[doc_id]
            cited = [r for r in doc.refs if doc.panel_label and
                     doc.panel_label.lower() in {p.lower() for p in r.get("panels", [])}]
            hits.append(SearchHit(rank=rank, score=round(score, 6), doc_id=doc_id, doc=doc,
                                  bm25_rank=bm25_rank.get(doc_id), dense_rank=dense_rank.get(doc_id),
                                  attribution=attribution_for(doc), cited_panel_refs=cited))
        return hits

    # ---- records -------------------------------------------------------------------------------------
    def docs(self, doc_ids: list[int]) -> dict[int, SearchDoc]:
        if not doc_ids:
            return {}
        rows = self._sql(f"SELECT doc_id, doc_json FROM docs WHERE doc_id IN ({','.join('?' * len(doc_ids))})",
                         doc_ids)
        return {doc_id: SearchDoc(**json.loads(blob)) for doc_id, blob in rows}

    def doc(self, doc_id: int) -> SearchDoc | None:
        return self.docs([doc_id]).get(doc_id)

    def figure_docs(self, article_key: str, figure_id: str) -> list[tuple[int, SearchDoc]]:
        """Every document (all panels, or the whole figure) of one figure, in index order."""
        rows = self._sql("SELECT doc_id, doc_json FROM docs WHERE article_key=? AND figure_id=? ORDER BY doc_id",
                         (article_key, figure_id))
        return [(doc_id, SearchDoc(**json.loads(blob))) for doc_id, blob in rows]

    def count(self) -> int:
        return self._sql("SELECT count(*) FROM docs")[0][0]

    def facet_values(self, tag: str) -> list[tuple[str, int]]:
        return [(v, n) for v, n in self._sql(
            "SELECT value, count(*) FROM doc_tags WHERE tag=? GROUP BY value ORDER BY count(*) DESC", (tag,))]
