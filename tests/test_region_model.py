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


HINDAWI = DATA / "pmc_hindawi_xml_pdf" / "PMC4657150" / "fulltext.pdf"


def _page_evidence(pdf: Path, index: int):
    from medfig.pdf.captions import find_captions
    from medfig.pdf.document import open_pdf, read_pdf_bytes
    from medfig.pdf.page import read_page
    from medfig.pdf.region_features import page_evidence

    doc, pages = open_pdf(*read_pdf_bytes(pdf))
    try:
        page = read_page(pages.pages[index], index)
    finally:
        pages.close()
        doc.close()
    captions = find_captions(page)
    return page_evidence(page, None, captions), {c.name: c for c in captions}


def test_features_read_the_page_hindawi_two_columns():
    """PMC4657150 page 3 (Hindawi, two columns of 240 pt): Figure 3's art fills the left column
    above its caption; the right column beside it holds body text. Expected values read off the
    page's lines by hand: the art box holds no body line, its caption starts 9.8 pt (0.98 body
    line heights) below it; widened across the gutter it takes in the right column's 13 body
    lines between y 346 and 504 (the 14-character line "tosis [9, 10]." is not a body line)."""
    from medfig.pdf.region_features import features

    ev, caps = _page_evidence(HINDAWI, 3)
    art = (54.11, 346.74, 286.64, 501.53)  # the gold box of Figure 3
    wide = (54.11, 346.74, 548.8, 501.53)
    f = dict(zip(FEATURES, features(ev, caps["Figure 3"], art)))
    g = dict(zip(FEATURES, features(ev, caps["Figure 3"], wide)))
    assert ev.column_width == pytest.approx(240.1, abs=0.2)
    assert f["body_lines"] == 0 and g["body_lines"] == 13
    assert f["caption_side"] == 1.0 and f["caption_gap"] == pytest.approx(0.98, abs=0.01)
    assert f["caption_inside"] == 0.0 and f["other_caption_inside"] == 0.0
    assert f["width_column"] == pytest.approx((286.64 - 54.11) / 240.1, abs=0.01)
    assert f["text_width_columns"] == pytest.approx((548.8 - 50.6) / 240.1, abs=0.01)
    assert f["crosses_middle"] == 0.0 and g["crosses_middle"] == 1.0
    assert f["det_iou"] == 0.0  # no detector on this call


def test_model_takes_the_whole_figure_where_the_rule_region_cut_its_top_row():
    """PMC4745298 (Hindawi) page 2, Figure 3: the detector box misses the figure's top strip
    (y 74-88) and the rule region keeps the detector's part (IoU 0.87 with the gold box, a miss
    at IoU 0.9); the model takes the union with the drawn cluster above it, the whole figure."""
    from medfig.pdf.extract import extract_pdf

    pdf = DATA / "pmc_hindawi_xml_pdf" / "PMC4745298" / "fulltext.pdf"
    gold = (164.34, 74.33, 434.43, 182.02)  # benchmarks/gold/pdf_figures/gold.json
    boxes = {}
    for picker in (RULES, MODEL):
        (fig,) = [f for f in extract_pdf(pdf, region_picker=picker).figures if f.name == "Figure 3"]
        boxes[picker] = fig
    assert boxes[RULES].page == boxes[MODEL].page == 2
    assert iou(boxes[RULES].box_pt, gold) < 0.9
    assert iou(boxes[MODEL].box_pt, gold) >= 0.95
    assert boxes[MODEL].source.endswith("+model-union")
