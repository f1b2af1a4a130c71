"""Inline references on the real corpus in ../shared/data (examples checked by hand against the XML)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from medfig.jats.inline_refs import extract_inline_refs, iter_inline_refs
from medfig.jats.parse import parse_jats
from medfig.jats.text import element_text
from medfig.records import Article, InlineRef

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
ELIFE_04177 = DATA / "elife_xml_pdf_pairs" / "elife-04177-vor-r1" / "elife-04177.xml"


def parse(path: Path) -> Article:
    return parse_jats(path.read_bytes(), key=path.parent.name, xml_file=path.name)


def article_element(path: Path) -> etree._Element:
    return etree.fromstring(path.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True))


def refs_of(article: Article, figure_id: str) -> list[InlineRef]:
    return next(f for f in article.figures if f.figure_id == figure_id).inline_refs


@pytest.fixture(scope="module")
def hindawi_files(data_dir: Path) -> list[Path]:
    files = sorted(HINDAWI.glob("*/fulltext.xml"))
    assert len(files) == 30, f"expected 30 Hindawi articles under {HINDAWI}"
    return files


@pytest.fixture(scope="module")
def hindawi(hindawi_files: list[Path]) -> dict[str, Article]:
    return {f.parent.name: parse(f) for f in hindawi_files}


@pytest.fixture(scope="module")
def elife(data_dir: Path) -> Article:
    assert ELIFE_04177.is_file(), ELIFE_04177
    return parse(ELIFE_04177)


# ------------------------------------------------------------------ whole corpus


def test_body_fig_xrefs_become_inline_refs(hindawi_files: list[Path], hindawi: dict[str, Article]) -> None:
    total = covered = 0
    for path in hindawi_files:
        article = hindawi[path.parent.name]
        root = article_element(path)
        ids = {f.figure_id for f in article.figures}
        tree = root.getroottree()
        pairs = list(iter_inline_refs(root, ids))
        total += article.n_fig_xrefs
        covered += len({tree.getpath(xref) for xref, _ in pairs})
        for xref, ref in pairs:
            assert element_text(xref) in ref.sentence, (path, ref)
            assert ref.section, (path, ref)
        # parse_jats attaches exactly what extract_inline_refs finds
        assert sum(len(f.inline_refs) for f in article.figures) == len(pairs)
    assert total == 161
    assert covered / total >= 0.98, (covered, total)


# ------------------------------------------------------------------ hand-checked Hindawi sentences


def test_panels_from_xref_text(hindawi: dict[str, Article]) -> None:
    fig1 = refs_of(hindawi["PMC4657150"], "fig1")
    sentence = "Figures 1(a) and 1(b) demonstrate in NIH 3T3 cells that p75ICD transfection"
    assert [(r.mention, r.panels) for r in fig1 if r.sentence.startswith(sentence)] == [
        ("Figures 1(a)", ["a"]),
        ("1(b)", ["b"]),
    ]
    c = next(r for r in fig1 if r.panels == ["c"])
    assert c.sentence == (
        "Figure 1(c) demonstrates in SH-EP1 human neuroblastoma cells that, after induced overexpression "
        "of p75NTR, p75ICD is found only in the nucleus."
    )
    assert c.section == "3.2. Nuclear Trafficking of p75ICD"


def test_panel_inside_parentheses(hindawi: dict[str, Article]) -> None:
    (ref,) = [r for r in refs_of(hindawi["PMC4657150"], "fig2") if r.panels == ["b"]]
    assert ref.sentence == "Induction of expression of p75ICD did not result in a change in SDH A protein (Figure 2(b))."
    assert ref.mention == "Figure 2(b)"
    assert ref.section == "3.3. Effect of p75ICD Expression on Expression of Complex II"


def test_empty_xrefs_inside_a_range(hindawi: dict[str, Article]) -> None:
    # "Figures <xref fig1>1</xref><xref fig2/><xref fig3/><xref fig4/>–<xref fig5>5</xref>"
    article = hindawi["PMC4745327"]
    sentence = "The results obtained in this study are as described in Figures 1–5."
    for figure_id in ("fig1", "fig2", "fig3", "fig4", "fig5"):
        refs = [r for r in refs_of(article, figure_id) if r.sentence == sentence]
        assert [(r.mention, r.panels, r.sentence_index) for r in refs] == [("Figures 1–5", [], 0)], figure_id


# ------------------------------------------------------------------ eLife figure supplements


def test_elife_figure_supplements(elife: Article) -> None:
    supplement = refs_of(elife, "fig2s3")
    assert [(r.mention, r.panels) for r in supplement] == [
        ("Figure 2—figure supplement 3A", ["A"]),
        ("Figure 2—figure supplement 3B,C", ["B", "C"]),
        ("Figure 2—figure supplement 3C", ["C"]),
    ]
    # one xref with rid="fig3s4 fig3s5 fig3s6" cites three supplements
    sentence = (
        "Of note, pretreatment of the supernatant by sDectin-1 did not alter the MS peak pattern "
        "(Figure 3—figure supplements 4–6)."
    )
    for figure_id in ("fig3s4", "fig3s5", "fig3s6"):
        assert any(r.sentence == sentence and r.mention == "Figure 3—figure supplements 4–6"
                   for r in refs_of(elife, figure_id)), figure_id
    main = refs_of(elife, "fig1")
    assert ("Figure 1A,B", ["A", "B"]) in [(r.mention, r.panels) for r in main]


# ------------------------------------------------------------------ small synthetic cases


def body(xml: str) -> etree._Element:
    return etree.fromstring(f"<article><body><sec><title>Results</title>{xml}</sec></body></article>")


def test_continuation_after_a_number_only_xref_and_floats_ignored() -> None:
    root = body(
        '<p>Cells grow (<xref ref-type="fig" rid="f1">1</xref>(b)). See also Fig. '
        '<xref ref-type="fig" rid="f2">2</xref>A–C.</p>'
        '<fig id="f1"><label>Figure 1</label><caption><p>Like <xref ref-type="fig" rid="f2">Fig. 2</xref>.</p>'
        "</caption></fig>"
        '<fig id="f2"><label>Figure 2</label></fig>'
    )
    refs = extract_inline_refs(root, {"f1", "f2"})
    assert [(r.figure_id, r.mention, r.panels, r.sentence_index, r.section) for r in refs] == [
        ("f1", "1(b)", ["b"], 0, "Results"),
        ("f2", "Fig. 2A–C", ["A", "B", "C"], 1, "Results"),
    ]


def test_fig_group_rid_cites_every_member() -> None:
    root = body(
        '<p>Shown in <xref ref-type="fig" rid="g1">Figure 1</xref>.</p>'
        '<fig-group id="g1"><fig id="f1a"/><fig id="f1b"/></fig-group>'
        '<p>Unknown <xref ref-type="fig" rid="nope">Figure 9</xref>.</p>'
    )
    refs = extract_inline_refs(root, {"f1a", "f1b"})
    assert [(r.figure_id, r.sentence, r.paragraph_index) for r in refs] == [
        ("f1a", "Shown in Figure 1.", 0),
        ("f1b", "Shown in Figure 1.", 0),
    ]
