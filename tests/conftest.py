"""Shared test fixtures. Real data lives beside the repo in ../shared/data and is read in place."""

import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():  # fail loudly: a skipped real-data test hides a broken setup
        pytest.fail(f"real test data not found at {DATA} (clone ../shared beside the repo)")
    return DATA


@pytest.fixture(scope="session")
def elife_04177_build(tmp_path_factory):
    """One build of elife-04177 (6 figures its PDF prints, 25 supplements only its XML lists),
    no subfigures: ``(dataset folder, BuildReport)``. Several test modules read it; one that
    writes into it copies it first."""
    from medfig.pipeline.build import build

    elife = DATA / "elife_xml_pdf_pairs" / "elife-04177-vor-r1"
    inputs = tmp_path_factory.mktemp("elife_04177_in")
    shutil.copytree(elife, inputs / elife.name, ignore=shutil.ignore_patterns("*.jinja"))
    out = tmp_path_factory.mktemp("elife_04177_ds")
    report = build(inputs, out, workers=0, progress=False, subfigures=False)
    return out, report
