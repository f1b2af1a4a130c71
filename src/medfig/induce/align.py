"""Fuzzy substring search: Wagner–Fischer edit distance with a free start and end.

To find where a JATS caption sits in a page's text we need the substring of the page
text that is closest (in edit distance) to the caption: a semi-global alignment. The
classic Wagner–Fischer table is filled with row 0 set to zeros (the match may start
at any text position for free) and the answer is the minimum of the last row (it may
end anywhere). O(len(needle) x len(text)) time, O(len(text)) memory.

Each row is computed with numpy: substitutions and deletions depend only on the row
above; insertions (a move along the row) are ``D[j] = min_k<=j (T[k] + j - k)``, i.e.
``j + cummin(T - k)``, an exact vectorisation of the left-to-right recurrence. The
start of the best alignment is carried along the table with each cell's predecessor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from medfig.text.labels import alnum  # noqa: F401  (re-export: alnum lived here)


@dataclass(frozen=True, slots=True)
class Alignment:
    """Best match of a needle inside a text: ``text[start:end]`` at ``distance`` edits.

    ``score`` = 100 * (1 - distance / len(needle)), clipped at 0 (100: exact substring).
    """

    distance: int
    start: int
    end: int
    score: float


def semiglobal_align(needle: str, text: str) -> Alignment:
    """The substring of ``text`` with the smallest Levenshtein distance to ``needle``.

    Ties: the match ending first wins; ``start`` is the start of an optimal alignment ending there.
    An empty needle matches the empty string at 0; an empty text costs ``len(needle)``.
    """
    m, n = len(needle), len(text)
    if m == 0:
        return Alignment(0, 0, 0, 100.0)
    if n == 0:
        return Alignment(m, 0, 0, 0.0)
    b = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    a = np.frombuffer(needle.encode("utf-32-le"), dtype=np.uint32)
    cols = np.arange(n + 1, dtype=np.int64)
    dist = np.zeros(n + 1, dtype=np.int64)  # row 0: free start
    start = cols.copy()  # the alignment ending in column j of row 0 starts at j
    for i in range(1, m + 1):
        sub = dist[:-1] + (b != a[i - 1])  # diagonal: D[i-1][j-1] + mismatch
        dele = dist[1:] + 1  # vertical: D[i-1][j] + 1 (needle char unmatched)
        t = np.empty(n + 1, dtype=np.int64)
        t_start = np.empty(n + 1, dtype=np.int64)
        t[0] = i  # column 0: the needle's first i chars deleted
        t_start[0] = 0
        use_sub = sub <= dele
        t[1:] = np.where(use_sub, sub, dele)
        t_start[1:] = np.where(use_sub, start[:-1], start[1:])
        # insertions along the row: D[j] = min_{k<=j} t[k] + (j - k)
        v = t - cols
        run_min = np.minimum.accumulate(v)
        best_k = np.maximum.accumulate(np.where(v <= run_min, cols, 0))
        dist = run_min + cols
        start = t_start[best_k]
    end = int(np.argmin(dist))
    d = int(dist[end])
    return Alignment(d, int(start[end]), end, max(0.0, 100.0 * (1.0 - d / m)))
