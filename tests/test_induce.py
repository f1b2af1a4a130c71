"""``medfig induce``: Wagner–Fischer free-end alignment (exact), template matching on the
eLife packages' figure files, every JATS caption of a Hindawi article located, the CLI."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pdfplumber

from medfig.evaluate.figure_files import load_figure_file
from medfig.evaluate.figures import iou
from medfig.induce.align import semiglobal_align
from medfig.induce.run import induce_path
from medfig.induce.tables import _best_run, table_tokens_from_jats
from medfig.text.labels import alnum

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PACKAGES = DATA / "jats_pdf_figure_packages"
GOLD = Path(__file__).resolve().parents[1] / "benchmarks" / "gold" / "pdf_figures" / "gold.json"


def _levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j - 1] + (ca != cb), prev[j] + 1, cur[-1] + 1))
        prev = cur
    return prev[-1]


def test_free_end_alignment_exact_values():
    a = semiglobal_align("kitten", "xxsittingyy")  # kitten -> sittin: k/s, e/i
    assert (a.distance, a.start, a.end) == (2, 2, 8)
    assert abs(a.score - 100 * (1 - 2 / 6)) < 1e-9
    a = semiglobal_align("figure3ctscan", "asshowninfigure3andthefigure3ctscanofthechest")
    assert (a.distance, "asshowninfigure3andthefigure3ctscanofthechest"[a.start:a.end]) == (0, "figure3ctscan")
    assert semiglobal_align("abc", "").distance == 3 and semiglobal_align("", "abc").distance == 0
    # a missing space and a hyphenation break vanish on alphanumeric text
    assert semiglobal_align(alnum("Figure 2: MRI of the brain"), alnum("xx FIGURE 2 MRI of the br- ain yy")).distance == 0


def test_free_end_alignment_equals_brute_force():
    """Distance = min over every substring of the Levenshtein distance; the returned span
    attains it; the end is the first optimal end."""
    rng = random.Random(7)
    for _ in range(300):
        a = "".join(rng.choice("abc") for _ in range(rng.randint(1, 6)))
        b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 10)))
        r = semiglobal_align(a, b)
        by_end = [min(_levenshtein(a, b[i:j]) for i in range(j + 1)) for j in range(len(b) + 1)]
        assert r.distance == min(by_end)
        assert _levenshtein(a, b[r.start:r.end]) == r.distance
        assert r.end == by_end.index(min(by_end))


def test_bag_of_words_interval_picks_the_table_rows():
    def line(text):
        return {"words": [{"text": t} for t in text.split()]}

    lines = [line("Results were significant in most patients"), line("Age Sex Weight"), line("45 F 60"),
             line("52 M 81"), line("The patients were followed up")]
    table = Counter("age sex weight 45 f 60 52 m 81".split())
    dice, i, j = _best_run(lines, table, 9)
    assert (i, j, dice) == (1, 3, 1.0)


def test_template_matching_finds_the_elife_figure_files():
    """eLife 19405 (Figure 1) and 00353 (an unlabelled figure, searched on every page): the
    figure file is found, and the box agrees with the PDF's own raster placement."""
    for folder, pdf_name, page in (("elife-19405_pmc_deposit", "elife-19405.pdf", 1),
                                   ("elife-00353_vor", "elife-00353-v1.pdf", 0)):
        ((_, paper, err),) = list(induce_path(PACKAGES / folder))
        assert err is None
        (fig,) = [f for f in paper.figures if f.fig_type == "Figure"]
        assert fig.method == "template" and fig.score >= 0.8 and fig.page == page
        with pdfplumber.open(PACKAGES / folder / pdf_name) as pl:
            (im,) = pl.pages[page].images
        assert iou(fig.box, [im["x0"], im["top"], im["x1"], im["bottom"]]) >= 0.95
    # 19405's second image file, the Insight's opening image (an <inline-graphic> outside any
    # <fig>): found on page 0 where the PDF places it, and kept apart from the figures
    ((_, paper, _),) = list(induce_path(PACKAGES / "elife-19405_pmc_deposit"))
    (g,) = paper.other_graphics
    assert g.figure_file == "elife-19405-inf1.tif" and g.method == "template" and g.page == 0 and g.score >= 0.8
    with pdfplumber.open(PACKAGES / "elife-19405_pmc_deposit" / "elife-19405.pdf") as pl:
        (im,) = pl.pages[0].images
    assert iou(g.box, [im["x0"], im["top"], im["x1"], im["bottom"]]) >= 0.9
    assert [f.name for f in paper.figures] == ["Figure 1"]
    # the same package as eLife's zip, read through medfig.sources
    ((_, zipped, err),) = list(induce_path(PACKAGES / "elife-19405_pmc_deposit" / "elife-05-19405.zip"))
    assert err is None and zipped.figures[0].method == "template" and zipped.figures[0].page == 1
    # 19405's caption is located too, below the figure
    ((_, paper, _),) = list(induce_path(PACKAGES / "elife-19405_pmc_deposit"))
    assert paper.figures[0].caption_score >= 95 and paper.figures[0].caption_box[1] > paper.figures[0].box[3]


def test_hindawi_every_caption_located_and_matches_checked_gold():
    """PMC4709619: 3 figures + 6 XML tables; every JATS caption is found, tables by the
    bag-of-words search, and every box agrees with the eye-checked gold at IoU >= 0.8."""
    ((key, paper, err),) = list(induce_path(DATA / "pmc_hindawi_xml_pdf" / "PMC4709619"))
    assert err is None and len(paper.figures) == 9
    assert sorted(f.name for f in paper.figures if f.fig_type == "Table") == [f"Table {n}" for n in range(1, 7)]
    assert all(f.page is not None and f.caption_box and f.box for f in paper.figures)
    assert all(f.method == "bow-interval" and f.score >= 0.5 for f in paper.figures if f.fig_type == "Table")
    gold = next(p for p in json.loads(GOLD.read_text())["papers"] if p["key"] == key)
    assert len(gold["figures"]) == 9
    for g in gold["figures"]:
        (f,) = [f for f in paper.figures if f.name == g["name"]]
        assert f.page == g["page"]
        assert iou(f.box, g["box"]) >= 0.8, (g["name"], f.box, g["box"])
        assert iou(f.caption_box, g["caption_box"]) >= 0.8


def test_label_only_caption_is_not_taken_from_a_mention():
    """PMC4706934's Figure 3 has no caption text in the XML: the label alone also occurs as a
    mention in the body text on page 1; the caption is the one on page 2 (gold)."""
    ((_, paper, _),) = list(induce_path(DATA / "pmc_hindawi_xml_pdf" / "PMC4706934"))
    (f,) = [f for f in paper.figures if f.name == "Figure 3"]
    assert f.page == 2


def test_table_words_come_from_the_xml_table_only():
    xml = b"""<article><body><table-wrap id="t1"><label>Table 1</label><caption><p>Cohort.</p></caption>
    <table><tr><th>Age</th><th>Sex</th></tr><tr><td>45</td><td>F</td></tr></table>
    <table-wrap-foot><p>Footnote words.</p></table-wrap-foot></table-wrap></body></article>"""
    assert table_tokens_from_jats(xml) == {"t1": ["age", "sex", "45", "f"]}


def test_cli_writes_gold_readable_json_and_names_bad_packages(tmp_path):
    src = tmp_path / "in"
    shutil.copytree(DATA / "pmc_hindawi_xml_pdf" / "PMC4657150", src / "PMC4657150")
    bad = src / "PMCBAD"
    bad.mkdir()
    shutil.copy(DATA / "pmc_hindawi_xml_pdf" / "PMC4657150" / "fulltext.xml", bad / "fulltext.xml")
    (bad / "fulltext.pdf").write_bytes(b"this is not a pdf")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "medfig.cli", "induce", str(src), "-o", str(out), "-q", "--draw",
                        str(tmp_path / "png")], capture_output=True, text=True)
    assert r.returncode == 1 and "PMCBAD" in r.stderr and "cannot open PDF" in r.stderr
    assert "1/2 articles" in r.stdout
    # one drawing per page holding a box (PMC4657150: table on page 2, figures on pages 2 and 3)
    assert sorted(x.name for x in (tmp_path / "png").iterdir()) == ["PMC4657150_p02.png", "PMC4657150_p03.png"]
    doc = json.loads((out / "PMC4657150.json").read_text())
    assert doc["schema"] == "medfig.pdf_figures/1" and {f["method"] for f in doc["figures"]} == {"band", "bow-interval"}
    (paper,) = load_figure_file(out / "PMC4657150.json")
    assert sorted(f.name for f in paper.items) == ["Figure 1", "Figure 2", "Figure 3", "Table 1"]
    r = subprocess.run([sys.executable, "-m", "medfig.cli", "evaluate", "figures", str(out), str(GOLD), "--only-predicted",
                        "--json"], capture_output=True, text=True, check=True)
    scores = json.loads(r.stdout)["overall"]["deepfigures"]
    assert scores["figures"]["f1"] == 1.0 and scores["tables"]["f1"] == 1.0 and scores["captions"]["f1"] == 1.0


def test_two_column_tables_do_not_take_the_other_columns_text():
    """PMC4745306: tables in the left column whose rows share baselines with body text of
    the right column; all three found by the bag-of-words search, as in the checked gold."""
    ((key, paper, _),) = list(induce_path(DATA / "pmc_hindawi_xml_pdf" / "PMC4745306"))
    gold = next(p for p in json.loads(GOLD.read_text())["papers"] if p["key"] == key)
    tables = [g for g in gold["figures"] if g["fig_type"] == "Table"]
    assert len(tables) == 3
    for g in tables:
        (f,) = [f for f in paper.figures if f.name == g["name"]]
        assert f.method == "bow-interval" and f.page == g["page"] and iou(f.box, g["box"]) >= 0.9, (g["name"], f.box, g["box"])
