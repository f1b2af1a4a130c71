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
