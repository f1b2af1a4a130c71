"""A learned choice of each caption's figure box among candidates (DeepFigures' lesson: learn the
judgement calls from labels instead of adding rules).

:mod:`medfig.pdf.region_features` proposes a handful of boxes per paired figure caption and
describes each with page evidence; a shallow gradient-boosted tree ensemble, trained by
``tools/train_region_model.py`` on the hand-checked gold of the development publishers and
shipped as JSON (``models/region_model.json``), scores how likely each box is the figure
(IoU >= 0.9 with the gold box) from the page's evidence alone. The model overrides the rule
region only when it judges that region wrong (P < 0.5) and another candidate right (P > 0.5):
the classifier's own decision boundary, no tuned margin. Evaluation uses numpy only:
scikit-learn is needed to train, not to run.

A *region picker* is what :func:`medfig.pdf.extract.extract_pdf` calls for every paired
figure: ``picker(evidence, caption, region) -> Region``. :data:`MODEL` (the default) lets the
shipped model choose; :data:`RULES` keeps the rule region; the trainer passes a picker that
records the candidates. Why the model is the default: leave-one-publisher-out on the development
gold ties with the rules (0.989 / 0.981 vs 0.994 / 0.981 at IoU 0.8 / 0.9), a comparison that
favours the rules, which were tuned on every one of those publishers; on the five held-out
publishers, which neither saw in training, the model scores 0.647 / 0.532 against the rules'
0.604 / 0.460 (``benchmarks/figure_extraction.py --gold-set dev --split heldout``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

from medfig.pdf.region_features import FEATURES, PageEvidence, candidates, features
from medfig.pdf.regions import Region
from medfig.pdf.types import PdfCaption
from medfig.records import MedfigError

MODEL_PATH = Path(__file__).parent / "models" / "region_model.json"
RULES = "rules"  # the region_picker that keeps the rule path's region
MODEL = "model"  # the region_picker that lets the shipped model choose

Picker = Callable[[PageEvidence, PdfCaption, Region], Region]


@dataclass(slots=True)
class TreeEnsemble:
    """A binary gradient-boosted tree ensemble (scikit-learn's ``GradientBoostingClassifier``,
    log-loss) as arrays: ``P(y=1) = sigmoid(init + rate * sum of leaf values)``."""

    features: tuple[str, ...]
    init: float
    rate: float
    trees: list[dict[str, np.ndarray]]  # feature, threshold, left, right, value per node

    def decision(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float).reshape(-1, len(self.features))
        raw = np.full(len(X), self.init)
        rows = np.arange(len(X))
        for t in self.trees:
            node = np.zeros(len(X), dtype=int)
            for _ in range(64):  # deeper than any tree shipped
                leaf = t["left"][node] < 0
                if leaf.all():
                    break
                go_left = X[rows, np.maximum(t["feature"][node], 0)] <= t["threshold"][node]
                node = np.where(leaf, node, np.where(go_left, t["left"][node], t["right"][node]))
            raw += self.rate * t["value"][node]
        return raw

    def probability(self, X: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.decision(X)))

    @classmethod
    def from_sklearn(cls, clf, features: tuple[str, ...] = FEATURES) -> "TreeEnsemble":
        """A fitted binary ``GradientBoostingClassifier`` (log-loss, prior init) as arrays; reads its
        attributes only, so scikit-learn is not imported here."""
        prior = float(clf.init_.class_prior_[1])
        trees = [{"feature": est.tree_.feature.astype(int), "threshold": est.tree_.threshold.astype(float),
                  "left": est.tree_.children_left.astype(int), "right": est.tree_.children_right.astype(int),
                  "value": est.tree_.value[:, 0, 0].astype(float)} for (est,) in clf.estimators_]
        return cls(tuple(features), float(np.log(prior / (1 - prior))), float(clf.learning_rate), trees)

    def to_json(self) -> dict:
        return {"kind": "gradient-boosted-trees", "features": list(self.features), "init": self.init, "rate": self.rate,
                "trees": [{k: v.tolist() for k, v in t.items()} for t in self.trees]}

    @classmethod
    def from_json(cls, doc: dict, source: str = "") -> "TreeEnsemble":
        try:
            trees = [{"feature": np.asarray(t["feature"], dtype=int), "threshold": np.asarray(t["threshold"], dtype=float),
                      "left": np.asarray(t["left"], dtype=int), "right": np.asarray(t["right"], dtype=int),
                      "value": np.asarray(t["value"], dtype=float)} for t in doc["trees"]]
            return cls(tuple(doc["features"]), float(doc["init"]), float(doc["rate"]), trees)
        except (KeyError, TypeError, ValueError) as exc:
            raise MedfigError(f"{source}: not a region model ({type(exc).__name__}: {exc})") from exc


@lru_cache(maxsize=4)
def load_model(path: str | Path = MODEL_PATH) -> TreeEnsemble:
    """The shipped model (once per process); a missing or foreign file is a one-line error."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise MedfigError(f"{path}: cannot read the region model ({type(exc).__name__}: {exc})") from exc
    model = TreeEnsemble.from_json(doc.get("model", doc), str(path))
    if not set(model.features) <= set(FEATURES):
        raise MedfigError(f"{path}: the region model was trained on other features than this medfig computes; "
                          f"retrain it with tools/train_region_model.py")
    return model


def model_picker(model: TreeEnsemble | None = None) -> Picker:
    """A picker that scores the candidates with ``model`` (default: the shipped one) and keeps the best."""

    def pick(ev: PageEvidence, caption: PdfCaption, region: Region) -> Region:
        m = model or load_model()
        cands = candidates(ev, caption, region)
        if len(cands) < 2:
            return region
        rows = np.array([features(ev, caption, box) for box, _ in cands])
        best = override(m.probability(rows[:, [FEATURES.index(f) for f in m.features]]), rows)
        if best is None:
            return region
        box, origin = cands[best]
        return Region(box, region.kind, f"{region.source}+model-{origin}", region.score)

    return pick


_CAPTION_COLUMNS = (FEATURES.index("caption_inside"), FEATURES.index("other_caption_inside"))


def override(scores: np.ndarray, rows: np.ndarray) -> int | None:
    """The candidate that replaces the rule region (``scores[0]``), or None: only when the model
    calls the rule region wrong and the best other candidate right (both at P = 0.5). A box
    holding most of a caption is never a figure (by definition, not by a fitted rule), so it
    cannot replace the rule region whatever its score."""
    scores = np.where((rows[:, _CAPTION_COLUMNS] > 0.5).any(axis=1), 0.0, scores)
    best = int(np.argmax(scores[1:])) + 1 if len(scores) > 1 else 0
    return best if best != 0 and scores[best] > 0.5 > scores[0] else None


def resolve_picker(picker: Picker | str | None) -> Picker | None:
    """:data:`RULES` or None -> no picker (rule regions kept); :data:`MODEL` -> the shipped model; a callable as is."""
    if picker is None or picker == RULES:
        return None
    if picker == MODEL:
        return model_picker()
    if callable(picker):
        return picker
    raise MedfigError(f"region_picker: expected {RULES!r}, {MODEL!r} or a callable, got {picker!r}")
