"""Figures the PDF does not print (``image_status`` not_in_pdf: eLife figure supplements) have no image
anywhere: the search index leaves them out (and says how many), so neither ``medfig search`` nor the web
app shows a result with nothing to show. Real article: elife-04177 (6 printed figures, 25 supplements)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from medfig.dataset import load_dataset
from medfig.search import SearchIndex, documents_from_dataset
from medfig.search.store import build_index



@pytest.fixture(scope="module")
def dataset(tmp_path_factory, elife_04177_build) -> Path:
    out = tmp_path_factory.mktemp("ds") / "dataset"
    shutil.copytree(elife_04177_build[0], out)  # the index is written into it: a copy of the shared build
    return out


def test_index_leaves_out_figures_the_pdf_does_not_print(dataset):
    docs = documents_from_dataset(dataset)
    assert sorted(d.figure_id for d in docs) == ["fig1", "fig2", "fig3", "fig4", "fig5", "fig6"]
    report = build_index(dataset, dense=False, progress=False)
    assert report.documents == 6
    assert "25 figures not indexed: the PDF does not print them" in report.summary()
    # a supplement's own caption words find nothing; its main figure is still found
    index = SearchIndex.open(dataset)
    supplement = next(f for f in load_dataset(dataset).figures.to_pylist() if f["figure_id"] == "fig2s3")
    assert supplement["image_status"] == "not_in_pdf"
    hits = index.search(supplement["caption"][:200], k=50, mode="bm25")
    assert hits and all(h.doc.figure_id in {d.figure_id for d in docs} for h in hits)


def test_web_results_show_no_supplement(dataset):
    from starlette.testclient import TestClient

    from medfig.web.app import create_app

    build_index(dataset, dense=False, progress=False)
    client = TestClient(create_app(dataset, warm=False))
    params = {"q": "figure supplement", "mode": "bm25", "per_page": 50}
    results = client.get("/api/search", params=params).json()["results"]
    ids = [hit["figure_id"] for hit in results]
    assert ids and set(ids) <= {"fig1", "fig2", "fig3", "fig4", "fig5", "fig6"}
    page = client.get("/", params=params)
    assert page.status_code == 200 and "no image file" not in page.text
