"""MedICaT's subfigure-subcaption metric, COCO mAP and the ``medfig evaluate subfigures`` command."""

from __future__ import annotations

import json

import pytest

from medfig.cli import main
from medfig.evaluate.subfigures import caption_tokens, evaluate_subfigures, iou, load_records, medicat_figure_f1s

CAPTION = "Figure 1. (a) axial CT of the liver. (b) coronal MRI of the liver."
# 14 tokens: Figure 1 a axial CT of the liver b coronal MRI of the liver ('of the liver' twice: two positions)


def gold(**kw):
    rec = {
        "figure_key": "f1",
        "caption": CAPTION,
        "width": 200,
        "height": 100,
        "subfigures": [
            {"label": "a", "box": [0, 0, 100, 100], "subcaption": "axial CT of the liver."},
            {"label": "b", "box": [100, 0, 200, 100], "subcaption": "coronal MRI of the liver."},
        ],
    }
    rec.update(kw)
    return rec


def test_iou_matches_medicats_formula():
    assert iou([0, 0, 10, 10], [0, 0, 10, 10]) == 1.0
    assert iou([0, 0, 10, 10], [5, 0, 15, 10]) == pytest.approx(50 / 150)
    assert iou([0, 0, 10, 10], [20, 20, 30, 30]) == 0.0


def test_perfect_prediction_scores_one():
    pred = {"subfigures": [dict(s, score=0.9) for s in gold()["subfigures"]]}
    assert medicat_figure_f1s(gold(), pred) == [1.0, 1.0]


def test_common_tokens_are_removed_from_gold_but_not_from_predictions():
    caption = "Figure 1. CT of the liver: (a) arterial phase, (b) venous phase."
    g = {
        "figure_key": "f2",
        "caption": caption,
        "subfigures": [
            {"label": "a", "box": [0, 0, 100, 100], "subcaption": ["CT of the liver", "arterial phase"]},
            {"label": "b", "box": [100, 0, 200, 100], "subcaption": ["CT of the liver", "venous phase"]},
        ],
    }
    # gold a = {arterial, phase} once the tokens every subcaption shares are removed;
    # the prediction keeps "CT of the liver": precision 2/6, recall 1 -> F1 = 0.5
    pred = {"subfigures": [{"box": [0, 0, 100, 100], "score": 0.9, "subcaption": ["CT of the liver", "arterial phase"]}]}
    f1s = medicat_figure_f1s(g, pred)
    assert f1s[0] == pytest.approx(0.5)
    assert f1s[1] == 0.0  # no predicted box overlaps b


def test_tokens_are_positions_not_strings():
    # "of the liver" of panel b (second occurrence) is not the same tokens as a's
    toks = caption_tokens(CAPTION)
    assert len(toks) == 14
    pred = {"subfigures": [{"box": [0, 0, 100, 100], "score": 0.9, "subcaption_spans": [[CAPTION.index("coronal"), len(CAPTION)]]}]}
    assert medicat_figure_f1s(gold(), pred)[0] == 0.0  # right box, other panel's words: recall 0


def test_a_gold_fragment_that_occurs_twice_is_the_occurrence_after_the_fragment_before_it():
    # elsevier PMC7326430 Fig. 1: "rate" after "(A)" and again after "(B)"; gold b lists its own
    # lead and then "rate", which is B's "rate", not A's
    from medfig.evaluate.subfigures import subcaption_spans

    caption = "A: growth of either (A) rate or (D) cover. B: growth and size of either (B) rate or (E) cover."
    b = {"subcaption": ["growth and size of either", "rate"]}
    spans = subcaption_spans(caption, b)
    assert [caption[s:e] for s, e in spans] == ["growth and size of either", "rate"]
    assert spans[1][0] == caption.index("(B) rate") + 4
    # a fragment found only before the one listed ahead of it is still found
    assert [caption[s:e] for s, e in subcaption_spans(caption, {"subcaption": ["size", "A:"]})] == ["size", "A:"]
    box = [0, 0, 10, 10]
    gold = {"caption": caption, "subfigures": [
        {"box": box, "label": "b", "subcaption": ["growth and size of either", "rate"]},
        {"box": [20, 0, 30, 10], "label": "a", "subcaption": ["growth of either", "rate"]}]}
    pred = {"subfigures": [{"box": box, "score": 1.0, "subcaption": "growth and size of either (B) rate",
                            "subcaption_spans": [[caption.index("growth and"), caption.index(" (B)")],
                                                 [caption.index("(B) rate") + 4, caption.index(" or (E)")]]}]}
    assert medicat_figure_f1s(gold, pred)[0] == pytest.approx(1.0)


def test_iou_below_half_scores_zero_and_low_scores_are_dropped():
    shifted = {"subfigures": [{"box": [60, 0, 160, 100], "score": 0.9, "subcaption": "axial CT"}]}
    assert medicat_figure_f1s(gold(), shifted)[0] == 0.0
    low = {"subfigures": [{"box": [0, 0, 100, 100], "score": 0.5, "subcaption": "axial CT"}]}
    assert medicat_figure_f1s(gold(), low)[0] == 0.0  # MedICaT keeps boxes scoring > 0.7


def test_gold_subfigures_without_subcaption_are_not_scored():
    g = gold()
    g["subfigures"].append({"label": "c", "box": [0, 0, 50, 50], "subcaption": ""})
    assert len(medicat_figure_f1s(g, {"subfigures": []})) == 2


def test_evaluate_reports_map_labels_and_false_splits():
    single = {"figure_key": "s1", "caption": "CT.", "width": 50, "height": 50, "compound": False, "subfigures": []}
    preds = {
        "f1": {"compound": True, "subfigures": [dict(s, score=0.9) for s in gold()["subfigures"]]},
        "s1": {"compound": True, "subfigures": [{"box": [0, 0, 25, 50], "score": 0.9}, {"box": [25, 0, 50, 50], "score": 0.9}]},
    }
    s = evaluate_subfigures([gold(), single], preds)
    assert s.medicat_f1 == 1.0 and s.map_50 == pytest.approx(1.0) and s.label_accuracy == 1.0
    assert s.false_split_rate == 1.0 and s.compound_accuracy == 0.5
    wrong_labels = {"f1": {"compound": True, "subfigures": [dict(s, score=0.9, label="z") for s in gold()["subfigures"]]}}
    assert evaluate_subfigures([gold()], wrong_labels).label_accuracy == 0.0


def test_cli_evaluate_subfigures(tmp_path, capsys):
    g = tmp_path / "gold.json"
    p = tmp_path / "pred.jsonl"
    g.write_text(json.dumps([gold()]))
    p.write_text(json.dumps({"figure_key": "f1", "compound": True, "subfigures": [dict(s, score=0.9) for s in gold()["subfigures"]]}) + "\n")
    assert main(["evaluate", "subfigures", str(p), str(g), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["medicat_f1"] == 1.0 and out["n_scored"] == 2


def test_cli_bad_input_names_the_file(tmp_path, capsys):
    bad = tmp_path / "pred.json"
    bad.write_text("{not json")
    g = tmp_path / "gold.json"
    g.write_text(json.dumps([gold()]))
    assert main(["evaluate", "subfigures", str(bad), str(g)]) == 2
    assert str(bad) in capsys.readouterr().err
    with pytest.raises(ValueError, match="figure_key"):
        (tmp_path / "x.json").write_text(json.dumps([{"subfigures": []}]))
        load_records(tmp_path / "x.json")
