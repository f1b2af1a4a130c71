"""Reciprocal-rank fusion (Cormack et al. 2009): score(d) = sum over lists of 1 / (k + rank(d))."""

from __future__ import annotations

from collections.abc import Sequence

RRF_K = 60  # the paper's constant: damps the influence of the very top ranks


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    """Fuse ranked lists of doc ids (best first) into one list of (doc_id, score), best first.

    Ties keep the order in which documents were first seen, so the result is deterministic.
    """
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, doc_id in enumerate(ranking, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda item: -item[1])
