"""Caption metrics: ImageCLEF preprocessing, hand-computed BLEU-1 / ROUGE-L, pycocoevalcap agreement,
METEOR / BERTScore availability, the ROCOv2 CSV reader and the CLI."""

from __future__ import annotations

import json
import math

import pytest

from medfig.cli import main
from medfig.evaluate import caption_metrics
from medfig.evaluate.caption_metrics import (
    MetricUnavailableWarning,
    caption_scores,
    preprocess_caption,
    read_captions_csv,
    write_captions_csv,
)
from medfig.records import MedfigError


@pytest.mark.parametrize("raw, expected", [
    # lower-case; digit runs -> "number" first, then ASCII punctuation deleted (not spaced): 3.5 -> numbernumber
    ("CT of the Chest, 3.5 cm mass (T2-weighted).", "ct of the chest numbernumber cm mass tnumberweighted"),
    ("Axial  MRI:\tL4/L5 disc!", "axial mri lnumberlnumber disc"),
    ("Size 12×8 mm – arrow", "size number×number mm – arrow"),  # non-ASCII punctuation stays, as in ImageCLEF
    ("", ""),
])
def test_preprocessing_as_imageclef(raw, expected):
    assert preprocess_caption(raw) == expected


# Two captions, by hand (already preprocessed):
#   a: gold "the cat sat on the mat" (6 tokens), pred "the cat on the mat" (5)
#   b: gold "a dog runs" (3),                    pred "a dog" (2)
# BLEU-1 (corpus): clipped unigram matches 5 + 2 = 7 of 7 predicted -> precision 1;
#   brevity penalty exp(1 - 9/7) = exp(-2/7) = 0.751477
# ROUGE-L (pycocoevalcap, beta = 1.2): F = (1 + b^2) P R / (R + b^2 P)
#   a: LCS 5, P 5/5, R 5/6: 2.44 * 5/6 / (5/6 + 1.44) = 12.2 / 13.64 = 0.894428
#   b: LCS 2, P 2/2, R 2/3: 2.44 * 2/3 / (2/3 + 1.44) = 4.88 / 6.32  = 0.772152
#   mean = 0.833290
HAND_GOLD = {"a": "The cat sat on the mat.", "b": "A dog runs!"}
HAND_PRED = {"a": "the cat, on the mat", "b": "A dog"}


@pytest.fixture(scope="module")
def hand_scores():
    return caption_scores(HAND_PRED, HAND_GOLD, bertscore=False, meteor=False)


@pytest.fixture(scope="module")
def meteor():
    """One pycocoevalcap METEOR process (Java, seconds to start) for this module, used as medfig's too."""
    from pycocoevalcap.meteor.meteor import Meteor

    scorer = Meteor()
    saved, caption_metrics._meteor_scorer = caption_metrics._meteor_scorer, scorer
    yield scorer
    caption_metrics._meteor_scorer = saved


def test_hand_computed_bleu1_and_rouge_l(hand_scores):
    assert hand_scores["bleu1"] == pytest.approx(math.exp(-2 / 7), abs=1e-6)
    assert hand_scores["rouge_l"] == pytest.approx((12.2 / 13.64 + 4.88 / 6.32) / 2, abs=1e-6)
    assert set(hand_scores) == {"bleu1", "bleu2", "bleu3", "bleu4", "rouge_l", "meteor", "cider", "bertscore"}
    assert hand_scores["bertscore"] is None and hand_scores["meteor"] is None  # not asked for


def test_identical_captions_score_the_maximum(meteor):
    gold = {"x": "Axial CT of the abdomen shows a mass.", "y": "Chest X-ray, PA view.", "z": "MRI of the knee."}
    scores = caption_scores(dict(gold), gold, bertscore=False)
    for key in ("bleu1", "bleu4", "rouge_l"):
        assert scores[key] == pytest.approx(1.0, abs=1e-6), key
    assert scores["meteor"] > 0.99
    assert scores["cider"] == pytest.approx(10.0, rel=1e-6)  # CIDEr-D's scale: a perfect match is 10


def _roco_pairs(data_dir, n=12):
    """Gold: the first n ROCO test radiology captions; prediction: the validation caption at the same line."""
    def read(split):
        lines = (data_dir / f"roco_v1_text/data/{split}/radiology/captions.txt").read_text(encoding="utf-8").splitlines()
        return [line.split("\t", 1)[1].strip() for line in lines[:n]]
    gold_texts, pred_texts = read("test"), read("validation")
    ids = [f"img{i}" for i in range(n)]
    return dict(zip(ids, pred_texts)), dict(zip(ids, gold_texts))


def test_agrees_with_pycocoevalcap_scorers_called_directly(data_dir, meteor):
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    pred, gold = _roco_pairs(data_dir)
    ours = caption_scores(pred, gold, bertscore=False)
    gts = {i: [preprocess_caption(gold[i])] for i in gold}
    res = {i: [preprocess_caption(pred[i])] for i in gold}
    bleu, _ = Bleu(4).compute_score(gts, res, verbose=0)
    reference = {"bleu1": bleu[0], "bleu2": bleu[1], "bleu3": bleu[2], "bleu4": bleu[3],
                 "rouge_l": Rouge().compute_score(gts, res)[0], "cider": Cider().compute_score(gts, res)[0],
                 "meteor": meteor.compute_score(gts, res)[0]}
    for key, value in reference.items():
        assert round(ours[key], 4) == round(float(value), 4), key
    assert 0.0 < ours["bleu1"] < 1.0  # different images' captions: some overlap, far from perfect


def test_missing_prediction_is_an_empty_caption_and_unknown_id_is_refused(hand_scores):
    partial = caption_scores({"a": HAND_PRED["a"]}, HAND_GOLD, bertscore=False, meteor=False)
    assert partial["rouge_l"] == pytest.approx(12.2 / 13.64 / 2, abs=1e-6)  # b scores 0
    with pytest.raises(MedfigError, match="'c'"):
        caption_scores({"c": "x"}, HAND_GOLD, bertscore=False, meteor=False)


def test_no_java_gives_meteor_none_with_a_warning(monkeypatch):
    monkeypatch.setattr(caption_metrics.shutil, "which", lambda name: None)
    with pytest.warns(MetricUnavailableWarning, match="Java"):
        scores = caption_scores(HAND_PRED, HAND_GOLD, bertscore=False)
    assert scores["meteor"] is None and scores["bleu1"] == pytest.approx(math.exp(-2 / 7), abs=1e-6)


def test_no_torch_gives_bertscore_none_with_a_warning(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "bert_score", None)  # import now raises ImportError
    with pytest.warns(MetricUnavailableWarning, match="BERTScore needs"):
        assert caption_metrics.bertscore_f1(["a b"], ["a c"]) is None


def test_bertscore_minilm_against_bert_score_called_directly():
    bert_score = pytest.importorskip("bert_score")
    pytest.importorskip("torch")
    preds = ["axial ct of the abdomen", "", "chest xray pa view"]
    refs = ["axial ct of the abdomen", "", "mri of the knee"]
    # identical pair: F1 1; both empty: 1 (ImageCLEF); the third one as bert_score computes it with the same model
    _, _, f1 = bert_score.score([preds[2]], [refs[2]], model_type=str(caption_metrics.bertscore_model_dir()),
                                num_layers=caption_metrics.BERTSCORE_LAYER)
    expected = (1.0 + 1.0 + float(f1[0])) / 3
    assert caption_metrics.bertscore_f1(preds, refs) == pytest.approx(expected, abs=1e-4)
    assert float(f1[0]) < 0.99


def test_reader_handles_commas_quotes_and_round_trips(tmp_path):
    path = tmp_path / "caps.csv"
    captions = {"r1": 'CT, axial: the "target" sign', "r2": "plain", "r3": ""}
    write_captions_csv(path, captions)
    assert read_captions_csv(path) == captions


@pytest.mark.parametrize("text, problem", [
    ("ID,Text\na,x\n", "line 1: header must be 'ID,Caption'"),
    ("ID,Caption\na,x\na,y\n", "line 3: image ID 'a' given twice"),
    ("ID,Caption\na,CT, axial\n", "line 2: expected 2 fields"),
])
def test_bad_caption_files(tmp_path, text, problem):
    path = tmp_path / "bad_caps.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MedfigError) as info:
        read_captions_csv(path)
    assert "bad_caps.csv" in str(info.value) and problem in str(info.value)


def test_cli_json(tmp_path, capsys):
    pred, gold = tmp_path / "pred.csv", tmp_path / "gold.csv"
    write_captions_csv(pred, HAND_PRED)
    write_captions_csv(gold, HAND_GOLD)
    assert main(["evaluate", "captions", str(pred), str(gold), "--json", "--no-bertscore", "--no-meteor"]) == 0
    out, err = capsys.readouterr()
    scores = json.loads(out)
    assert {"bleu1", "bleu4", "rouge_l", "meteor", "cider", "bertscore"} <= set(scores)
    assert scores["bleu1"] == pytest.approx(math.exp(-2 / 7), abs=1e-6) and scores["bertscore"] is None
    assert scores["images"] == 2 and "scored 2 images" in err
    assert "BLEU, ROUGE-L, CIDEr: 2/2 images" in err  # progress names what was computed (no METEOR here)


def test_cli_bad_header_exit_2(tmp_path, capsys):
    bad, gold = tmp_path / "pred_caps.csv", tmp_path / "gold.csv"
    bad.write_text("image,caption\na,x\n", encoding="utf-8")
    write_captions_csv(gold, HAND_GOLD)
    assert main(["evaluate", "captions", str(bad), str(gold), "--no-bertscore", "--no-meteor"]) == 2
    err = capsys.readouterr().err
    assert "pred_caps.csv" in err and len(err.strip().splitlines()) == 1
