"""``medfig curate --min-panel-confidence X`` drops panels, not figures (issue 16 item 3).

Real data: dove_PMC5965372 of pmc_dev_corpus (Dove, a development publisher), six figures cropped
from its PDF. Four are compound; their split is frozen below as the build wrote it on 2026-11-25
(boxes, scores, letter sources, calibrated confidences), so the counts test the curation policy and
the exports, not the splitter of the day. f6 is the instructive one: its row of three flow-cytometry
plots (A) was cut into three panels read as b, a and "?", and B + C were merged into one panel "c".
The three wrong pieces have confidence 0.29-0.46; the merged one 0.98, yet it is wrong too, which
is why a partly untrusted split loses all its panels by default (``partial_split``).
"""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from medfig.cli import main as cli_main
from medfig.compound.table import subfigures_table
from medfig.curate.panel_confidence import curate_panels
from medfig.curate.run import CurateOptions, curate
from medfig.dataset import DatasetFolder
from medfig.export.release import load_release

ARTICLE = "dove_PMC5965372"
F3, F4, F5, F6 = (f"f{n}-dddt-12-1303" for n in (3, 4, 5, 6))
# (figure, label, box_px, score, label_source, confidence) as the build stored them
FROZEN_SPLIT = [
    (F3, "a", [0, 0, 374, 300], 1.0, "ocr", 0.9852), (F3, "b", [2, 303, 464, 554], 1.0, "ocr", 0.986),
    (F3, "c", [477, 86, 901, 494], 1.0, "ocr", 0.9935),
    (F4, "a", [0, 0, 398, 229], 0.9304, "ocr", 0.9825), (F4, "b", [539, 0, 914, 230], 0.9261, "ocr", 0.9809),
    (F4, "c", [2, 250, 502, 558], 0.9859, "ocr", 0.9945), (F4, "d", [539, 251, 872, 555], 0.9393, "ocr", 0.9855),
    (F5, "a", [0, 0, 2301, 491], 1.0, "ocr", 0.991), (F5, "b", [539, 571, 1778, 1267], 1.0, "ocr", 0.9865),
    (F6, "b", [112, 0, 622, 438], 0.8148, "order", 0.3969), (F6, "a", [788, 46, 1189, 346], 0.8848, "ocr", 0.4562),
    (F6, None, [1355, 46, 1755, 346], 0.7848, "none", 0.2894), (F6, "c", [70, 494, 1791, 1157], 1.0, "ocr", 0.9809),
]
FAST = dict(licence="open", medical_filter=False, language=False, duplicates=False, min_concept_frequency=1)


@pytest.fixture(scope="module")
def dataset(data_dir, tmp_path_factory) -> Path:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("in")
    shutil.copytree(data_dir / "pmc_dev_corpus" / ARTICLE, inputs / ARTICLE)
    out = tmp_path_factory.mktemp("built")
    build(inputs, out, workers=0, progress=False)
    folder = DatasetFolder(out)
    rows = [{"article_key": ARTICLE, "figure_id": f, "label": label, "label_source": source, "box_px": box,
             "score": score, "confidence": confidence, "subcaption": f"panel {label} of {f}",
             "subcaption_spans": [], "crop_path": None, "inline_refs": []}
            for f, label, box, score, source, confidence in FROZEN_SPLIT]
    folder.write_table("subfigures", subfigures_table(rows))
    table = folder.read_table("figures")
    figures = table.to_pylist()
    counts = {f: sum(1 for r in FROZEN_SPLIT if r[0] == f) for f in (F3, F4, F5, F6)}
    for figure in figures:
        figure["n_subfigures"] = counts.get(figure["figure_id"], 0)
    assert sorted((f["figure_id"], f["image_status"]) for f in figures) == [
        (f"f{n}-dddt-12-1303", "ok") for n in range(1, 7)]
    folder.write_table("figures", pa.Table.from_pylist(figures, schema=table.schema))
    return out


def _panel_drops(release: Path) -> list[dict]:
    return [r for r in DatasetFolder(release).read_rows("exclusions") if r["step"] == "panel_confidence"]


def test_untrusted_panels_go_the_figures_stay_and_every_export_omits_them(dataset, tmp_path):
    release = tmp_path / "rel"
    report = curate(dataset, release, CurateOptions(**FAST, min_panel_confidence=0.9))
    assert report.n_in == report.n_kept == 6  # no figure lost
    summary = json.loads((release / "summary.json").read_text())["panels"]
    assert summary == {"min_panel_confidence": 0.9, "keep_confident_panels": False, "in": 13, "kept": 9,
                       "dropped": 4, "dropped_by_reason": {"low_panel_confidence": 3, "partial_split": 1},
                       "figures_split_dropped": 1, "figures_split_partly_dropped": 0, "skipped_by_reason": {}}
    assert ("panels             : 13 in, 9 kept, 4 dropped (low_panel_confidence 3, partial_split 1); "
            "figures kept without their panels: 1") in report.summary()
    drops = _panel_drops(release)
    assert [(d["figure_id"], d["reason"]) for d in drops] == [(F6, "low_panel_confidence")] * 3 + [(F6, "partial_split")]
    assert drops[0]["detail"] == "panel b (1 of 4): confidence 0.3969 < 0.9"
    assert drops[3]["detail"].startswith("panel c (4 of 4): confidence 0.9809, but 3 of the figure's 4 panels")
    figures = {r["figure_id"]: r for r in DatasetFolder(release).read_rows("figures")}
    assert figures[F6]["panels_dropped"] == 4 and figures[F4]["panels_dropped"] == 0

    loaded = load_release(release)
    assert not loaded.panels_missing and sorted({p["figure_id"] for p in loaded.panels}) == [F3, F4, F5]
    from medfig.export.hf import export_hf
    from medfig.export.medicat import export_medicat
    from medfig.export.rocov2 import export_rocov2
    from medfig.export.webdataset import export_webdataset

    assert export_medicat(loaded, tmp_path / "medicat")["panels"] == 9
    records = [json.loads(line) for line in (tmp_path / "medicat" / "subcaptions.jsonl").read_text().splitlines()]
    assert sorted(r["medfig"]["figure_id"] for r in records) == [F3, F4, F5]
    assert export_hf(loaded, tmp_path / "hf")["panels"] == 9
    hf_panels = [row for path in (tmp_path / "hf" / "panels").glob("*.parquet") for row in pq.read_table(path).to_pylist()]
    assert len(hf_panels) == 9 and F6 not in {row["figure_id"] for row in hf_panels}
    assert min(row["confidence"] for row in hf_panels) >= 0.9
    assert export_webdataset(loaded, tmp_path / "wds")["panels"] == 9
    members = [m for tar in (tmp_path / "wds" / "panels").glob("*.tar") for m in tarfile.open(tar).getnames()]
    assert sum(m.endswith(".png") for m in members) == 9 and not [m for m in members if F6 in m]
    counts = export_rocov2(loaded, tmp_path / "rocov2", panels=True)
    assert counts["compound_figures_without_panel_kept:panels_dropped_by_curate"] == 1  # f6 is not exported whole


def test_keep_confident_panels_keeps_a_partial_splits_confident_ones(dataset, tmp_path):
    report = curate(dataset, tmp_path / "rel", CurateOptions(**FAST, min_panel_confidence=0.985,
                                                            keep_confident_panels=True))
    # at 0.985: f4 has a (0.9825) and b (0.9809) below, f6 all four; f3 and f5 are all above
    summary = json.loads((tmp_path / "rel" / "summary.json").read_text())["panels"]
    assert (summary["in"], summary["kept"], summary["dropped_by_reason"]) == (13, 7, {"low_panel_confidence": 6})
    assert (summary["figures_split_dropped"], summary["figures_split_partly_dropped"]) == (1, 1)
    kept = {(r["figure_id"], r["label"]) for r in DatasetFolder(tmp_path / "rel").read_rows("subfigures")}
    assert kept == {(F3, "a"), (F3, "b"), (F3, "c"), (F4, "c"), (F4, "d"), (F5, "a"), (F5, "b")}
    assert report.n_kept == 6


def test_default_partial_split_drops_the_confident_siblings_too(dataset, tmp_path):
    curate(dataset, tmp_path / "rel", CurateOptions(**FAST, min_panel_confidence=0.985))
    summary = json.loads((tmp_path / "rel" / "summary.json").read_text())["panels"]
    assert (summary["kept"], summary["dropped_by_reason"]) == (5, {"low_panel_confidence": 6, "partial_split": 2})
    assert {d["figure_id"] for d in _panel_drops(tmp_path / "rel") if d["reason"] == "partial_split"} == {F4}


def test_without_a_threshold_the_release_carries_every_panel_with_its_confidence(dataset, tmp_path):
    curate(dataset, tmp_path / "rel", CurateOptions(**FAST))
    rows = DatasetFolder(tmp_path / "rel").read_rows("subfigures")
    assert len(rows) == 13 and not _panel_drops(tmp_path / "rel")
    assert sorted(round(r["confidence"], 4) for r in rows) == sorted(r[5] for r in FROZEN_SPLIT)


def test_figure_level_flag_drops_the_whole_untrusted_figure(dataset, tmp_path):
    report = curate(dataset, tmp_path / "rel", CurateOptions(**FAST, min_figure_split_confidence=0.9))
    drops = [r for r in DatasetFolder(tmp_path / "rel").read_rows("exclusions") if r["step"] == "split_confidence"]
    # f6's mean is (0.3969 + 0.4562 + 0.2894 + 0.9809) / 4 = 0.5309; f3, f4, f5 average above 0.98
    assert (F6, "low_split_confidence") in {(d["figure_id"], d["reason"]) for d in drops}
    assert next(d for d in drops if d["figure_id"] == F6)["detail"] == "4 panels, confidence 0.5309 (weakest 0.2894) < 0.9"
    assert not {F3, F4, F5} & {d["figure_id"] for d in drops}
    assert report.n_kept == 6 - len(drops)


def test_cli_flags(dataset, tmp_path, capsys):
    assert cli_main(["curate", str(dataset), "-o", str(tmp_path / "a"), "--keep-confident-panels", "-q"]) == 2
    assert "--keep-confident-panels needs --min-panel-confidence" in capsys.readouterr().err
    assert cli_main(["curate", str(dataset), "-o", str(tmp_path / "b"), "--licence", "open", "--no-medical-filter",
                     "--no-language-filter", "--no-duplicates", "--min-panel-confidence", "0.9", "-q"]) == 0
    assert "13 in, 9 kept, 4 dropped (low_panel_confidence 3, partial_split 1)" in capsys.readouterr().out
    assert cli_main(["why", str(tmp_path / "b"), f"{ARTICLE}/{F6}"]) == 0
    out = capsys.readouterr().out
    assert "present, with these problems" in out and "panel b (1 of 4): confidence 0.3969 < 0.9" in out


def test_policy_on_hand_made_rows_needs_no_build():
    figure = {"article_key": "A", "figure_id": "F", "caption": "(a) x (b) y", "width": 100, "height": 100}
    rows = [{"label": l, "box_px": [0, 0, 50, 50], "confidence": c} for l, c in (("a", 0.95), ("b", 0.5))]
    strict = curate_panels([dict(figure)], {("A", "F"): rows}, 0.9)
    lenient = curate_panels([dict(figure)], {("A", "F"): rows}, 0.9, keep_confident=True)
    assert [p["label"] for p in strict.kept] == [] and dict(strict.dropped) == {"low_panel_confidence": 1, "partial_split": 1}
    assert [p["label"] for p in lenient.kept] == ["a"] and dict(lenient.dropped) == {"low_panel_confidence": 1}
    assert curate_panels([dict(figure)], {("A", "F"): rows}, 0.5).dropped == {}  # at X exactly: kept


def test_a_dataset_without_panels_says_none_were_judged(dataset, tmp_path):
    bare = tmp_path / "bare"
    shutil.copytree(dataset, bare)
    (bare / "subfigures.parquet").unlink()
    report = curate(bare, tmp_path / "rel", CurateOptions(**FAST, min_panel_confidence=0.9))
    assert f"panels             : none judged: {bare} has no subfigures table" in report.summary()
    assert report.n_kept == 6 and not (tmp_path / "rel" / "subfigures.parquet").exists()
