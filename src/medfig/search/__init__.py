"""Figure and panel search over a built dataset: BM25 (SQLite FTS5) + dense vectors, fused by RRF.

    medfig index DATASET            -> DATASET/search/ (incremental)
    medfig search DATASET "lung cyst CT" --modality CT --licence commercial
    medfig serve DATASET            -> http://127.0.0.1:8000

Panels are the unit when the dataset has ``subfigures.parquet``; whole figures otherwise.
"""

from medfig.search.documents import SearchDoc, documents_from_dataset
from medfig.search.query import Filters, SearchHit, SearchIndex, attribution_for
from medfig.search.results import PageRequest, SearchPage
from medfig.search.store import IndexReport, build_index

__all__ = ["SearchDoc", "documents_from_dataset", "Filters", "SearchHit", "SearchIndex", "attribution_for",
           "IndexReport", "build_index", "search_dataset", "PageRequest", "SearchPage"]


def search_dataset(dataset, query: str, k: int = 10, mode: str = "fused", **filters) -> list[SearchHit]:
    """One-shot search of an indexed dataset folder (the notebook form of ``medfig search``)."""
    index = SearchIndex.open(dataset)
    try:
        return index.search(query, k=k, mode=mode, filters=Filters(**filters))
    finally:
        index.close()
