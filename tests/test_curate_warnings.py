"""Issue 17 item 5: a release made without a vocabulary, or with an empty / too small valid or test
split, says so with numbers, in the curate summary and in the release's summary.json (the card's source)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.curate.run import CurateOptions, curate

VOCABULARY = "rocov2_concepts/cui_mapping.csv"


@pytest.fixture(scope="module")
def built(data_dir, tmp_path_factory) -> Path:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("inputs")
    for pkg in ("PMC4735894", "PMC4736802", "PMC4738934"):
        shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / pkg, inputs / pkg)
    out = tmp_path_factory.mktemp("built")
    build(inputs, out, workers=0, progress=False, pdf_figures=False)
    return out


def _options(**kw) -> CurateOptions:
    return CurateOptions(licence="open", require_images=False, medical_filter=False, language=False,
                         duplicates=False, **kw)


def test_no_vocabulary_and_small_splits_are_warnings_with_numbers(built, tmp_path):
    report = curate(built, tmp_path / "rel", _options())
    kept = pq.read_table(tmp_path / "rel" / "figures.parquet").to_pylist()
    per_split = Counter(r["split"] for r in kept)
    summary = json.loads((tmp_path / "rel" / "summary.json").read_text())
    codes = {w["code"]: w for w in summary["warnings"]}
    assert codes["no_vocabulary"]["figures"] == len(kept) > 0
    # three articles, 80/10/10: valid and test hold one article at most, far below 10 figures
    small = {w["split"]: w for w in summary["warnings"] if w["code"] in ("split_small", "split_empty")}
    assert set(small) >= {"valid", "test"}
    for name, w in small.items():
        assert w["figures"] == per_split.get(name, 0) < 10
        assert w["code"] == ("split_empty" if w["figures"] == 0 else "split_small")
    text = report.summary()
    assert "WARNING" in text and "--vocabulary" in text and "split 'test'" in text


def test_a_vocabulary_and_a_low_bar_leave_no_warning(built, data_dir, tmp_path):
    curate(built, tmp_path / "rel", _options(vocabulary=str(data_dir / VOCABULARY), min_split_figures=0,
                                             splits=(1.0, 0.0, 0.0)))
    summary = json.loads((tmp_path / "rel" / "summary.json").read_text())
    assert summary["warnings"] == []


def test_cli_prints_the_warnings(built, tmp_path, capsys):
    from medfig.cli import main

    assert main(["curate", str(built), "-o", str(tmp_path / "rel"), "--licence", "open", "--no-medical-filter",
                 "--allow-missing-images", "--no-duplicates", "--no-language-filter", "-q"]) == 0
    out = capsys.readouterr().out
    assert "WARNING" in out and "concepts skipped" in out
