"""`medfig demo`: synthetic articles whose ground truth later tests rely on.

The ground truth is checked against what independent readers see in the files:
pdfplumber for boxes and text, pypdfium2 for opening the PDF, Pillow for the
pixels of the figure files, and the project's own JATS parser for the XML.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest
from lxml import etree
from PIL import Image

from medfig.cli import main
from medfig.demo import GROUND_TRUTH, write_demo_corpus
from medfig.jats.parse import parse_jats

N = 3
TOL = 1.0  # points: the agreement the ground truth promises


def squash(text: str) -> str:
    return " ".join(text.split())


def near(a: list[float], b: list[float], tol: float = TOL) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def inside(inner: list[float], outer: list[float], tol: float = 0.0) -> bool:
    return inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol


def grow(box: list[float], by: float = TOL) -> tuple[float, float, float, float]:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    return write_demo_corpus(tmp_path_factory.mktemp("demo") / "articles", n=N, seed=0)


@pytest.fixture(scope="module")
def articles(corpus) -> list[tuple[Path, dict]]:
    return [(folder, json.loads((folder / GROUND_TRUTH).read_text("utf-8"))) for folder in corpus]


@pytest.fixture(scope="module")
def pdfs(articles):
    opened = {gt["pmcid"]: pdfplumber.open(folder / gt["pdf_file"]) for folder, gt in articles}
    yield opened
    for pdf in opened.values():
        pdf.close()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------- files


def test_pmc_layout_and_variety(corpus, articles):
    assert [f.name for f in corpus] == [f"PMC{9000001 + i}" for i in range(N)]
    extensions, kinds, layouts, styles = set(), set(), set(), set()
    for folder, gt in articles:
        assert (folder / gt["xml_file"]).is_file() and (folder / gt["pdf_file"]).is_file()
        assert gt["coordinates"].startswith("PDF points, origin top-left")
        figs = gt["figures"]
        assert any(f["kind"] == "vector" for f in figs), "every article has a vector chart"
        assert any(f["compound"] for f in figs) and any(not f["compound"] for f in figs)
        assert len(gt["tables"]) == 1
        for f in figs:
            assert (folder / f["image_file"]).is_file()
            if f["compound"]:
                assert 2 <= len(f["panels"]) <= 6
            else:
                assert len(f["panels"]) == 1
            extensions.add(f["image_file"].rsplit(".", 1)[1])
            kinds.add(f["kind"])
            layouts.add(f["layout"])
            styles |= {p["printed"][0] for p in f["panels"] if p["printed"] and f["kind"] == "raster"}
        # No temp files left behind by the atomic writes.
        assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    assert extensions == {"tif", "jpg", "png"}
    assert kinds == {"raster", "vector"} and layouts == {"column", "full"}
    assert {gt["licence"]["style"] for _, gt in articles} == {"href", "ali", "text"}
    all_figs = [f for _, gt in articles for f in gt["figures"]]
    assert any(f["fig_type"] == "figure-supplement" for f in all_figs)
    assert any(f["licence"]["spdx"] != gt["licence"]["spdx"] for _, gt in articles for f in gt["figures"])


def test_same_seed_same_bytes(tmp_path, corpus):
    again = write_demo_corpus(tmp_path / "again", n=N, seed=0)
    for a, b in zip(corpus, again, strict=True):
        fa, fb = _files(a), _files(b)
        assert sorted(fa) == sorted(fb)
        for name in fa:
            assert fa[name] == fb[name], f"{a.name}/{name} differs between runs"
    other = write_demo_corpus(tmp_path / "other", n=1, seed=1)
    assert _files(other[0])[GROUND_TRUTH] != _files(corpus[0])[GROUND_TRUTH]


def test_cli_writes_articles(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "cli"), "--n", "1", "--seed", "3"]) == 0
    assert "wrote 1 synthetic articles" in capsys.readouterr().out
    assert (tmp_path / "cli" / "PMC9000001" / GROUND_TRUTH).is_file()


# --------------------------------------------------------------------- PDF


def test_pdf_is_multipage_and_opens(articles):
    for folder, gt in articles:
        doc = pdfium.PdfDocument(folder / gt["pdf_file"])
        try:
            assert len(doc) == gt["n_pages"] >= 2
            for i in range(len(doc)):
                assert near(list(doc[i].get_size()), gt["page_size"], 0.01)
            bitmap = doc[0].render(scale=0.5).to_pil()
            assert bitmap.size[0] > 100
            for f in gt["figures"] + gt["tables"]:
                assert 0 <= f["page"] < len(doc)
        finally:
            doc.close()


def test_raster_figure_boxes_match_pdf_images(articles, pdfs):
    checked = 0
    for _, gt in articles:
        pdf = pdfs[gt["pmcid"]]
        for page_no, page in enumerate(pdf.pages):
            expected = [f for f in gt["figures"] if f["page"] == page_no and f["kind"] == "raster"]
            images = page.images
            assert len(images) == len(expected), "one placed image per raster figure, nothing else"
            for f in expected:
                match = [im for im in images if near([im["x0"], im["top"], im["x1"], im["bottom"]], f["box"])]
                assert len(match) == 1, (gt["pmcid"], f["figure_id"])
                assert list(match[0]["srcsize"]) == f["image_size"]  # the file's pixels, placed once
                checked += 1
    assert checked == sum(f["kind"] == "raster" for _, gt in articles for f in gt["figures"]) > 0


def test_vector_figure_is_drawn_not_embedded(articles, pdfs):
    checked = 0
    for _, gt in articles:
        for f in (f for f in gt["figures"] if f["kind"] == "vector"):
            page = pdfs[gt["pmcid"]].pages[f["page"]]
            region = page.within_bbox(grow(f["box"]))
            assert not region.images
            assert len(region.lines) + len(region.curves) + len(region.rects) >= 10
            assert region.chars, "axis labels are real text"
            objs = region.lines + region.curves + region.rects + region.chars
            union = [min(o["x0"] for o in objs), min(o["top"] for o in objs), max(o["x1"] for o in objs), max(o["bottom"] for o in objs)]
            assert near(union, f["box"])
            for p in f["panels"]:
                assert inside(p["box_page"], f["box"], 0.01)
            checked += 1
    assert checked >= N, "every article has a vector chart"


def test_captions_are_where_the_ground_truth_says(articles, pdfs):
    for _, gt in articles:
        assert gt["figures"] and len(gt["tables"]) == 1
        pdf = pdfs[gt["pmcid"]]
        for f in gt["figures"]:
            text = pdf.pages[f["page"]].within_bbox(grow(f["caption_box"])).extract_text()
            assert squash(text) == squash(f"{f['label_pdf']} {f['caption']}"), (gt["pmcid"], f["figure_id"])
            # Caption below the art, never overlapping it.
            assert f["caption_box"][1] > f["box"][3]
        for t in gt["tables"]:
            page = pdf.pages[t["page"]]
            text = page.within_bbox(grow(t["caption_box"])).extract_text()
            assert squash(text).endswith(squash(t["caption"]))
            cells = page.within_bbox(grow(t["box"])).extract_words()
            assert cells and all(inside([w["x0"], w["top"], w["x1"], w["bottom"]], t["box"], TOL) for w in cells)


def test_words_of_caption_lie_inside_caption_box(articles, pdfs):
    for _, gt in articles:
        assert gt["figures"]
        pdf = pdfs[gt["pmcid"]]
        for f in gt["figures"]:
            words = pdf.pages[f["page"]].extract_words()
            hit = [w for w in words if inside([w["x0"], w["top"], w["x1"], w["bottom"]], f["caption_box"], TOL)]
            assert len(hit) == len(f"{f['label_pdf']} {f['caption']}".split())


# --------------------------------------------------------------------- panels


def test_panel_boxes_lie_in_the_image_and_do_not_overlap(articles):
    mapped_panels = 0
    for _, gt in articles:
        for f in gt["figures"]:
            w, h = f["image_size"]
            boxes = [p["box_px"] for p in f["panels"]]
            for b in boxes:
                assert inside(b, [0, 0, w, h], 0.01) and b[0] < b[2] and b[1] < b[3]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5
            if f["kind"] == "raster":  # page boxes are the pixel boxes scaled onto the figure box
                s = (f["box"][2] - f["box"][0]) / w
                for p in f["panels"]:
                    mapped = [f["box"][0] + p["box_px"][0] * s, f["box"][1] + p["box_px"][1] * s, f["box"][0] + p["box_px"][2] * s, f["box"][1] + p["box_px"][3] * s]
                    assert near(mapped, p["box_page"], 0.01)
                    mapped_panels += 1
    assert mapped_panels > 0


def test_subcaptions_are_spans_of_the_caption(articles):
    spans = 0
    for _, gt in articles:
        for f in gt["figures"]:
            if not f["compound"]:
                assert f["panels"][0]["label"] is None
                continue
            for p in f["panels"]:
                start, end = p["subcaption_span"]
                assert f["caption"][start:end] == p["subcaption"]
                assert p["printed"].strip("()") == p["label"]
                spans += 1
    assert spans >= 2 * N  # every article has a compound figure of at least two panels


def test_burned_letters_are_in_the_pixels(articles):
    burned = 0
    for folder, gt in articles:
        for f in gt["figures"]:
            if f["letters"] != "burned":
                continue
            img = np.asarray(Image.open(folder / f["image_file"]).convert("L"), np.float32)
            for p in f["panels"]:
                x0, y0, x1, y1 = (round(v) for v in p["letter_box_px"])
                assert inside(p["letter_box_px"], p["box_px"])
                letter = img[y0:y1, x0:x1]
                ring = np.concatenate([img[y0 - 2, x0:x1], img[y1 + 1, x0:x1], img[y0:y1, x0 - 2], img[y0:y1, x1 + 1]])
                # Glyph strokes contrast with the background around them.
                assert np.abs(letter - np.median(ring)).max() > 100, (gt["pmcid"], f["figure_id"], p["label"])
                burned += 1
    assert burned, "the corpus has at least one figure with letters in the pixels"


def test_pdf_text_letters_are_pdf_text(articles, pdfs):
    seen = 0
    for _, gt in articles:
        for f in gt["figures"]:
            if f["letters"] != "pdf_text":
                continue
            page = pdfs[gt["pmcid"]].pages[f["page"]]
            for p in f["panels"]:
                assert inside(p["letter_box_page"], p["box_page"], TOL)
                assert page.within_bbox(grow(p["letter_box_page"])).extract_text() == p["printed"]
                if f["kind"] == "raster":
                    assert p["letter_box_px"] is None  # not in the figure file
                seen += 1
    assert seen


# --------------------------------------------------------------------- JATS


def _parse(folder: Path, gt: dict):
    files = sorted(p.name for p in folder.iterdir())
    return parse_jats((folder / gt["xml_file"]).read_bytes(), key=gt["pmcid"], xml_file=gt["xml_file"], package_files=files)


def test_jats_parser_agrees_with_ground_truth(articles):
    for folder, gt in articles:
        article = _parse(folder, gt)
        assert article.pmcid == gt["pmcid"] and article.doi == gt["doi"]
        assert squash(article.title or "") == squash(gt["title"])
        assert article.licence.spdx == gt["licence"]["spdx"]
        assert not article.warnings
        assert [f.figure_id for f in article.figures] == [f["figure_id"] for f in gt["figures"]]
        for parsed, f in zip(article.figures, gt["figures"], strict=True):
            assert parsed.label == f["label"]
            assert squash(parsed.caption) == squash(f["caption"])
            assert parsed.graphic_href == f["graphic_href"]
            assert parsed.graphic_file == f["image_file"]
            assert parsed.licence.spdx == f["licence"]["spdx"]
            assert (parsed.fig_type, parsed.parent_id) == (f["fig_type"], f["parent_id"])
        assert [(t.table_id, squash(t.caption)) for t in article.tables] == [(t["table_id"], squash(t["caption"])) for t in gt["tables"]]
        # One <xref ref-type="fig"> per cited figure per sentence.
        assert article.n_fig_xrefs == len(gt["inline_refs"])


def test_inline_ref_sentences_are_in_the_xml(articles):
    for folder, gt in articles:
        assert gt["inline_refs"], gt["pmcid"]
        root = etree.parse(str(folder / gt["xml_file"])).getroot()
        paragraphs = [squash("".join(p.itertext())) for p in root.find("body").iter("p")]
        for ref in gt["inline_refs"]:
            assert any(squash(ref["sentence"]) in p for p in paragraphs), ref
            assert ref["mention"] in ref["sentence"] or ref["mention"].startswith("Figs.")
        for f in gt["figures"]:
            letters = {p["label"] for p in f["panels"]}
            for ref in (r for r in gt["inline_refs"] if r["figure_id"] == f["figure_id"]):
                assert set(ref["panels"]) <= letters


def test_parsed_inline_refs_match_ground_truth(articles):
    compared = 0
    for folder, gt in articles:
        article = _parse(folder, gt)
        assert [f.figure_id for f in article.figures] == [f["figure_id"] for f in gt["figures"]]
        for f in article.figures:
            want = sorted(tuple(r["panels"]) for r in gt["inline_refs"] if r["figure_id"] == f.figure_id)
            assert sorted(tuple(r.panels) for r in f.inline_refs) == want, f.figure_id
            compared += len(want)
    assert compared == sum(len(gt["inline_refs"]) for _, gt in articles) > 0
