"""Panels reach every export and read back equal to the dataset's ``subfigures.parquet``.

Three real Hindawi case reports, figures cropped from their PDFs and split into panels by the
build: PMC4735894 fig2 (two echocardiogram panels), PMC4736802 fig1 (two radiographs) and fig2
(three CT panels), PMC4736587 fig1 (two clinical photographs) and fig4 (four histology panels).
Before the panel exports existed none of these files held a panel.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import tarfile
from pathlib import Path

import pytest
from PIL import Image

from medfig.cli import main as cli_main
from medfig.curate.run import CurateOptions, curate
from medfig.dataset import load_dataset
from medfig.export.release import load_release

ARTICLES = ("PMC4735894", "PMC4736802", "PMC4736587")
N_PANELS = 2 + 2 + 3 + 2 + 4
# rocov2 --panels: the radiology panels (echo, radiographs, CT) qualify; photographs and histology do not
RADIOLOGY_PANELS = {("PMC4735894", "fig2"): 2, ("PMC4736802", "fig1"): 2, ("PMC4736802", "fig2"): 3}
CT_CUI, XRAY_CUI, ULTRASOUND_CUI = "C0040405", "C1306645", "C0041618"


@pytest.fixture(scope="module")
def built_and_release(data_dir, tmp_path_factory) -> tuple[Path, Path]:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("inputs")
    for key in ARTICLES:
        shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / key, inputs / key, ignore=shutil.ignore_patterns("*.zip"))
    built = tmp_path_factory.mktemp("built")
    build(inputs, built, workers=0, progress=False)
    release = tmp_path_factory.mktemp("release")
    curate(built, release, CurateOptions(licence="open", medical_filter=False, min_concept_frequency=1,
                                         splits=(0.34, 0.33, 0.33),
                                         vocabulary=str(data_dir / "rocov2_concepts" / "cui_mapping.csv")))
    return built, release


@pytest.fixture(scope="module")
def gold(built_and_release) -> dict[tuple[str, str], list[dict]]:
    """subfigures.parquet of the build, per figure: what every export must carry."""
    rows = load_dataset(built_and_release[0]).subfigures.to_pylist()
    out: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        out.setdefault((row["article_key"], row["figure_id"]), []).append(row)
    assert sum(len(v) for v in out.values()) == N_PANELS
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text or "")


def test_medicat_subcaptions_jsonl_round_trips_boxes_and_subcaptions(built_and_release, gold, tmp_path):
    from medfig.export.medicat import export_medicat

    counts = export_medicat(load_release(built_and_release[1]), tmp_path)
    assert counts["panels"] == N_PANELS
    figures = {(r["pdf_hash"], r["fig_uri"]) for r in map(json.loads, (tmp_path / "medicat.jsonl").read_text().splitlines())}
    records = [json.loads(line) for line in (tmp_path / "subcaptions.jsonl").read_text().splitlines()]
    assert {(r["medfig"]["article_key"], r["medfig"]["figure_id"]) for r in records} == set(gold)
    for rec in records:
        panels = gold[(rec["medfig"]["article_key"], rec["medfig"]["figure_id"])]
        assert (rec["pdf_hash"], rec["fig_uri"]) in figures and rec["answer"] == "accept"
        with Image.open(tmp_path / "figures" / f"{rec['pdf_hash']}_{rec['fig_uri']}") as im:
            assert (rec["width"], rec["height"]) == im.size
        assert len(rec["spans"]) == len(panels)
        for span, panel in zip(rec["spans"], panels):
            # MedICaT's readers take the box as min/max over the points
            xs, ys = [p[0] for p in span["points"]], [p[1] for p in span["points"]]
            assert [min(xs), min(ys), max(xs), max(ys)] == list(panel["box_px"])
            token_ids = rec["subcaptions"][span["label"]]
            covered = [rec["tokens"][i]["text"] for i in token_ids]
            assert [w for w in covered if re.fullmatch(r"\w+", w)] == _words(panel["subcaption"])
            assert all(rec["text"][t["start"]:t["end"]] == t["text"] for t in rec["tokens"])


def test_medicat_references_are_deduplicated_within_a_record(built_and_release, tmp_path):
    """PMC4736587 fig1 is cited twice by one sentence ("Figures 1(a) and 1(b)"-style): the build keeps
    both mentions, MedICaT's record lists the sentence once."""
    from medfig.export.medicat import export_medicat

    release = load_release(built_and_release[1])
    fig1 = next(r for r in release.figures if (r["article_key"], r["figure_id"]) == ("PMC4736587", "fig1"))
    sentences = [r["sentence"] for r in fig1["inline_refs"]]
    assert len(sentences) == 2 and sentences[0] == sentences[1]
    export_medicat(release, tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "medicat.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["s2_caption"].startswith("Figure 1. (a) and (b) Note the prominent forehead"))
    assert row["s2orc_references"] == [sentences[0]]
    for r in rows:
        refs = r["s2orc_references"] or []
        assert len({" ".join(s.split()).casefold() for s in refs}) == len(refs)


def test_hf_panels_config_round_trips(built_and_release, gold, tmp_path):
    import datasets

    from medfig.export.hf import export_hf

    counts = export_hf(load_release(built_and_release[1]), tmp_path)
    assert counts["panels"] == N_PANELS
    panels = datasets.load_dataset(str(tmp_path), "panels", cache_dir=str(tmp_path / ".hf-cache"))
    rows = [row for split in panels for row in panels[split]]
    assert len(rows) == N_PANELS
    figures = datasets.load_dataset(str(tmp_path), cache_dir=str(tmp_path / ".hf-cache"))
    figure_ids = {row["id"] for split in figures for row in figures[split]}
    for row in rows:
        expected = gold[(row["article_key"], row["figure_id"])][row["panel_index"] - 1]
        assert row["box_px"] == list(expected["box_px"]) and row["subcaption"] == expected["subcaption"]
        assert row["label"] == expected["label"] and row["parent_id"] in figure_ids
        x0, y0, x1, y1 = expected["box_px"]
        assert row["image"].size == (x1 - x0, y1 - y0)
        assert row["inline_refs"] == [r["sentence"] for r in expected["inline_refs"]]
        assert row["score"] == pytest.approx(expected["score"])
    # confidence: the calibrated probability curate judges by; per figure the mean --min-figure-split-confidence uses
    from medfig.curate.panel_confidence import SplitConfidenceFilter

    judge = SplitConfidenceFilter(built_and_release[0], 0.5)
    release = load_release(built_and_release[1])
    for key in gold:
        confidences = [row["confidence"] for row in rows if (row["article_key"], row["figure_id"]) == key]
        assert all(c is not None and 0.0 < c < 1.0 for c in confidences)
        figure = next(r for r in release.figures if (r["article_key"], r["figure_id"]) == key)
        assert sum(confidences) / len(confidences) == pytest.approx(judge.confidence(figure)[0], abs=1e-3)


def test_webdataset_panel_shards_round_trip(built_and_release, gold, tmp_path):
    from medfig.export.webdataset import export_webdataset

    counts = export_webdataset(load_release(built_and_release[1]), tmp_path, shard_size=4)
    assert counts["panels"] == N_PANELS
    seen = 0
    for shard in sorted((tmp_path / "panels").glob("*.tar")):
        with tarfile.open(shard) as tar:
            keys = sorted({n.split(".", 1)[0] for n in tar.getnames()})
            assert len(keys) <= 4
            for key in keys:
                meta = json.loads(tar.extractfile(f"{key}.json").read())
                expected = gold[(meta["article_key"], meta["figure_id"])][meta["panel_index"] - 1]
                assert meta["box_px"] == list(expected["box_px"]) and meta["subcaption"] == expected["subcaption"]
                assert tar.extractfile(f"{key}.txt").read().decode() == expected["subcaption"]
                assert key.startswith(meta["parent"] + "__p")
                x0, y0, x1, y1 = expected["box_px"]
                assert Image.open(io.BytesIO(tar.extractfile(f"{key}.png").read())).size == (x1 - x0, y1 - y0)
                seen += 1
    assert seen == N_PANELS


def test_rocov2_panels_replace_compound_figures_with_their_radiology_panels(built_and_release, gold, tmp_path, capsys):
    from medfig.export.rocov2 import export_rocov2

    release = load_release(built_and_release[1])
    plain = export_rocov2(release, tmp_path / "plain")
    assert cli_main(["export", "rocov2", str(built_and_release[1]), str(tmp_path / "panels"), "--panels", "-q"]) == 0
    summary = capsys.readouterr().out
    counts = {k: int(v) for k, v in re.findall(r"([\w:]+) (\d+)", summary.split(":", 1)[1])}
    assert counts["panels_skipped:not_single_modality_radiology"] == 6  # 2 photographs + 4 histology panels
    n_figures = sum(plain[s] for s in ("train", "valid", "test"))
    n_compound = len(gold)
    kept = sum(RADIOLOGY_PANELS.values())
    assert counts["panels_kept"] == kept and counts["compound_figures_replaced"] == n_compound
    assert sum(counts[s] for s in ("train", "valid", "test")) == n_figures - n_compound + kept
    by_caption: dict[str, list[tuple]] = {}
    for key, ps in gold.items():
        for p in ps:
            x0, y0, x1, y1 = p["box_px"]
            by_caption.setdefault(p["subcaption"].strip(), []).append((key, (x1 - x0, y1 - y0)))
    modality_cui = {("PMC4735894", "fig2"): ULTRASOUND_CUI, ("PMC4736802", "fig1"): XRAY_CUI,
                    ("PMC4736802", "fig2"): CT_CUI}
    found = []
    for split in ("train", "valid", "test"):
        with open(tmp_path / "panels" / f"{split}_captions.csv", newline="") as f:
            captions = {row["ID"]: row["Caption"] for row in csv.DictReader(f)}
        with open(tmp_path / "panels" / f"{split}_concepts_manual.csv", newline="") as f:
            manual = {row["ID"]: row["CUIs"].split(";") for row in csv.DictReader(f)}
        for rid, caption in captions.items():
            if caption in by_caption:
                size = Image.open(tmp_path / "panels" / split / f"{rid}.jpg").size
                key = next(k for k, s in by_caption[caption] if s == size)  # the panel's own crop
                found.append(key)
                assert modality_cui[key] in manual[rid]
    assert sorted(found) == sorted(k for k, n in RADIOLOGY_PANELS.items() for _ in range(n))
    with open(tmp_path / "panels" / "license_information.csv", newline="") as f:
        assert sum(row["Attribution"].startswith("Panel ") for row in csv.DictReader(f)) == kept


def test_card_counts_compound_figures_and_panels(built_and_release, gold, tmp_path):
    from medfig.export.card import write_card

    text = write_card(load_release(built_and_release[1]), tmp_path, histograms=False).read_text()
    assert f"| compound figures / their panels | {len(gold)} / {N_PANELS} |" in text


def test_export_says_when_panels_cannot_be_found(built_and_release, tmp_path, capsys):
    release = tmp_path / "moved"
    shutil.copytree(built_and_release[1], release)
    summary = json.loads((release / "summary.json").read_text())
    summary["dataset"] = str(tmp_path / "gone")
    (release / "summary.json").write_text(json.dumps(summary))
    # a release carries its own panels (curate writes subfigures.parquet): the dataset is not needed
    assert len(load_release(release).panels) == N_PANELS
    # one curated before it did reads them from its dataset, and says so when that is gone
    (release / "subfigures.parquet").unlink()
    assert load_release(release).panels == []
    assert cli_main(["export", "webdataset", str(release), str(tmp_path / "out"), "-q"]) == 0
    err = capsys.readouterr().err
    assert "5 figure(s) have panels" in err and "subfigures.parquet" in err and str(tmp_path / "gone") in err
