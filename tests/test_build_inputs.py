"""Issue 17 item 9: several inputs build into one dataset; building a second corpus into a dataset never
removes the first silently: articles gone from the input leave only with --sync, and the summary names them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.cli import main
from medfig.pipeline.build import build

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
FAST = dict(workers=0, progress=False, pdf_figures=False, subfigures=False)


@pytest.fixture()
def corpora(tmp_path) -> tuple[Path, Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(HINDAWI / "PMC4736806", first / "PMC4736806")
    shutil.copytree(HINDAWI / "PMC4745290", second / "PMC4745290")
    shutil.copytree(HINDAWI / "PMC4738934", second / "PMC4738934")
    return first, second


def _keys(out: Path) -> set[str]:
    return set(pq.read_table(out / "articles.parquet").column("article_key").to_pylist())


def test_a_second_corpus_adds_to_the_dataset_and_says_what_it_kept(corpora, tmp_path):
    first, second = corpora
    out = tmp_path / "ds"
    build(first, out, **FAST)
    report = build(second, out, **FAST)
    assert report.articles_removed == 0 and report.removed_keys == []
    assert _keys(out) == {"PMC4736806", "PMC4745290", "PMC4738934"}
    assert report.articles_not_in_input == ["PMC4736806"]
    assert "kept, not in input: 1 articles of earlier runs (PMC4736806); --sync removes them" in report.summary()


def test_sync_removes_what_the_input_lost_and_names_it(corpora, tmp_path):
    first, second = corpora
    out = tmp_path / "ds"
    build([first, second], out, **FAST)
    report = build(second, out, sync=True, **FAST)
    assert report.removed_keys == ["PMC4736806"] and report.removed_by_reason == {"gone from the input": 1}
    assert _keys(out) == {"PMC4745290", "PMC4738934"}
    assert "removed articles  : PMC4736806" in report.summary()


def test_cli_merges_several_inputs(corpora, tmp_path, capsys):
    first, second = corpora
    out = tmp_path / "ds"
    assert main(["build", str(first), str(second), "-o", str(out), "--workers", "0", "--no-pdf-figures",
                 "--no-subfigures", "-q"]) == 0
    assert _keys(out) == {"PMC4736806", "PMC4745290", "PMC4738934"}
    assert "3 processed" in capsys.readouterr().out
    assert main(["build", str(second), "-o", str(out), "--workers", "0", "--no-pdf-figures", "--no-subfigures",
                 "-q", "--sync"]) == 0
    assert "removed articles  : PMC4736806" in capsys.readouterr().out


def test_one_key_naming_two_different_articles_is_refused(corpora, tmp_path, capsys):
    first, second = corpora
    clash = tmp_path / "clash"
    shutil.copytree(HINDAWI / "PMC4745290", clash / "PMC4736806")  # another article under first's key
    rc = main(["build", str(first), str(clash), "-o", str(tmp_path / "ds"), "--workers", "0", "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "article key 'PMC4736806' names different articles" in err and str(clash) in err
    # the same article in two inputs is one article
    assert main(["build", str(first), str(first), "-o", str(tmp_path / "ds2"), "--workers", "0",
                 "--no-pdf-figures", "--no-subfigures", "-q"]) == 0
    assert _keys(tmp_path / "ds2") == {"PMC4736806"}
