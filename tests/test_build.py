"""`medfig build` end to end on real articles, and on broken ones."""

from __future__ import annotations

import functools
import io
import json
import re
import shutil
import tarfile
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from lxml import etree

from medfig.cli import main
from medfig.pipeline import build as build_module
from medfig.pipeline.config import BuildConfig
from medfig.pipeline.build import build

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
PACKAGES = DATA / "jats_pdf_figure_packages"


def squash(text: str | None) -> str:
    return "".join((text or "").split())


_UNSCRIPT = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e"
                          "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e\u2212",
                          "0123456789+-=()0123456789+-=()-")


def plain(text: str | None) -> str:
    """Squashed text without the typography medfig writes for <sup>/<sub> (10⁷, SUV_{max}): what the
    XML's ``itertext()`` gives (minus signs as '-' on both sides)."""
    text = re.sub(r"[\^_]\{([^{}]*)\}", r"\1", text or "")
    return squash(re.sub(r"[\^_](\S)", r"\1", text).translate(_UNSCRIPT))


def alnum(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@pytest.fixture(scope="module")
def hindawi_dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hindawi") / "dataset"
    report = build(HINDAWI, out, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_processed == 30
    return out


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of the dataset itself; ``runs/`` and ``logs/`` are records of each run, new every time;
    dot-files (the write lock ``.medfig.lock``) are not the dataset."""
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.relative_to(folder).parts[0] not in ("runs", "logs") and not p.name.startswith(".")
    }


def test_every_fig_is_a_row_with_its_full_caption(hindawi_dataset):
    figures = pq.read_table(hindawi_dataset / "figures.parquet").to_pylist()
    by_key = {(f["article_key"], f["figure_id"]): f for f in figures}
    expected = 0
    for xml in sorted(HINDAWI.glob("*/fulltext.xml")):
        root = etree.parse(str(xml)).getroot()
        for fig in root.iter("fig"):
            expected += 1
            row = by_key[(xml.parent.name, fig.get("id"))]
            caption = fig.find("caption")  # two real figures (PMC4706934 fig2, fig3) have none
            # Full caption: every block of <caption>, compared without whitespace.
            full = "".join(caption.itertext()) if caption is not None else ""
            assert plain(row["caption"]) == plain(full), (xml, fig.get("id"))
    assert expected == 120 == len(figures)


def test_fig_xrefs_become_inline_refs_pointing_at_the_right_figure(hindawi_dataset):
    figures = pq.read_table(hindawi_dataset / "figures.parquet").to_pylist()
    sentences = {}
    for f in figures:
        sentences[(f["article_key"], f["figure_id"])] = [plain(r["sentence"]) for r in f["inline_refs"]]
    total = hit = 0
    for xml in sorted(HINDAWI.glob("*/fulltext.xml")):
        root = etree.parse(str(xml)).getroot()
        for xref in root.find("body").iter("xref"):
            if xref.get("ref-type") != "fig":
                continue
            total += 1
            paragraph = next(a for a in xref.iterancestors() if a.tag == "p")
            para_text = plain("".join(paragraph.itertext()))
            cited = sentences.get((xml.parent.name, xref.get("rid")), [])
            # The inline ref must sit in the xref's own paragraph and carry the xref's text.
            if any(s in para_text and squash(xref.text) in s for s in cited):
                hit += 1
    assert total == 161
    assert hit / total >= 0.98, f"{hit}/{total} fig xrefs became inline refs"


def test_a_hand_checked_figure_row(hindawi_dataset):
    figures = pq.read_table(hindawi_dataset / "figures.parquet").to_pylist()
    row = next(f for f in figures if f["article_key"] == "PMC4657150" and f["figure_id"] == "fig1")
    assert row["label"] == "Figure 1"
    assert row["licence_spdx"] == "CC-BY"
    assert row["doi"] == "10.1155/2016/8752821"
    assert row["pmcid"] == "PMC4657150"
    # Hindawi packages carry no figure files: the row says so instead of vanishing.
    assert row["image_status"] == "missing" and row["image_path"] is None
    panels = sorted(p for ref in row["inline_refs"] for p in ref["panels"])
    assert {"a", "b", "c"} <= set(panels)


def test_second_build_of_the_hindawi_corpus_does_no_work_and_changes_no_file(hindawi_dataset):
    before = _snapshot(hindawi_dataset)
    report = build(HINDAWI, hindawi_dataset, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_processed == 0 and report.articles_skipped == 30
    assert report.files_written == []
    assert _snapshot(hindawi_dataset) == before


def test_parallel_and_serial_builds_agree(hindawi_dataset, tmp_path):
    serial = tmp_path / "serial"
    build(HINDAWI, serial, workers=1, progress=False, pdf_figures=False, subfigures=False)
    for name in ("figures.parquet", "articles.parquet", "errors.parquet", "stats.json"):
        assert (serial / name).read_bytes() == (hindawi_dataset / name).read_bytes(), name


def test_real_packages_give_images(tmp_path):
    out = tmp_path / "ds"
    build(PACKAGES, out, workers=1, progress=False, pdf_figures=False, subfigures=False)
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    fig = next(f for f in figures if f["article_key"].startswith("elife-19405") and f["label"] == "Figure 1")
    assert fig["image_status"] == "ok"
    assert (fig["image_format"], fig["source_image_format"]) == ("PNG", "TIFF")
    assert (fig["width"], fig["height"]) == (1417, 1252)
    assert (out / fig["image_path"]).is_file()
    assert fig["licence_spdx"] == "CC-BY-4.0"
    nih = [f for f in figures if f["article_key"].startswith("PMC10802347")]
    assert len(nih) == 4
    assert all(f["licence_spdx"] == "CC-BY-NC-ND-4.0" for f in nih)
    assert sum(f["image_format"] == "JPEG" for f in nih) == 3  # full-size jpg preferred over gif


def _corrupt_corpus(root: Path) -> None:
    """Good articles next to every kind of bad input the issue names."""
    good = HINDAWI / "PMC4706941"
    shutil.copytree(good, root / "PMC4706941")

    malformed = root / "PMC0000001"
    malformed.mkdir()
    (malformed / "PMC0000001.xml").write_text("<article><front><article-meta><title-group>")

    odd = root / "PMC0000002"  # empty caption, unknown licence, graphic that is not in the package
    odd.mkdir()
    (odd / "PMC0000002.xml").write_text(
        """<?xml version="1.0"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="case-report"><front><article-meta>
<article-id pub-id-type="pmc">0000002</article-id>
<title-group><article-title>Odd</article-title></title-group>
<permissions><license><license-p>All rights reserved; reuse by permission only.</license-p></license></permissions>
</article-meta></front><body><p>See <xref ref-type="fig" rid="f1">Figure 1</xref>.</p>
<fig id="f1"><label>Figure 1</label><caption><p></p></caption><graphic xlink:href="nowhere"/></fig>
</body></article>""")

    corrupt_image = root / "PMC0000003"
    corrupt_image.mkdir()
    (corrupt_image / "PMC0000003.xml").write_text(
        """<article xmlns:xlink="http://www.w3.org/1999/xlink"><front><article-meta>
<permissions><license xlink:href="http://creativecommons.org/licenses/by/4.0/"/></permissions>
</article-meta></front><body><fig id="f1"><label>Figure 1</label><caption><p>A chest CT.</p></caption>
<graphic xlink:href="g1"/></fig></body></article>""")
    (corrupt_image / "g1.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")

    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w:gz") as tar:
        for path in sorted((PACKAGES / "PMC10802347_partial_oa_package").iterdir()):
            tar.add(path, arcname=f"PMC10802347/{path.name}")
    data = tar_bytes.getvalue()
    (root / "PMC10802347.tar.gz").write_bytes(data[: len(data) // 2])  # truncated download

    with zipfile.ZipFile(root / "evil.zip", "w") as zf:
        zf.writestr("../../escape.txt", "owned")
        zf.writestr("evil.xml", (HINDAWI / "PMC4709619" / "fulltext.xml").read_bytes())


def test_bad_inputs_become_error_rows_and_the_rest_goes_on(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _corrupt_corpus(corpus)
    out = tmp_path / "ds"
    report = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path.parent / "escape.txt").exists()
    errors = pq.read_table(out / "errors.parquet").to_pylist()
    figures = pq.read_table(out / "figures.parquet").to_pylist()

    def errors_for(key):
        return [e for e in errors if e["article_key"].startswith(key)]

    assert [e["stage"] for e in errors_for("PMC0000001")] == ["xml"]
    assert "PMC0000001.xml" in errors_for("PMC0000001")[0]["file"]
    tar_errors = errors_for("PMC10802347")
    assert tar_errors and tar_errors[0]["stage"] == "source"
    assert "PMC10802347.tar.gz" in tar_errors[0]["file"] + tar_errors[0]["message"]

    odd = next(f for f in figures if f["article_key"] == "PMC0000002")
    assert odd["caption"] == "" and odd["licence_spdx"] is None and odd["image_status"] == "missing"
    assert {"empty_caption", "unknown_licence"} <= set(odd["flags"])
    assert any("nowhere" in e["message"] for e in errors_for("PMC0000002"))

    corrupt = next(f for f in figures if f["article_key"] == "PMC0000003")
    assert corrupt["image_status"] == "error" and corrupt["caption"] == "A chest CT."
    assert any(e["stage"] == "image" and "g1.jpg" in e["file"] for e in errors_for("PMC0000003"))

    good = [f for f in figures if f["article_key"] == "PMC4706941"]
    assert len(good) == 3
    evil = [f for f in figures if f["article_key"].startswith("evil")]
    assert len(evil) == 3, "the traversal member is skipped, the article itself is kept"
    assert report.stats["articles_failed"] == 2  # malformed XML + truncated tar


def test_failed_articles_are_retried_and_a_killed_build_resumes(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for key in ("PMC4657150", "PMC4691483", "PMC4706923", "PMC4706934", "PMC4706941"):
        shutil.copytree(HINDAWI / key, corpus / key)
    out = tmp_path / "ds"
    real = functools.partial(build_module.process_article, config=BuildConfig(pdf_figures=False, subfigures=False))
    calls = {"n": 0}

    def dies_on_fourth(source, out_dir):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # the user, or the OOM killer, stops the run mid-way
        return real(source, out_dir)

    with pytest.raises(KeyboardInterrupt):
        build(corpus, out, workers=0, progress=False, pdf_figures=False, subfigures=False, task=dies_on_fourth)
    report = build(corpus, out, workers=0, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_skipped == 3 and report.articles_processed == 2
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    keys = [(f["article_key"], f["figure_id"]) for f in figures]
    assert len(keys) == len(set(keys)), "no duplicate rows after resume"
    assert {k for k, _ in keys} == {"PMC4657150", "PMC4691483", "PMC4706923", "PMC4706934", "PMC4706941"}


def test_cli_build_prints_a_summary(tmp_path, capsys):
    corpus = tmp_path / "one"
    shutil.copytree(HINDAWI / "PMC4736806", corpus / "PMC4736806")
    assert main(["build", str(corpus), "-o", str(tmp_path / "ds"), "--workers", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "1 processed" in out and "9 figures" in out and "errors by stage" in out


def test_cli_build_names_a_missing_input(tmp_path, capsys):
    assert main(["build", str(tmp_path / "nope"), "-o", str(tmp_path / "ds")]) == 2
    assert "nope" in capsys.readouterr().err


def test_second_build_with_images_does_no_work_and_changes_no_file(tmp_path):
    corpus = tmp_path / "corpus"
    for key in ("PMC4736806", "PMC4745290"):
        shutil.copytree(HINDAWI / key, corpus / key)
    shutil.copytree(PACKAGES / "elife-19405_pmc_deposit", corpus / "elife-19405_pmc_deposit")
    out = tmp_path / "ds"
    first = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert first.articles_processed == 3 and (out / "images").is_dir()
    before = _snapshot(out)
    second = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert (second.articles_processed, second.articles_skipped, second.files_written) == (0, 3, [])
    assert _snapshot(out) == before, "a no-op build must not touch a single file (bytes or mtime)"
    runs = sorted((out / "runs").glob("*.json"))
    assert len(runs) == 2  # one record per run, with that run's timings
    last = json.loads(runs[-1].read_text())
    assert (last["articles_processed"], last["articles_skipped"], last["files_written"]) == (0, 3, [])
    assert last["seconds"] > 0 and "seconds" not in json.loads((out / "stats.json").read_text())


def test_failed_article_is_retried_once_fixed_and_removed_articles_leave(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(HINDAWI / "PMC4736806", corpus / "PMC4736806")
    shutil.copytree(PACKAGES / "elife-19405_pmc_deposit", corpus / "elife-19405_pmc_deposit")
    broken = corpus / "PMC4745290"
    broken.mkdir()
    (broken / "fulltext.xml").write_text("<article><body><p>cut off")
    out = tmp_path / "ds"
    report = build(corpus, out, workers=0, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_failed == 1
    errors = pq.read_table(out / "errors.parquet").to_pylist()
    assert [e["article_key"] for e in errors if e["stage"] == "xml"] == ["PMC4745290"]

    shutil.rmtree(broken)
    shutil.copytree(HINDAWI / "PMC4745290", broken)  # the user re-downloads the article
    shutil.rmtree(corpus / "elife-19405_pmc_deposit")  # and drops another from the corpus
    # --sync: the dataset mirrors its input (without it the dropped article stays: tests/test_build_inputs.py)
    report = build(corpus, out, workers=0, progress=False, pdf_figures=False, subfigures=False, sync=True)
    assert (report.articles_processed, report.articles_skipped, report.articles_removed) == (1, 1, 1)
    assert not [e for e in pq.read_table(out / "errors.parquet").to_pylist() if e["stage"] != "image"]
    keys = set(pq.read_table(out / "figures.parquet").column("article_key").to_pylist())
    assert keys == {"PMC4736806", "PMC4745290"}
    assert not (out / "images" / "elife-19405_pmc_deposit").exists()
    assert report.stats["articles"] == 2


def test_figure_flags_name_what_a_dataset_builder_must_know(hindawi_dataset):
    figures = pq.read_table(hindawi_dataset / "figures.parquet").to_pylist()
    by_key = {(f["article_key"], f["figure_id"]): f for f in figures}
    assert "empty_caption" in by_key[("PMC4706934", "fig2")]["flags"]
    assert "empty_caption" not in by_key[("PMC4706934", "fig1")]["flags"]
    # Hindawi states CC BY in every article: no figure may be flagged unknown.
    assert not any("unknown_licence" in f["flags"] for f in figures)
    stats = (hindawi_dataset / "stats.json").read_text()
    assert '"empty_caption": 2' in stats


def test_figures_without_files_are_cropped_from_the_pdf(tmp_path):
    corpus = tmp_path / "corpus"
    for key in ("PMC4657150", "PMC4736806"):  # Hindawi: XML + PDF, no figure files at all
        shutil.copytree(HINDAWI / key, corpus / key)
    out = tmp_path / "ds"
    report = build(corpus, out, workers=2, progress=False)
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    assert len(figures) == 12 and report.stats["figures_with_image"] == 12
    assert not pq.read_table(out / "errors.parquet").num_rows
    import pdfplumber
    from PIL import Image

    native = 0
    for f in figures:
        assert (f["image_source"], f["source_image_format"], f["image_status"]) == ("pdf", "PDF", "ok")
        x0, y0, x1, y1 = f["pdf_box"]
        assert 0 <= x0 < x1 <= 612 and 0 <= y0 < y1 <= 792, f["pdf_box"]  # US Letter pages, points
        # the box is rendered at its rasters' own resolution (150-600 dpi), read here with pdfplumber
        pdf = next((corpus / f["article_key"]).glob("*.pdf"))
        with pdfplumber.open(pdf) as plumber:
            dpis = [max(im["srcsize"][0] / (im["x1"] - im["x0"]), im["srcsize"][1] / (im["bottom"] - im["top"])) * 72
                    for im in plumber.pages[f["pdf_page"]].images
                    if max(0, min(im["x1"], x1) - max(im["x0"], x0)) * max(0, min(im["bottom"], y1) - max(im["top"], y0))
                    >= 0.5 * (im["x1"] - im["x0"]) * (im["bottom"] - im["top"])]
        dpi = min(600.0, max([150.0, *dpis]))
        native += dpi > 150
        with Image.open(out / f["image_path"]) as image:
            assert abs(image.width - (x1 - x0) * dpi / 72) <= 2 and abs(image.height - (y1 - y0) * dpi / 72) <= 2
    assert native >= 6  # Hindawi embeds photos above 150 dpi: most crops are larger than before
    # Checked by eye on the rendered pages: Figure 1 of PMC4657150 is the three-panel (a)-(c) blot and
    # fluorescence figure on page 3, above its caption; its box spans most of the text width.
    fig1 = next(f for f in figures if (f["article_key"], f["figure_id"]) == ("PMC4657150", "fig1"))
    assert fig1["pdf_page"] == 2 and fig1["pdf_box"][2] - fig1["pdf_box"][0] > 350

    flipped = build(corpus, out, workers=2, progress=False, pdf_figures=False, subfigures=False)  # other options: redo all
    assert flipped.articles_processed == 2 and flipped.stats["figures_with_image"] == 0


def test_figures_with_files_also_get_their_place_in_the_pdf(tmp_path):
    """eLife's PMC deposit ships Figure 1 as a TIFF and the typeset PDF: the row keeps the
    published file as its image and also gets the figure's page and box in the PDF, which
    must match the eye-checked gold box (benchmarks/gold/pdf_figures/gold.json) at IoU >= 0.8."""
    import json

    corpus = tmp_path / "corpus"
    shutil.copytree(PACKAGES / "elife-19405_pmc_deposit", corpus / "elife-19405", ignore=shutil.ignore_patterns("*.zip"))
    out = tmp_path / "ds"
    build(corpus, out, workers=0, progress=False, subfigures=False)
    gold_papers = json.loads((Path(__file__).resolve().parents[1] / "benchmarks" / "gold" / "pdf_figures" / "gold.json")
                             .read_text())["papers"]
    gold = {f["name"]: f for p in gold_papers if p["key"] == "elife-19405" for f in p["figures"]}
    with_file = [f for f in pq.read_table(out / "figures.parquet").to_pylist() if f["graphic_file"]]
    assert [f["label"] for f in with_file] == ["Figure 1"]
    for f in with_file:
        assert (f["image_status"], f["image_source"], f["source_image_format"]) == ("ok", "package", "TIFF")
        truth = gold[f["label"]]
        assert f["pdf_page"] == truth["page"]
        assert _iou(f["pdf_box"], truth["box"]) >= 0.8, (f["pdf_box"], truth["box"])
    assert not pq.read_table(out / "errors.parquet").num_rows


def test_a_pdf_alone_gives_figures_captions_and_inline_refs_that_agree_with_its_xml(tmp_path):
    from medfig.jats.parse import parse_jats

    folder = HINDAWI / "PMC4736806"
    corpus = tmp_path / "pdfs"
    corpus.mkdir()
    shutil.copy(next(folder.glob("*.pdf")), corpus / "PMC4736806.pdf")  # no XML beside it
    out = tmp_path / "ds"
    build(corpus, out, workers=1, progress=False)
    rows = {f["label"]: f for f in pq.read_table(out / "figures.parquet").to_pylist()}
    truth = parse_jats((folder / "fulltext.xml").read_bytes(), key="PMC4736806")
    assert [f.label for f in truth.figures] == [f"Figure {n}" for n in range(1, 10)]
    assert set(rows) == {f.label for f in truth.figures}
    for figure in truth.figures:
        row = rows[figure.label]
        assert row["image_status"] == "ok" and row["image_source"] == "pdf"
        assert squash(figure.caption) in squash(row["caption"])  # the PDF caption starts with its label
        assert "unknown_licence" in row["flags"]
        # The sentence citing the figure in the XML is found in the PDF text by the plain-text mention finder.
        # Compared on letters and digits: the PDF prints ’ and ∼ where the XML has ' and ~.
        xml_sentences = {alnum(r.sentence) for r in figure.inline_refs}
        pdf_sentences = {alnum(r["sentence"]) for r in row["inline_refs"]}
        assert xml_sentences and all(any(x in p or p in x for p in pdf_sentences) for x in xml_sentences), figure.label


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_build_splits_compound_figures_like_the_demo_ground_truth(tmp_path):
    import json

    from medfig.demo import write_demo_corpus

    articles = tmp_path / "articles"
    write_demo_corpus(articles, n=3, seed=7)
    out = tmp_path / "ds"
    report = build(articles, out, workers=2, progress=False)
    subfigures = pq.read_table(out / "subfigures.parquet").to_pylist()
    panels = found = labelled = cited = cited_ok = false_splits = 0
    for truth_file in sorted(articles.glob("*/ground_truth.json")):
        truth = json.loads(truth_file.read_text())
        refs = {}
        for ref in truth["inline_refs"]:
            for panel in ref["panels"]:
                refs.setdefault((ref["figure_id"], panel.lower()), []).append(squash(ref["sentence"]))
        for figure in truth["figures"]:
            predicted = [s for s in subfigures if (s["article_key"], s["figure_id"]) == (truth["pmcid"], figure["figure_id"])]
            if not figure.get("compound"):
                false_splits += bool(predicted)
                continue
            for panel in figure["panels"]:
                panels += 1
                best = max(predicted, key=lambda s: _iou(s["box_px"], panel["box_px"]), default=None)
                if best is None or _iou(best["box_px"], panel["box_px"]) < 0.5:
                    continue
                found += 1
                labelled += (best["label"] or "") == panel["label"].lower()
                assert (out / best["crop_path"]).is_file()
                wanted = refs.get((figure["figure_id"], panel["label"].lower()), [])
                if wanted and best["label"] == panel["label"].lower():
                    cited += 1
                    cited_ok += set(wanted) <= {squash(r["sentence"]) for r in best["inline_refs"]}
    assert panels >= 20 and false_splits == 0
    # Panel recall at IoU 0.5 on demo figures: 104/134 (0.78) over seeds 1-6, 20/25 on seed 7. The
    # splitter's accuracy is measured on real figures in benchmarks/; here: the build wires it in.
    assert found / panels >= 0.7, (found, panels)
    # Labels of matched panels: 109/124 (0.88) over seeds 1-7; most demo letters are drawn as PDF
    # text, not in the figure file, so the reading-order fallback decides them.
    assert labelled / found >= 0.8, (labelled, found)
    assert cited and cited_ok == cited, "a sentence naming panel b is attached to panel b"
    assert report.stats["subfigures"] == len(subfigures) and report.stats["compound_figures"] >= 5


def test_notebook_build_refuses_nonsense_arguments(tmp_path):
    from medfig.records import MedfigError

    for kwargs, message in (({"workers": -3}, "workers must be"), ({"shards": 0}, "shards must be"),
                            ({"timeout_s": -5}, "timeout_s must be"), ({"executor": "dask"}, "unknown executor")):
        with pytest.raises(MedfigError, match=message):
            build(HINDAWI, tmp_path / "ds", progress=False, **kwargs)
    assert not (tmp_path / "ds").exists()  # refused before anything is written
