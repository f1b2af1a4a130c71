"""The web app through its HTTP API (Starlette TestClient): pages, images, limits, safety."""

from __future__ import annotations

import re
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from starlette.testclient import TestClient
from test_search_fixtures import demo_dataset, hindawi_dataset

from medfig.search import build_index
from medfig.web.app import create_app


@pytest.fixture(scope="module")
def demo_client():
    _, dataset = demo_dataset()
    return TestClient(create_app(dataset)), dataset


def _no_external_resources(html: str) -> None:
    # Nothing the page loads may come from another origin (links the user clicks are fine).
    loaded = re.findall(r"<(?:img|script|link|iframe|source|video|audio)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", html)
    assert loaded and all(url.startswith("/") and not url.startswith("//") for url in loaded), loaded


def test_search_page_lists_panel_crops(demo_client):
    client, dataset = demo_client
    response = client.get("/", params={"q": "axial CT lesion", "modality": "CT"})
    assert response.status_code == 200
    assert "default-src 'self'" in response.headers["content-security-policy"]
    html = response.text
    _no_external_resources(html)
    cards = re.findall(r'<li class="card" data-doc-key="([^"]+)" data-kind="(\w+)"', html)
    assert cards and all(kind == "panel" or kind == "figure" for _, kind in cards)
    thumbs = re.findall(r'src="(/img/thumb/(\d+))"', html)
    assert len(thumbs) == len(cards)
    from io import BytesIO

    from PIL import Image

    index = client.app.state.index
    for url, doc_id in thumbs[:4]:
        response = client.get(url)
        assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
        thumb = Image.open(BytesIO(response.content))
        assert max(thumb.size) <= 360
        doc = index.doc(int(doc_id))
        if doc.kind == "panel":  # the thumbnail has the panel's shape, not the whole figure's
            w, h = doc.box_px[2] - doc.box_px[0], doc.box_px[3] - doc.box_px[1]
            assert abs(thumb.size[0] / thumb.size[1] - w / h) < 0.05
            full = client.get(f"/img/panel/{doc_id}")
            assert full.status_code == 200 and full.content[:4] == b"\x89PNG"


def test_figure_page_boxes_subcaptions_and_cited_panel(demo_client):
    client, dataset = demo_client
    hits = client.get("/api/search", params={"q": "haematoxylin eosin", "kind": "panel", "k": 5}).json()["results"]
    hit = next(h for h in hits if h["cited_panel_refs"])
    page = client.get(f"/figure/{hit['doc_id']}", params={"panel": hit["panel_label"]})
    assert page.status_code == 200
    html = page.text
    _no_external_resources(html)
    siblings = client.app.state.index.figure_docs(hit["article_key"], hit["figure_id"])
    rects = re.findall(r'<rect class="panel-box (c\d)( selected)?" data-panel="([^"]*)"', html)
    assert len(rects) == len(siblings) >= 2
    selected = [(c, p) for c, sel, p in rects if sel]
    assert selected == [(selected[0][0], hit["panel_label"].lower())]
    # the selected subcaption carries the same colour class as its box
    items = re.findall(r'<li class="subcaption (c\d)( selected)?" data-panel="([^"]*)"', html)
    assert [(c, p) for c, sel, p in items if sel] == selected
    assert {c for c, _, _ in rects} == {c for c, _, _ in items}
    # every sentence naming the selected panel is highlighted, and only those
    cited = re.findall(r'<li class="ref cited" data-panels="([^"]*)"', html)
    assert cited and all(hit["panel_label"].lower() in panels.split() for panels in cited)
    assert hit["attribution"].split(" from ")[0] in html.replace("&#39;", "'")
    assert 'id="licence"' in html and "creativecommons.org" in html


def test_images_are_served_only_from_inside_the_dataset(demo_client, tmp_path):
    _, source = demo_client
    dataset = tmp_path / "ds"
    shutil.copytree(source, dataset, ignore=shutil.ignore_patterns("search"))
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG not yours")
    rows = pq.read_table(dataset / "figures.parquet").to_pylist()
    rows[0]["image_path"] = "../secret.png"
    (dataset / "subfigures.parquet").unlink()
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(dataset / "figures.parquet")),
                   dataset / "figures.parquet")
    build_index(dataset, dense=False, progress=False)
    client = TestClient(create_app(dataset))
    index = client.app.state.index
    (doc_id,) = [d for d, doc in index.figure_docs(rows[0]["article_key"], rows[0]["figure_id"])]
    assert client.get(f"/img/figure/{doc_id}").status_code == 404
    assert client.get(f"/img/figure/{doc_id + 1}").status_code == 200
    assert client.get("/img/figure/999999").status_code == 404
    assert client.get("/img/figure/..%2F..%2Fsecret.png").status_code == 404
    assert client.get("/static/../search/index.sqlite").status_code == 404


def test_query_limits_and_api(demo_client):
    client, _ = demo_client
    long = client.get("/", params={"q": "x" * 501})
    assert long.status_code == 400 and "query too long" in long.text
    assert client.get("/api/search", params={"q": "x" * 501}).status_code == 400
    data = client.get("/api/search", params={"q": "ultrasound", "k": 1000}).json()
    assert data["mode"] == "fused" and 1 <= len(data["results"]) <= 100
    assert client.get("/figure/999999").status_code == 404


def test_text_only_figures_show_a_placeholder():
    dataset = hindawi_dataset()
    client = TestClient(create_app(dataset))
    html = client.get("/", params={"q": "hydatid cyst"}).text
    assert 'class="thumb placeholder"' in html and "/img/" not in html
    doc_id = re.search(r'href="/figure/(\d+)[?"]', html).group(1)
    page = client.get(f"/figure/{doc_id}").text
    assert 'id="no-image"' in page and "https://doi.org/10.1155/" in page


def test_unlabelled_and_repeated_panels_are_selectable(demo_client, tmp_path):
    """Panels the splitter could not letter (or lettered twice) get their own key, colour and selection."""
    _, source = demo_client
    dataset = tmp_path / "ds"
    shutil.copytree(source, dataset, ignore=shutil.ignore_patterns("search"))
    table = pq.read_table(dataset / "subfigures.parquet")
    rows = table.to_pylist()
    figure = (rows[0]["article_key"], rows[0]["figure_id"])
    members = [r for r in rows if (r["article_key"], r["figure_id"]) == figure]
    assert len(members) >= 2
    members[0]["label"], members[1]["label"] = None, None
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), dataset / "subfigures.parquet")
    build_index(dataset, dense=False, progress=False)
    client = TestClient(create_app(dataset))
    docs = client.app.state.index.figure_docs(*figure)
    doc_id, doc = docs[1]
    assert doc.doc_key.endswith("#panel2") and doc.panel_label is None
    html = client.get(f"/figure/{doc_id}").text
    rects = re.findall(r'<rect class="panel-box (c\d)( selected)?" data-panel="([^"]*)" data-label="([^"]*)"', html)
    assert [key for _, _, key, _ in rects][:2] == ["panel1", "panel2"]
    assert [(key, label) for _, sel, key, label in rects if sel] == [("panel2", "")]
    assert len({c for c, _, _, _ in rects}) == len(rects)  # one colour per panel
    assert 'class="ref cited"' not in html  # no sentence can name an unlettered panel
