"""Figure/table extraction metrics on PDF pages: DeepFigures' protocol.

DeepFigures (Siegel et al. 2018, ``evaluate``): on each page, predicted and gold boxes
are matched one-to-one by Hungarian assignment maximising IoU (scipy's
``linear_sum_assignment``); a match counts as correct when IoU >= the threshold (0.8 in
the paper). Precision = correct / predicted, recall = correct / gold, F1 their harmonic
mean, pooled over all scored pages. Only pages listed as annotated are scored: a
prediction on a page nobody checked is neither right nor wrong.

:func:`score_boxes` also reports how many correct matches carry the right caption
(predicted name == gold name, e.g. "Figure 3"), the pairing accuracy of the issue's bar.

Boxes: ``[x0, y0, x1, y1]`` in PDF points, origin top-left; pages 0-based.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / ua if ua > 0 else 0.0


@dataclass(slots=True)
class BoxScore:
    """Counts and rates at one IoU threshold. ``named_correct``: correct matches whose
    predicted name equals the gold name (caption paired right); ``ious``: IoU of every
    Hungarian match (correct or not), for box-tightness statistics."""

    threshold: float
    n_pred: int = 0
    n_gold: int = 0
    correct: int = 0
    named_correct: int = 0
    ious: list[float] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def pairing_accuracy(self) -> float:
        return self.named_correct / self.correct if self.correct else 0.0

    def add(self, other: "BoxScore") -> None:
        self.n_pred += other.n_pred
        self.n_gold += other.n_gold
        self.correct += other.correct
        self.named_correct += other.named_correct
        self.ious.extend(other.ious)


def score_page(pred: list[dict], gold: list[dict], threshold: float = 0.8) -> BoxScore:
    """One page. Items: ``{"box": [x0,y0,x1,y1], "name": str (optional)}``."""
    s = BoxScore(threshold, n_pred=len(pred), n_gold=len(gold))
    if not pred or not gold:
        return s
    m = np.array([[iou(p["box"], g["box"]) for g in gold] for p in pred])
    rows, cols = linear_sum_assignment(-m)
    for i, j in zip(rows, cols):
        if m[i, j] <= 0:
            continue
        s.ious.append(float(m[i, j]))
        if m[i, j] >= threshold:
            s.correct += 1
            if pred[i].get("name") and pred[i].get("name") == gold[j].get("name"):
                s.named_correct += 1
    return s


def score_boxes(pred: list[dict], gold: list[dict], pages: set[int] | None = None, threshold: float = 0.8,
                fig_type: str | None = None) -> BoxScore:
    """Score one paper. Items carry ``page``, ``box`` and optionally ``name``/``fig_type``.

    ``pages``: the annotated pages (None: every page that has a gold item). ``fig_type``
    ("Figure"/"Table") restricts both sides to that type; None scores all boxes together.
    """
    if pages is None:
        pages = {g["page"] for g in gold}
    by_page_p, by_page_g = defaultdict(list), defaultdict(list)
    for p in pred:
        if p["page"] in pages and p.get("box") and (fig_type is None or p.get("fig_type", "Figure") == fig_type):
            by_page_p[p["page"]].append(p)
    for g in gold:
        if g["page"] in pages and (fig_type is None or g.get("fig_type", "Figure") == fig_type):
            by_page_g[g["page"]].append(g)
    total = BoxScore(threshold)
    for page in pages:
        total.add(score_page(by_page_p.get(page, []), by_page_g.get(page, []), threshold))
    return total
