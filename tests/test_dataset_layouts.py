"""Every reader of a built dataset on both layouts: one file per table, and sharded folders of parts.

The same input is built twice (``shards=1`` and ``shards=3``); each reader must see the same rows
from both. The sharded cases of ``load_dataset`` and of search's panels failed before the storage
layer (``medfig.dataset``) owned the layout.
"""

from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import pytest
from starlette.testclient import TestClient

from medfig.curate.run import CurateOptions, curate, load_records
from medfig.dataset import DatasetFolder, load_dataset
from medfig.demo import write_demo_corpus
from medfig.export.release import load_release
from medfig.ledger import why
from medfig.pipeline.build import build
from medfig.records import MedfigError
from medfig.search import SearchIndex, build_index, documents_from_dataset
from medfig.vision.image_filter import dataset_images
from medfig.web.app import create_app

SHARDS = 3


def _sorted(rows: list[dict], *keys: str) -> list[dict]:
    return sorted(rows, key=lambda r: tuple(str(r.get(k)) for k in keys))


@pytest.fixture(scope="module")
def builds(tmp_path_factory, data_dir):
    """(single-file dataset, sharded dataset) of the same 4 demo articles plus one real Hindawi article
    (built without PDF cropping: its figures, which ship no files, are rows without images)."""
    inputs = tmp_path_factory.mktemp("inputs")
    write_demo_corpus(inputs, n=4, seed=3)
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4735894", inputs / "PMC4735894")
    single, sharded = tmp_path_factory.mktemp("single"), tmp_path_factory.mktemp("sharded")
    build(inputs, single, workers=0, progress=False, pdf_figures=False)
    build(inputs, sharded, workers=0, progress=False, pdf_figures=False, shards=SHARDS)
    assert (single / "figures.parquet").is_file()
    assert (sharded / "figures.parquet").is_dir()
    assert len(list((sharded / "subfigures.parquet").glob("part-*.parquet"))) == SHARDS
    return single, sharded


def test_load_dataset_reads_a_sharded_build(builds):
    single, sharded = builds
    one, many = load_dataset(single), load_dataset(sharded)
    for name, keys in (("figures", ("article_key", "figure_id")), ("articles", ("article_key",)),
                       ("errors", ("article_key", "stage", "message")),
                       ("subfigures", ("article_key", "figure_id", "label", "box_px")),
                       ("exclusions", ("article_key", "figure_id", "step", "detail"))):
        rows = _sorted(getattr(one, name).to_pylist(), *keys)
        assert rows == _sorted(getattr(many, name).to_pylist(), *keys), name
    assert one.figures.num_rows >= 15 and one.subfigures.num_rows >= 10
    assert one.stats == many.stats
    row = many.figures.to_pylist()[0]
    assert many.image(row).size == (row["width"], row["height"])


def test_search_sees_the_panels_of_a_sharded_build(builds, tmp_path):
    single, sharded = builds
    docs_one = {d.doc_key: d for d in documents_from_dataset(single)}
    docs_many = {d.doc_key: d for d in documents_from_dataset(sharded)}
    assert docs_one.keys() == docs_many.keys()
    n_panels = sum(d.kind == "panel" for d in docs_many.values())
    assert n_panels == load_dataset(sharded).subfigures.num_rows >= 10
    for folder in (single, sharded):
        report = build_index(folder, dense=False, progress=False)
        assert report.panels == n_panels
    query = "axial CT lesion"
    hits_one = [h.doc.doc_key for h in SearchIndex.open(single).search(query, k=10, mode="bm25")]
    hits_many = [h.doc.doc_key for h in SearchIndex.open(sharded).search(query, k=10, mode="bm25")]
    assert hits_one and hits_one == hits_many


def test_web_app_serves_a_sharded_build(builds):
    _, sharded = builds
    client = TestClient(create_app(sharded, warm=False))
    response = client.get("/", params={"q": "lesion", "mode": "bm25"})
    assert response.status_code == 200 and 'data-kind="panel"' in response.text


def test_curate_export_and_image_readers_on_both_layouts(builds, tmp_path):
    single, sharded = builds
    records = {}
    for name, folder in (("single", single), ("sharded", sharded)):
        rows, articles = load_records(folder)
        records[name] = _sorted(rows, "article_key", "figure_id")
        assert articles.num_rows == 5
        assert len(dataset_images(folder)) == sum(r["image_status"] == "ok" for r in rows) > 0
        curate(folder, tmp_path / name, CurateOptions(licence="open", duplicates=False, language=False))
    assert records["single"] == records["sharded"]
    one, many = load_release(tmp_path / "single"), load_release(tmp_path / "sharded")
    assert _sorted(one.figures, "article_key", "figure_id") == _sorted(many.figures, "article_key", "figure_id")
    assert _sorted(one.drops, "article_key", "figure_id", "step") == _sorted(many.drops, "article_key", "figure_id", "step")
    assert one.figures and one.drops


def test_ledger_answers_why_from_a_sharded_build_and_its_release(builds, tmp_path):
    _, sharded = builds
    excluded = [r for r in load_dataset(sharded).exclusions.to_pylist() if r["figure_id"]]
    assert excluded, "the Hindawi article's figures have no image: the ledger must say so"
    target = excluded[0]
    answer = why(sharded, target["article_key"], target["figure_id"])
    own = [r for r in answer.exclusions if r["figure_id"] == target["figure_id"]]
    assert [r["reason"] for r in own] == [target["reason"]] == ["image_missing"]
    figure = [f for f in load_dataset(sharded).figures.to_pylist() if f["figure_id"] == target["figure_id"]
              and f["article_key"] == target["article_key"]][0]
    assert own[0]["file"].endswith(f"PMC4735894:{figure['graphic_href']}")  # the package and the missing member
    assert f"{target['article_key']}/{target['figure_id']}: present, with these problems" in answer.text()
    release = tmp_path / "release"
    curate(sharded, release, CurateOptions(licence="open", duplicates=False, language=False))
    in_release = why(release, target["article_key"], target["figure_id"])
    assert not in_release.present
    assert {(r["phase"], r["reason"]) for r in in_release.exclusions} >= {("build", "image_missing"),
                                                                          ("curate", "no_image")}
    assert why(release, "PMC0000000").text().endswith("it was not in the input of this build")


def test_a_table_from_another_medfig_version_is_named(tmp_path):
    folder = DatasetFolder(tmp_path)
    (tmp_path / "figures.parquet").mkdir()
    import pyarrow as pa

    pq.write_table(pa.table({"article_key": ["a"]}), tmp_path / "figures.parquet" / "part-00000.parquet")
    with pytest.raises(MedfigError, match=r"part-00000\.parquet: missing column\(s\) pmcid.*medfig build"):
        folder.read_table("figures")
    (tmp_path / "empty").mkdir()
    with pytest.raises(MedfigError, match=r"empty/figures\.parquet: not found"):
        load_dataset(tmp_path / "empty")
    assert folder.read_table("subfigures", required=False).num_rows == 0


def test_why_command_prints_the_ledger_and_names_a_bad_folder(builds, capsys, tmp_path):
    from medfig.cli import main

    _, sharded = builds
    assert main(["why", str(sharded), "PMC4735894/fig1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PMC4735894/fig1: present, with these problems") and "image_missing" in out
    assert main(["why", str(sharded), "PMC4735894", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["article_key"] == "PMC4735894" and answer["present"] and len(answer["exclusions"]) >= 2
    assert main(["why", str(tmp_path / "nowhere"), "X"]) == 2
    assert "nowhere/exclusions.parquet: not found" in capsys.readouterr().err
