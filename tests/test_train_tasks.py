"""medfig train retrieval / concepts / captions on the tiny release of test_train_data: each trains a
few steps, writes config.json with the release fingerprint, and its prediction files parse."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")  # the train extra; the CLI's no-torch message is tested below either way

from test_train_data import make_release  # noqa: E402

from medfig.cli import main  # noqa: E402
from medfig.train.data import load_items  # noqa: E402


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    return make_release(tmp_path_factory.mktemp("train") / "release")


def _config(model_dir, release):
    config = json.loads((model_dir / "config.json").read_text())
    assert config["release_fingerprint"] == load_items(release).fingerprint
    assert config["items"] == {"train": 16, "valid": 4, "test": 4}
    assert config["medfig_version"]
    return config


def test_retrieval_with_references_two_seeds(release, tmp_path, capsys):
    out = tmp_path / "retrieval"
    rc = main(["train", "retrieval", str(release), "-o", str(out), "--seeds", "2", "--epochs", "2",
               "--text", "captions+references", "-q"])
    printed = capsys.readouterr().out
    assert rc == 0, printed
    config = _config(out, release)
    assert config["task"] == "retrieval" and config["args"]["text"] == "captions+references"
    assert config["results"]["train_items_with_references"] == 12  # article A1's four train figures have none
    assert [s["seed"] for s in config["results"]["per_seed"]] == [0, 1]
    r1 = config["results"]["recall"]["text_to_image"]["1"]
    seeds = [s["test"]["text_to_image"]["1"] for s in config["results"]["per_seed"]]
    assert r1["mean"] == pytest.approx(sum(seeds) / 2)
    assert r1["se"] == pytest.approx(abs(seeds[0] - seeds[1]) / 2)  # two values: |a - b| / 2
    assert all(0.0 <= v <= 1.0 for v in seeds)
    assert (out / "weights-seed0.pt").is_file() and (out / "weights-seed1.pt").is_file()
    assert "captions only, pool 4" in printed


def test_concepts_predictions_parse_and_baseline(release, tmp_path, capsys):
    from medfig.evaluate.concept_metrics import read_concepts_csv

    out = tmp_path / "concepts"
    rc = main(["train", "concepts", str(release), "-o", str(out), "--epochs", "3", "-q"])
    printed = capsys.readouterr().out
    assert rc == 0, printed
    config = _config(out, release)
    assert config["results"]["labels"] == 5
    pred = read_concepts_csv(out / "test_concepts.csv")
    gold = read_concepts_csv(out / "test_concepts_gold.csv")
    assert set(pred) == set(gold) == {f"A6/F{n}" for n in range(1, 5)}
    assert gold["A6/F2"] == {"C0024485", "C0006104"}
    # train (A1-A4, each: CT, MRI, US, CT): C0040405 and C0817096 in 8 figures, the MRI and US CUIs in 4.
    # valid F1 by k (A5, the same mix): k=2 and k=3, k=4 give 0.5; k=5 gives (2*4/7 + 4/7 + 1/3) / 4 = 0.512
    baseline = read_concepts_csv(out / "test_concepts_baseline.csv")
    assert config["results"]["frequency_baseline"]["k"] == 5
    assert all(b == {"C0040405", "C0817096", "C0006104", "C0024485", "C0041618"} for b in baseline.values())
    assert config["results"]["frequency_baseline"]["f1"] == pytest.approx(43 / 84)  # test A6: the same mix
    assert "frequency baseline F1" in printed


def test_captions_smoke_with_a_small_language_model(release, tmp_path, capsys):
    from transformers import LlamaConfig, LlamaForCausalLM

    from medfig.evaluate.caption_metrics import read_captions_csv
    from medfig.train.backbones import load_text_tower

    lm_dir = tmp_path / "tiny-lm"
    tokenizer, _ = load_text_tower()  # a real tokenizer; a 2-layer Llama keeps the test fast
    tokenizer.save_pretrained(lm_dir)
    LlamaForCausalLM(LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                 num_attention_heads=2, num_key_value_heads=2)).save_pretrained(lm_dir)
    out = tmp_path / "captions"
    rc = main(["train", "captions", str(release), "-o", str(out), "--steps", "2", "--language-model", str(lm_dir),
               "--no-bertscore", "-q"])
    printed = capsys.readouterr().out
    assert rc == 0, printed
    config = _config(out, release)
    pred = read_captions_csv(out / "test_captions.csv")
    gold = read_captions_csv(out / "test_captions_gold.csv")
    baseline = read_captions_csv(out / "test_captions_baseline.csv")
    assert set(pred) == set(gold) == set(baseline) == {f"A6/F{n}" for n in range(1, 5)}
    # every test picture has its twin in train (same shape, same place, same figure number): the same caption
    assert baseline == gold
    assert config["results"]["nearest_neighbour"]["bleu1"] == pytest.approx(1.0)
    assert all(isinstance(v, str) for v in pred.values())
    assert "nearest neighbour" in printed


def test_no_torch_is_one_line_and_exit_2(release, tmp_path, capsys, monkeypatch):
    import medfig.train

    monkeypatch.setattr(medfig.train, "torch_available", lambda: False)
    rc = main(["train", "concepts", str(release), "-o", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.strip().count("\n") == 0 and "pip install 'medfig[train]'" in err


def test_concepts_without_cuis_exit_2(tmp_path, capsys):
    root = make_release(tmp_path / "rel", with_concepts=False)
    rc = main(["train", "concepts", str(root), "-o", str(tmp_path / "m"), "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "run medfig curate with --vocabulary" in err and err.strip().count("\n") == 0
