"""DeepFigures' box metric: per-page Hungarian assignment, correct at IoU >= threshold."""

from medfig.evaluate.figure_protocols import score_boxes, score_page
from medfig.geometry import iou


def test_iou_exact_values():
    assert iou([0, 0, 10, 10], [0, 0, 10, 10]) == 1.0
    assert iou([0, 0, 10, 10], [5, 0, 15, 10]) == 50 / 150
    assert iou([0, 0, 10, 10], [20, 20, 30, 30]) == 0.0


def test_hungarian_is_one_to_one_and_thresholded():
    gold = [{"box": [0, 0, 100, 100], "name": "Figure 1"}, {"box": [0, 200, 100, 300], "name": "Figure 2"}]
    # one prediction covering both gold boxes can match at most one of them (and badly)
    s = score_page([{"box": [0, 0, 100, 300], "name": "Figure 1"}], gold, 0.8)
    assert (s.n_pred, s.n_gold, s.correct) == (1, 2, 0)
    # IoU 0.81 counts, 0.79 not
    s = score_page([{"box": [0, 0, 100, 81], "name": "Figure 1"}, {"box": [0, 200, 100, 279], "name": "Figure 9"}], gold, 0.8)
    assert s.correct == 1 and s.named_correct == 1
    assert abs(s.precision - 0.5) < 1e-9 and abs(s.recall - 0.5) < 1e-9


def test_only_annotated_pages_are_scored_and_types_filter():
    gold = [{"page": 0, "box": [0, 0, 10, 10], "fig_type": "Table"}]
    pred = [{"page": 0, "box": [0, 0, 10, 10], "fig_type": "Table"}, {"page": 3, "box": [0, 0, 5, 5]}]
    s = score_boxes(pred, gold, {0})
    assert (s.n_pred, s.correct, s.f1) == (1, 1, 1.0)
    assert score_boxes(pred, gold, {0}, fig_type="Figure").n_gold == 0
