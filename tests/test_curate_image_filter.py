"""Radiology image filter: real EfficientNet-Lite0 features, head training, model file, curate step, no-torch path."""

from __future__ import annotations

import json

import numpy as np
import pytest

from medfig.pipeline.steps import run_steps
from medfig.vision import image_filter as imf


@pytest.fixture(scope="module")
def medicat(data_dir):
    rows = [json.loads(x) for x in (data_dir / "medicat_sample" / "sample.jsonl").read_text().splitlines()]
    files = [data_dir / "medicat_sample" / "figures" / f"{r['pdf_hash']}_{r['fig_uri']}" for r in rows]
    feats = imf.FeatureExtractor().features_of_files(files)
    return rows, files, feats


def test_features_are_deterministic_imagenet_features(medicat):
    rows, files, feats = medicat
    assert feats.shape == (10, 1280) and np.isfinite(feats).all()
    again = imf.FeatureExtractor().features_of_files(files[:2])
    assert np.allclose(again, feats[:2], atol=1e-4)
    # different figures give different features
    assert np.linalg.norm(feats[0] - feats[1]) > 1.0


def test_head_learns_the_training_labels_and_round_trips(medicat, tmp_path):
    rows, _, feats = medicat
    labels = ["radiology" if r["radiology"] else "other" for r in rows]
    head = imf.train_head(feats, labels, c=10.0)
    assert head.predict(feats) == [r["radiology"] for r in rows]
    head.save(tmp_path / "m.json")
    loaded = imf.ImageFilterHead.load(tmp_path / "m.json")
    assert np.allclose(loaded.probability(feats), head.probability(feats))
    with pytest.raises(imf.MedfigError, match="need both classes"):
        imf.train_head(feats, ["other"] * 10)


def test_curate_step_drops_predicted_non_radiology_and_skips_rows_without_images(medicat, tmp_path):
    from medfig.curate.image_classifier import ImageClassifierFilter

    rows, files, feats = medicat
    head = imf.train_head(feats, ["radiology" if r["radiology"] else "other" for r in rows], c=10.0)
    head.save(tmp_path / "m.json")
    recs = [{"article_key": r["pdf_hash"], "figure_id": r["fig_key"], "image_path": str(f), "image_status": "ok"}
            for r, f in zip(rows, files)]
    recs.append({"article_key": "x", "figure_id": "text-only", "image_path": None, "image_status": "missing"})
    kept, drops, stats = run_steps(recs, [ImageClassifierFilter(tmp_path / "m.json", "/")])
    assert sorted(d["figure_id"] + d["article_key"] for d in drops) == sorted(
        r["fig_key"] + r["pdf_hash"] for r in rows if not r["radiology"])
    assert all(d["reason"] == "not_radiology_image" for d in drops)
    assert stats[0].as_dict()["skipped_by_reason"] == {"no_image": 1}


def test_without_torch_the_step_keeps_everything_and_says_so(medicat, tmp_path, monkeypatch, capsys):
    from medfig.curate.image_classifier import ImageClassifierFilter

    rows, _, feats = medicat
    imf.train_head(feats, ["radiology" if r["radiology"] else "other" for r in rows]).save(tmp_path / "m.json")
    monkeypatch.setattr(imf, "torch_available", lambda: False)
    recs = [{"article_key": "a", "figure_id": str(i), "image_path": "x.png", "image_status": "ok"} for i in range(3)]
    kept, drops, stats = run_steps(recs, [ImageClassifierFilter(tmp_path / "m.json", tmp_path)])
    assert len(kept) == 3 and not drops
    assert stats[0].as_dict()["skipped_by_reason"] == {"no_torch": 3}
    assert "pip install 'medfig[torch]'" in capsys.readouterr().err
    with pytest.raises(imf.MedfigError, match="medfig\\[torch\\]"):
        imf.FeatureExtractor()
