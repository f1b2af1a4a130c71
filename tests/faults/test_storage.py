"""A full disk (or quota, read-only or failing file system) while an article's images are written:
the article fails as a whole and the next run redoes it; it is never stored as done with an image
missing (which no later run would repair)."""

from __future__ import annotations

import errno

import pyarrow.parquet as pq

import medfig.pipeline.article as article_module
from medfig.demo import write_demo_corpus
from medfig.pipeline.build import build


def _rows(out, name):
    key = ("article_key", "figure_id", "label", "box_px", "stage", "message")
    return sorted(pq.read_table(out / f"{name}.parquet").to_pylist(), key=lambda r: tuple(str(r.get(k)) for k in key))


def test_disk_full_while_storing_images_fails_the_article_and_the_rerun_repairs_it(tmp_path, monkeypatch):
    corpus = tmp_path / "in"
    write_demo_corpus(corpus, n=3, seed=1)
    undisturbed, out = tmp_path / "undisturbed", tmp_path / "out"
    build(corpus, undisturbed, workers=0, progress=False)

    real_store = article_module.store_image
    victim = sorted(p.name for p in corpus.iterdir() if p.is_dir())[1]

    def full_disk(data, name, stem):
        if victim in str(stem):
            raise OSError(errno.ENOSPC, "No space left on device", str(stem) + ".png")
        return real_store(data, name, stem)

    monkeypatch.setattr(article_module, "store_image", full_disk)
    first = build(corpus, out, workers=0, progress=False)
    assert first.articles_failed == 1 and first.errors_by_stage["write"] == 1
    errors = pq.read_table(out / "errors.parquet").to_pylist()
    assert [(e["article_key"], e["stage"]) for e in errors] == [(victim, "write")]
    assert "No space left on device" in errors[0]["message"]
    assert victim not in {a["article_key"] for a in pq.read_table(out / "articles.parquet").to_pylist()}

    monkeypatch.setattr(article_module, "store_image", real_store)  # space again
    second = build(corpus, out, workers=0, progress=False)
    assert (second.articles_processed, second.articles_skipped) == (1, 2)
    for name in ("figures", "articles", "errors", "subfigures"):
        assert _rows(out, name) == _rows(undisturbed, name), name
    for path in (undisturbed / "images").rglob("*"):
        if path.is_file():
            assert (out / path.relative_to(undisturbed)).read_bytes() == path.read_bytes()


def test_cli_exits_1_with_one_line_when_articles_could_not_be_written(tmp_path, monkeypatch, capsys):
    from medfig.cli import main

    corpus = tmp_path / "in"
    write_demo_corpus(corpus, n=2, seed=2)

    def full_disk(data, name, stem):
        raise OSError(errno.ENOSPC, "No space left on device", str(stem) + ".png")

    monkeypatch.setattr(article_module, "store_image", full_disk)
    assert main(["build", str(corpus), "-o", str(tmp_path / "out"), "--workers", "0", "-q"]) == 1
    err = capsys.readouterr().err
    assert "2 article(s) could not be written" in err and "redone by the next run" in err
    assert "Traceback" not in err
