"""Issue 19: article keys and figure image names cannot collide, and a collision is reported."""

from __future__ import annotations

import hashlib
import shutil
import tarfile
import zipfile
from pathlib import Path

import pyarrow.parquet as pq

from medfig.dataset import DatasetFolder
from medfig.pipeline.build import build
from medfig.sources import iter_sources

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PMC_PARTIAL = DATA / "jats_pdf_figure_packages" / "PMC10802347_partial_oa_package"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"


def _rows(out: Path, table: str) -> list[dict]:
    t = DatasetFolder(out).read_table(table, required=False)
    return [] if t is None else t.to_pylist()


def _same_key_pair(folder: Path) -> None:
    """``PMC9100001.tar.gz`` (the PMC package) and ``PMC9100001.zip`` (a Hindawi article): one stem."""
    folder.mkdir()
    with tarfile.open(folder / "PMC9100001.tar.gz", "w:gz") as tar:
        for path in sorted(PMC_PARTIAL.iterdir()):
            tar.add(path, arcname=path.name)
    with zipfile.ZipFile(folder / "PMC9100001.zip", "w") as zf:
        for path in sorted((HINDAWI / "PMC4657150").iterdir()):
            zf.write(path, arcname=path.name)


def test_same_stem_archives_get_distinct_keys_and_a_warning(tmp_path, capsys):
    _same_key_pair(tmp_path / "in")
    sources = list(iter_sources(tmp_path / "in"))
    assert [s.key for s in sources] == ["PMC9100001", "PMC9100001~zip"]
    assert sources[0].container.endswith(".tar.gz") and sources[0].warnings == ()
    (warning,) = sources[1].warnings
    assert "PMC9100001.tar.gz" in warning and "PMC9100001.zip" in warning
    err = capsys.readouterr().err
    assert "PMC9100001.tar.gz" in err and "PMC9100001.zip" in err and "PMC9100001~zip" in err


def test_normal_keys_are_unchanged(tmp_path):
    for name in ("PMC4657150", "PMC4691483"):
        shutil.copytree(HINDAWI / name, tmp_path / name)
    sources = list(iter_sources(tmp_path))
    assert [s.key for s in sources] == ["PMC4657150", "PMC4691483"]
    assert all(s.warnings == () for s in sources)


def test_same_stem_archives_build_into_two_articles(tmp_path):
    _same_key_pair(tmp_path / "in")
    out = tmp_path / "out"
    report = build(tmp_path / "in", out, workers=0, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_processed == 2
    articles = {row["article_key"]: row for row in _rows(out, "articles")}
    assert sorted(articles) == ["PMC9100001", "PMC9100001~zip"]
    # both contents are there: the PMC package's preprint and the Hindawi case report
    assert articles["PMC9100001"]["title"] != articles["PMC9100001~zip"]["title"]
    assert any("PMC9100001.tar.gz" in w for w in articles["PMC9100001~zip"]["warnings"])
    figures = _rows(out, "figures")
    assert {f["article_key"] for f in figures} == {"PMC9100001", "PMC9100001~zip"}


def test_zero_byte_pair_gives_one_error_row_per_file(tmp_path):
    (tmp_path / "in").mkdir()
    for name in ("zero.zip", "zero.tar.gz"):
        (tmp_path / "in" / name).write_bytes(b"")
    report = build(tmp_path / "in", tmp_path / "out", workers=0, progress=False, pdf_figures=False,
                   subfigures=False)
    assert report.articles_failed == 2
    errors = _rows(tmp_path / "out", "errors")
    assert sorted(e["article_key"] for e in errors) == ["zero", "zero~zip"]
    assert sorted(Path(e["file"]).name for e in errors) == ["zero.tar.gz", "zero.zip"]


# -- figure image names -------------------------------------------------------------------

def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check_every_stored_file(out: Path) -> tuple[list[dict], list[dict]]:
    """Every figure row's file hashes to the row's sha256; every panel crop exists and is its own."""
    figures = [f for f in _rows(out, "figures") if f["image_status"] == "ok"]
    paths = [f["image_path"] for f in figures]
    assert len(set(paths)) == len(paths), "two figure rows share one image file"
    for f in figures:
        assert _sha256(out / f["image_path"]) == f["sha256"], f["image_path"]
    panels = _rows(out, "subfigures")
    crops = [p["crop_path"] for p in panels if p["crop_path"]]
    assert len(set(crops)) == len(crops), "two panel rows share one crop file"
    assert not set(crops) & set(paths)
    for crop in crops:
        assert (out / crop).is_file(), crop
    return figures, panels


def test_duplicate_figure_ids_get_files_of_their_own(tmp_path):
    article = tmp_path / "in" / "PMC10802347"
    shutil.copytree(PMC_PARTIAL, article)
    nxml = next(article.glob("*.nxml"))
    text = nxml.read_text(encoding="utf-8")
    fig3 = '<fig position="float" id="F3">'
    assert text.count(fig3) == 1
    nxml.write_text(text.replace(fig3, '<fig position="float" id="F2">'), encoding="utf-8")  # F2 twice
    out = tmp_path / "out"
    report = build(tmp_path / "in", out, workers=0, progress=False, pdf_figures=False, subfigures=True)
    assert report.articles_processed == 1 and report.articles_failed == 0
    figures, panels = _check_every_stored_file(out)
    twins = [f for f in figures if f["figure_id"] == "F2"]
    assert len(twins) == 2
    assert [Path(f["image_path"]).stem for f in twins] == ["F2", "F2~2"]
    assert twins[0]["sha256"] != twins[1]["sha256"]
    assert twins[0]["graphic_href"] != twins[1]["graphic_href"]
    (row,) = _rows(out, "articles")
    assert "duplicate figure id F2: stored as F2 and F2~2" in row["warnings"]
    # the other figures keep their plain names
    assert sorted(Path(f["image_path"]).stem for f in figures if f["figure_id"] != "F2") == ["F1", "F4"]


def test_every_stored_file_is_its_rows_own_on_a_real_build(tmp_path):
    from medfig.demo.corpus import write_demo_corpus

    inp = tmp_path / "in"
    write_demo_corpus(inp / "demo", n=3, seed=0)
    for name in ("PMC4657150", "PMC4691483"):
        shutil.copytree(HINDAWI / name, inp / name)
    out = tmp_path / "out"
    report = build(inp, out, workers=0, progress=False, pdf_figures=True, subfigures=True)
    assert report.articles_failed == 0
    figures, panels = _check_every_stored_file(out)
    assert len(figures) >= 8 and len(panels) >= 2
    assert {f["article_key"] for f in figures} >= {"PMC4657150", "PMC4691483"}


def test_image_stems_are_distinct_and_plain_when_they_can_be():
    from medfig.pipeline.article import image_stems

    assert image_stems(["F1", "F2", "fig 3"]) == ["F1", "F2", "fig_3"]
    # repeats, ids safe_name makes equal, an id shaped like a panel crop of another figure
    ids = ["fig1", "fig1", "fig 1", "fig1~2", "fig1-panel_0", "fig1"]
    stems = image_stems(ids)
    assert stems == ["fig1", "fig1~2", "fig_1", "fig1_2", "fig1-panel_0~", "fig1~3"]
    assert len(set(stems)) == len(stems)
