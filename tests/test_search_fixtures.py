"""Datasets shared by the search and web tests, built once per test process.

- ``demo_dataset()``: 3 synthetic demo articles built with ``medfig build`` (compound
  figures split by the build itself: its own ``subfigures.parquet``), indexed with
  BM25 + dense vectors.
- ``hindawi_dataset()``: the 30 real Hindawi articles of ../shared/data built without PDF
  figure cropping (so every figure is text-only, as these articles ship no figure files),
  indexed the same way.
This module holds no tests; pytest collects it and finds none.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
_WORK = Path(tempfile.mkdtemp(prefix="medfig-search-tests-"))
atexit.register(shutil.rmtree, _WORK, ignore_errors=True)


@lru_cache(maxsize=None)
def demo_dataset() -> tuple[Path, Path]:
    """(demo articles folder, indexed dataset folder with the build's subfigures.parquet)."""
    from medfig.demo import write_demo_corpus
    from medfig.pipeline.build import build
    from medfig.search import build_index

    articles, dataset = _WORK / "demo-articles", _WORK / "demo-ds"
    write_demo_corpus(articles, n=3, seed=0)
    build(articles, dataset, workers=1, progress=False)
    report = build_index(dataset, progress=False)
    assert report.dense, "the sentence model (medfig[dense]) must be installed for the search tests"
    return articles, dataset


@lru_cache(maxsize=None)
def hindawi_dataset() -> Path:
    from medfig.pipeline.build import build
    from medfig.search import build_index

    if not HINDAWI.is_dir():
        raise RuntimeError(f"real test data not found at {HINDAWI}")
    dataset = _WORK / "hindawi-ds"
    # Text-only build: cropping figures out of the PDFs takes minutes and search tests need the text;
    # it also keeps the "no image file" path of the web app under test.
    build(HINDAWI, dataset, workers=2, progress=False, pdf_figures=False)
    build_index(dataset, progress=False)
    return dataset
