"""Concept detection scores: micro precision/recall/F1 and ImageCLEF/ROCOv2 sample-averaged F1.

Sample-averaged F1 follows the ImageCLEF concept-detection evaluation: F1 of the
predicted vs gold set per image, averaged over images; an image whose gold and
prediction are both empty scores 1, one with exactly one of them empty scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass
class ConceptScores:
    tp: int
    fp: int
    fn: int
    sample_f1: float
    n: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def score(gold: Mapping[str, Iterable[str]], pred: Mapping[str, Iterable[str]],
          keep: set[str] | None = None) -> ConceptScores:
    """Compare per-id concept sets; ``keep`` restricts both sides to a set of concepts."""
    tp = fp = fn = 0
    f1s = []
    for key, g in gold.items():
        gs = set(g)
        ps = set(pred.get(key, ()))
        if keep is not None:
            gs &= keep
            ps &= keep
        t = len(gs & ps)
        tp += t
        fp += len(ps - gs)
        fn += len(gs - ps)
        if not gs and not ps:
            f1s.append(1.0)
        elif not gs or not ps:
            f1s.append(0.0)
        else:
            f1s.append(2 * t / (len(gs) + len(ps)))
    return ConceptScores(tp, fp, fn, sum(f1s) / len(f1s) if f1s else 0.0, len(f1s))
