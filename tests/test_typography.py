"""Issue 17 item 8: captions, subcaptions and inline references keep their superscripts and subscripts.

"5 × 10<sup>7</sup> cells" read "5 × 107 cells"; now "5 × 10⁷ cells". Real XML from ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from medfig.jats.parse import parse_jats
from medfig.jats.text import script_text

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _article(path: Path):
    return parse_jats(path.read_bytes(), key=path.parent.name)


def _figure(article, figure_id):
    return next(f for f in article.figures if f.figure_id == figure_id)


def test_elife_caption_keeps_powers_of_ten_and_genotypes():
    fig2 = _figure(_article(DATA / "elife_xml_pdf_pairs" / "elife-04177-vor-r1" / "elife-04177.xml"), "fig2")
    # XML: "splenocytes (5 × 10<sup>7</sup> cells)" and "Irf5<sup>−/−</sup>"
    assert "(5 × 10⁷ cells)" in fig2.caption
    assert "107 cells" not in fig2.caption
    assert "^{−/−}" in fig2.caption


def test_hindawi_caption_isotopes_and_subscript_words():
    fig3 = _figure(_article(DATA / "pmc_hindawi_xml_pdf" / "PMC4706941" / "fulltext.xml"), "fig3")
    # XML: "<sup>18</sup>F-FDG positive (SUV<sub>max</sub>: 2.4), and <sup>11</sup>C-CHO"
    assert "¹⁸F-FDG positive (SUV_{max}: 2.4), and ¹¹C-CHO" in fig3.caption
    assert "18F-FDG" not in fig3.caption


def test_inline_reference_sentences_keep_them_too():
    article = _article(DATA / "pmc_hindawi_xml_pdf" / "PMC4706941" / "fulltext.xml")
    sentences = [r.sentence for r in _figure(article, "fig3").inline_refs]
    assert any("¹⁸F-FDG in conjunction with ¹¹C-CHO PET/CT" in s for s in sentences), sentences
    elife = _article(DATA / "elife_xml_pdf_pairs" / "elife-04177-vor-r1" / "elife-04177.xml")
    assert any("CD11b⁺ or CD11c⁺ cells" in r.sentence for r in _figure(elife, "fig2").inline_refs)


def test_subcaptions_inherit_the_typography():
    from medfig.text.subcaptions import parse_subcaptions

    fig3 = _figure(_article(DATA / "pmc_hindawi_xml_pdf" / "PMC4706941" / "fulltext.xml"), "fig3")
    subs = {s.label: s.text for s in parse_subcaptions(fig3.caption).subcaptions}
    assert subs["a"].startswith("¹⁸F-FDG PET/CT images") and "(SUV_{max}: 2.4)" in subs["a"]
    assert subs["b"].startswith("¹⁸F-FDG PET/CT image showed") and "(SUV_{max}: 12.8)" in subs["b"]


@pytest.mark.parametrize("kind,text,expected", [
    ("sup", "7", "⁷"), ("sup", "2+", "²⁺"), ("sub", "50", "₅₀"), ("sup", "−", "⁻"),
    ("sub", "max", "_{max}"), ("sub", "c", "_c"), ("sup", "−/−", "^{−/−}"), ("sub", "KCN ", "_{KCN} "),
])
def test_unicode_where_it_exists_else_caret_or_underscore(kind, text, expected):
    assert script_text(kind, text) == expected
