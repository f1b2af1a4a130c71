"""ImageCLEF concept detection F1: hand-computed fixtures, the evaluator's edge cases, the CLI."""

from __future__ import annotations

import json

import pytest

from medfig.cli import main
from medfig.evaluate.concept_metrics import (
    concept_f1,
    concept_scores,
    image_f1,
    read_concepts_csv,
    write_concepts_csv,
)
from medfig.records import MedfigError

# Three gold images, by hand (F1 = 2|P∩G| / (|P|+|G|)):
#   img1 gold {C1,C2,C3}, pred {C1,C2,C7}: 2*2/(3+3) = 2/3
#   img2 gold {C4},       pred {C4,C1}:    2*1/(2+1) = 2/3
#   img3 gold {C5,C6},    no prediction:   empty prediction -> 0
#   sample-averaged F1 = (2/3 + 2/3 + 0) / 3 = 4/9
GOLD = {"img1": frozenset({"C1", "C2", "C3"}), "img2": frozenset({"C4"}), "img3": frozenset({"C5", "C6"})}
PRED = {"img1": frozenset({"C1", "C2", "C7"}), "img2": frozenset({"C4", "C1"})}
# Manual concepts {C1, C4} (every CUI of the manual gold file); predictions restricted to them:
#   img1 manual gold {C1}, pred {C1,C2,C7} -> {C1}:    1
#   img2 manual gold {C4}, pred {C4,C1}    -> {C4,C1}: 2*1/(2+1) = 2/3
#   img3 manual gold {},   no prediction:  no manual concept, left out (as ImageCLEF's secondary score)
#   f1_manual = (1 + 2/3) / 2 = 5/6   (scoring img3 as "both empty = 1" would give 8/9)
MANUAL = {"img1": frozenset({"C1"}), "img2": frozenset({"C4"}), "img3": frozenset()}


def test_hand_computed_three_images():
    assert concept_f1(PRED, GOLD) == pytest.approx(4 / 9, abs=1e-12)
    assert concept_scores(PRED, GOLD) == {"f1": pytest.approx(4 / 9, abs=1e-12), "f1_manual": None, "images": 3}


def test_secondary_score_on_manual_concepts():
    scores = concept_scores(PRED, GOLD, MANUAL)
    assert scores["f1_manual"] == pytest.approx(5 / 6, abs=1e-12)
    assert concept_scores(PRED, GOLD, MANUAL, empty_gold="skip")["f1_manual"] == pytest.approx(5 / 6, abs=1e-12)
    # the manual set can be given: with {C1} only, img2 drops out too (gold {C4} -> {}): img1 alone -> 1
    assert concept_scores(PRED, GOLD, MANUAL, manual_cuis={"C1"})["f1_manual"] == 1.0
    # a manual file without any concept: nothing to score
    assert concept_scores(PRED, GOLD, {"img1": frozenset()})["f1_manual"] is None


def test_predicting_no_manual_concept_scores_zero_not_the_share_of_empty_images():
    # 3 of 4 images have no manual concept; a run that predicts none must not score 3/4
    manual = {"a": frozenset({"C1"}), "b": frozenset(), "c": frozenset(), "d": frozenset()}
    gold = {i: frozenset({"C9"}) | cuis for i, cuis in manual.items()}
    pred = {i: frozenset({"C9"}) for i in manual}
    assert concept_scores(pred, gold, manual)["f1_manual"] == 0.0


def test_both_empty_scores_one_and_empty_gold_with_prediction_scores_zero():
    assert image_f1(frozenset(), frozenset()) == 1.0
    assert image_f1(frozenset({"C1"}), frozenset()) == 0.0
    gold = {"a": frozenset(), "b": frozenset(), "c": frozenset({"C1"})}
    pred = {"a": frozenset(), "b": frozenset({"C9"}), "c": frozenset({"C1"})}
    # a: both empty 1, b: gold empty but predicted 0, c: exact 1 -> 2/3
    assert concept_f1(pred, gold) == pytest.approx(2 / 3)
    # ImageCLEF's evaluator drops a and b (empty gold) from the average: only c -> 1
    assert concept_f1(pred, gold, empty_gold="skip") == 1.0
    assert concept_scores(pred, gold, empty_gold="skip")["images"] == 1


def test_cuis_compared_upper_cased_as_imageclef():
    assert concept_f1({"a": {"c0040405 "}}, {"a": {"C0040405"}}) == 1.0


def test_prediction_for_unknown_image_is_rejected_as_imageclef_does():
    with pytest.raises(MedfigError, match="not in the gold set.*'zzz'"):
        concept_f1({"zzz": {"C1"}}, GOLD)


def test_per_image_f1_equals_sklearn_binary_f1_as_the_evaluator_computes_it():
    metrics = pytest.importorskip("sklearn.metrics")
    cases = [({"C1", "C2", "C7"}, {"C1", "C2", "C3"}), ({"C4", "C1"}, {"C4"}), (set(), {"C5", "C6"}),
             ({"C1", "C2", "C3", "C4"}, {"C9"})]
    for predicted, gold in cases:
        labels = sorted(predicted | gold)  # ImageCLEF: binary vectors over the union of both sets
        y_true = [int(c in gold) for c in labels]
        y_pred = [int(c in predicted) for c in labels]
        assert image_f1(frozenset(predicted), frozenset(gold)) == pytest.approx(
            metrics.f1_score(y_true, y_pred, average="binary", zero_division=0.0))


def test_read_write_round_trip_and_empty_cuis(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("ID,CUIs\nimg1,C2;C1\nimg2,\nimg3\n", encoding="utf-8")
    assert read_concepts_csv(path) == {"img1": {"C1", "C2"}, "img2": frozenset(), "img3": frozenset()}
    out = tmp_path / "out.csv"
    write_concepts_csv(out, {"x": {"C2", "C1"}, "y": set()})
    assert out.read_text(encoding="utf-8") == "ID,CUIs\nx,C1;C2\ny,\n"
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


@pytest.mark.parametrize("text, problem", [
    ("Image,Concepts\na,C1\n", "line 1: header must be 'ID,CUIs'"),
    ("ID,CUIs\na,C1\na,C2\n", "line 3: image ID 'a' given twice"),
    ("ID,CUIs\na,C1,C2\n", "line 2: expected 'ID,CUI;CUI;...'"),
    ("ID,CUIs\n,C1\n", "line 2: empty image ID"),
])
def test_bad_file_names_file_and_line(tmp_path, text, problem):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MedfigError) as info:
        read_concepts_csv(path)
    assert str(path) in str(info.value) and problem in str(info.value)


def _write(path, rows):
    write_concepts_csv(path, rows)
    return str(path)


def test_cli_json_and_table(tmp_path, capsys):
    pred = _write(tmp_path / "pred.csv", PRED)
    gold = _write(tmp_path / "gold.csv", GOLD)
    manual = _write(tmp_path / "manual.csv", MANUAL)
    assert main(["evaluate", "concepts", pred, gold, "--manual", manual, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"f1": pytest.approx(4 / 9), "f1_manual": pytest.approx(5 / 6), "images": 3}
    assert "1 of 3 gold images have no prediction" in err
    assert main(["evaluate", "concepts", pred, gold]) == 0
    out, _ = capsys.readouterr()
    assert "F1          0.4444" in out and "images      3" in out


def test_cli_bad_header_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "pred_bad.csv"
    bad.write_text("ID;CUIs\na;C1\n", encoding="utf-8")
    gold = _write(tmp_path / "gold.csv", GOLD)
    assert main(["evaluate", "concepts", str(bad), gold]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "pred_bad.csv" in err and "header" in err


def test_cli_unknown_prediction_id_exit_2(tmp_path, capsys):
    pred = _write(tmp_path / "pred.csv", {**PRED, "stranger": {"C1"}})
    gold = _write(tmp_path / "gold.csv", GOLD)
    assert main(["evaluate", "concepts", pred, gold]) == 2
    err = capsys.readouterr().err
    assert "pred.csv" in err and "'stranger'" in err and "not in" in err


def test_real_roco_concepts_perfect_and_frequency_baseline(data_dir, tmp_path):
    """Gold = ROCO test radiology CUIs (real); predicting gold scores 1, a 3-most-frequent baseline less."""
    rows = {}
    for line in (data_dir / "roco_v1_text/data/test/radiology/cuis.txt").read_text(encoding="utf-8").splitlines()[:300]:
        image_id, *cuis = line.split("\t")
        rows[image_id] = frozenset(c for c in cuis if c)
    gold_path = _write(tmp_path / "gold.csv", rows)
    gold = read_concepts_csv(gold_path)
    assert len(gold) == 300 and any(not cuis for cuis in gold.values())  # ROCO has images without CUIs
    assert concept_f1(gold, gold) == 1.0
    counts: dict[str, int] = {}
    for cuis in gold.values():
        for cui in cuis:
            counts[cui] = counts.get(cui, 0) + 1
    top3 = frozenset(sorted(counts, key=lambda c: (-counts[c], c))[:3])
    baseline = concept_f1({i: top3 for i in gold}, gold)
    assert 0.0 < baseline < 0.5
