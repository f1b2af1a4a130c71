"""Calibrated panel confidence (medfig.compound.confidence) and the curate filter that uses it
(``medfig curate --min-figure-split-confidence``, medfig.curate.panel_confidence.SplitConfidenceFilter;
the panel-level ``--min-panel-confidence`` is tested in test_curate_panel_confidence.py)."""

from __future__ import annotations

import pytest

from medfig.compound.confidence import MODEL, figure_features, panel_confidence, panel_features, single_confidence
from medfig.compound.table import subfigure_rows, subfigures_table
from medfig.curate.panel_confidence import SplitConfidenceFilter
from medfig.dataset import DatasetFolder
from medfig.records import MedfigError, Subfigure

FOUR = "Knee MRI. (a) Sagittal T1. (b) Sagittal T2. (c) Coronal PD. (d) Axial PD."


def test_the_shipped_model_is_a_probability_and_follows_the_evidence():
    assert MODEL.is_file()
    even = panel_features([0, 0, 100, 100], 0.9, True, 4, 4, 200, 200)  # 2 x 2 grid, letters read, 4 named
    sliver = panel_features([0, 0, 10, 100], 0.76, False, 7, 4, 200, 200)  # thin piece, counts disagree
    hi, lo = panel_confidence(even), panel_confidence(sliver)
    assert 0.0 < lo < hi < 1.0
    # a figure kept whole is less likely single when its caption names panel letters
    assert single_confidence(figure_features(4, 1)) < single_confidence(figure_features(0, 1))


def _dataset(tmp_path, panels: list[list[int]], label_source: str):
    subs = [Subfigure(figure_id="F1", box_px=b, score=0.9, label=l, label_source=label_source)
            for b, l in zip(panels, "abcd")]
    DatasetFolder(tmp_path).write_table("subfigures", subfigures_table(subfigure_rows("A1", subs)))
    return {"article_key": "A1", "figure_id": "F1", "caption": FOUR, "n_subfigures": len(subs),
            "width": 200, "height": 200}


def test_filter_keeps_a_confident_split_and_drops_a_doubtful_one_with_a_reason(tmp_path):
    grid = [[0, 0, 100, 100], [100, 0, 200, 100], [0, 100, 100, 200], [100, 100, 200, 200]]
    record = _dataset(tmp_path / "good", grid, "ocr")
    strips = [[0, 0, 20, 200], [20, 0, 40, 200]]  # two thin strips for a caption naming four panels
    doubtful = _dataset(tmp_path / "bad", strips, "none")
    good_c, _ = SplitConfidenceFilter(tmp_path / "good", 0.5).confidence(record)
    bad_c, _ = SplitConfidenceFilter(tmp_path / "bad", 0.5).confidence(doubtful)
    assert bad_c < good_c
    cut = (good_c + bad_c) / 2
    assert SplitConfidenceFilter(tmp_path / "good", cut).filter(record).keep
    verdict = SplitConfidenceFilter(tmp_path / "bad", cut).filter(doubtful)
    assert not verdict.keep and verdict.reason == "low_split_confidence"
    assert "2 panels" in verdict.detail and f"< {cut:g}" in verdict.detail


def test_a_figure_kept_whole_is_judged_by_its_caption(tmp_path):
    DatasetFolder(tmp_path).write_table("subfigures", subfigures_table([]))
    whole = {"article_key": "A1", "figure_id": "F2", "caption": FOUR, "n_subfigures": 0, "width": 200, "height": 200}
    plain = dict(whole, caption="Axial CT of the abdomen showing a mass.")
    flt = SplitConfidenceFilter(tmp_path, 0.0)
    assert flt.confidence(whole)[0] < flt.confidence(plain)[0]
    assert "kept whole" in flt.confidence(whole)[1]


def test_threshold_outside_0_1_is_one_clear_error(tmp_path):
    with pytest.raises(MedfigError, match="--min-figure-split-confidence must be between 0 and 1"):
        SplitConfidenceFilter(tmp_path, 1.5)
