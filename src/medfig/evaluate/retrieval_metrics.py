"""Recall@K for image-text matching over a candidate pool (MedICaT's Table 3 protocol).

The input is a similarity matrix: row i is query i (an image, for image -> text), column j is
candidate j (a caption), and the right candidate of query i is column i. Columns past the
last row are extra distractors. Recall@K is the fraction of queries whose right candidate is
among the K most similar; the pool is whatever the matrix holds (MedICaT ranks the captions of
the test split for each test image, and the reverse for text -> image: the transposed matrix).

Ties are broken **pessimistically**: the right candidate's rank is 1 + the number of other
candidates scoring at least as high, so a constant similarity scores R@1 = 0, not 1 (a model
that cannot tell candidates apart gets no credit). K at or above the pool size gives 1.0.

File contract for the CLI: a NumPy ``.npy`` file holding one 2-D float array, queries x
candidates, at least as many candidates as queries, every value finite.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from medfig.records import MedfigError

DEFAULT_KS: tuple[int, ...] = (1, 5, 10, 20)


def check_similarity(similarity: np.ndarray, *, source: str = "similarity matrix") -> np.ndarray:
    """The matrix as float64, or ``MedfigError`` (naming ``source``) when it is not 2-D, has fewer
    candidates than queries, no queries, or a value that is not finite."""
    array = np.asarray(similarity)
    if array.ndim != 2:
        raise MedfigError(f"{source}: expected a 2-D queries x candidates matrix, got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.number) or np.issubdtype(array.dtype, np.complexfloating):
        raise MedfigError(f"{source}: expected real numbers, got dtype {array.dtype}")
    queries, candidates = array.shape
    if queries == 0:
        raise MedfigError(f"{source}: no queries (shape {array.shape})")
    if candidates < queries:
        raise MedfigError(f"{source}: {queries} queries but only {candidates} candidates; the right candidate "
                          f"of query i is column i, so there must be at least as many columns as rows")
    array = array.astype(np.float64, copy=False)
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        row, col = bad[0]
        raise MedfigError(f"{source}: {len(bad)} value(s) not finite, e.g. row {row}, column {col}")
    return array


def ranks_of_correct(similarity: np.ndarray) -> np.ndarray:
    """1-based rank of each query's right candidate (column i for row i), ties counted against it."""
    array = check_similarity(similarity)
    rows = np.arange(array.shape[0])
    correct = array[rows, rows][:, None]
    # every candidate at least as similar as the right one, the right one included: rank 1 means alone at the top
    return (array >= correct).sum(axis=1).astype(np.int64)


def recall_from_ranks(ranks: Iterable[int] | np.ndarray, ks: Iterable[int] = DEFAULT_KS) -> dict[int, float]:
    """``{K: fraction of ranks <= K}`` for 1-based ranks."""
    rank_array = np.asarray(list(ranks) if not isinstance(ranks, np.ndarray) else ranks)
    if rank_array.size == 0:
        raise MedfigError("no ranks to score")
    if (rank_array < 1).any():
        raise MedfigError(f"ranks are 1-based; got {int(rank_array.min())}")
    ks = _checked_ks(ks)
    return {k: float((rank_array <= k).mean()) for k in ks}


def recall_at_k(similarity: np.ndarray, ks: Iterable[int] = DEFAULT_KS) -> dict[int, float]:
    """Recall@K of a queries x candidates similarity matrix whose right pairs lie on the diagonal."""
    return recall_from_ranks(ranks_of_correct(similarity), ks)


def _checked_ks(ks: Iterable[int]) -> tuple[int, ...]:
    values = tuple(int(k) for k in ks)
    if not values or any(k < 1 for k in values):
        raise MedfigError(f"K values must be positive integers, got {values}")
    return values


def parse_ks(text: str) -> tuple[int, ...]:
    """``"1,5,10,20"`` -> ``(1, 5, 10, 20)``; ``MedfigError`` on anything else."""
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError as exc:
        raise MedfigError(f"--k: expected comma-separated positive integers like 1,5,10,20, got {text!r}") from exc
    return _checked_ks(values)


def load_similarity_npy(path: str | Path) -> np.ndarray:
    """Read and check a ``.npy`` similarity matrix (no pickles); ``MedfigError`` naming the file otherwise."""
    path = Path(path)
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise MedfigError(f"{path}: not a readable .npy array ({exc})") from exc
    if not isinstance(array, np.ndarray):  # an .npz archive opens as a mapping
        raise MedfigError(f"{path}: expected one array in a .npy file, got {type(array).__name__}")
    return check_similarity(array, source=str(path))
