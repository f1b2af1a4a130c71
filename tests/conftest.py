"""Shared test fixtures. Real data lives beside the repo in ../shared/data and is read in place."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():  # fail loudly: a skipped real-data test hides a broken setup
        pytest.fail(f"real test data not found at {DATA} (clone ../shared beside the repo)")
    return DATA
