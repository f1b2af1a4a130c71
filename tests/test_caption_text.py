"""Caption text that reads as the article's caption (issue 15): touching words joined, line-end
hyphens resolved by the page's own words, the publisher's figure link left out."""

from __future__ import annotations

from medfig.pdf.captions import join_lines, line_text
from medfig.pdf.extract import extract_pdf
from medfig.pdf.types import Line, Word


def _word(text, x0, x1, font="Times", size=8.0):
    return Word(text, (x0, 100.0, x1, 108.0), size, font)


def test_words_split_by_a_font_change_without_a_gap_are_one_word():
    # "con" + ligature glyph "fl" set in another font + "ict", touching: one word
    line = Line(words=[_word("in", 10, 18), _word("con", 20.0, 32.0), _word("fl", 32.0, 36.0, font="Lig"),
                       _word("ict", 36.1, 46.0)])
    assert line_text(line) == "in conflict"


def test_a_real_space_between_fonts_is_kept():
    # bold label then regular text with a space glyph's width between them (0.25 em)
    line = Line(words=[_word("Fig. 2.", 10, 34, font="Times-Bold"), _word("Levels", 36.0, 60.0)])
    assert line_text(line) == "Fig. 2. Levels"
    # same font: the word grouping already decided, a split there is a space
    line = Line(words=[_word("a", 10, 14), _word("b", 14.2, 18)])
    assert line_text(line) == "a b"


def test_line_end_hyphen_is_a_break_unless_the_page_prints_the_word_hyphenated():
    assert join_lines(["switched to lev-", "ofloxacin on day 4."], set()) == "switched to levofloxacin on day 4."
    assert join_lines(["the dose-", "response curve"], {"dose-response"}) == "the dose-response curve"
    assert join_lines(["during COVID-", "19 lockdown"], set()) == "during COVID-19 lockdown"  # digit after
    assert join_lines(["NADPH-", "dependent activity"], set()) == "NADPH-dependent activity"  # capital before
    assert join_lines(["Light- and", "dark-gray bars"], set()) == "Light- and dark-gray bars"  # not at a line end
    assert join_lines(["Figure 1. Cells", "grown at 37 °C"], set()) == "Figure 1. Cells grown at 37 °C"


def test_real_captions_read_as_the_xml_caption(data_dir):
    # Elsevier sets the fi ligature in its own font: the caption read "in fi broblast cells" before
    pdf = next((data_dir / "pmc_dev_corpus" / "elsevier_PMC5988028").glob("*.pdf"))
    captions = {f.name: f.caption for f in extract_pdf(pdf.read_bytes(), name=pdf.name).figures}
    assert "in fibroblast cells after exposure to emblic myrobalan extract" in captions["Figure 5"]
    assert " fi " not in " ".join(captions.values())


def test_caption_set_in_two_columns_under_a_full_width_figure(data_dir):
    # Springer: Fig. 1's caption stops mid-sentence at the bottom of the left column and goes on
    # at the top of the right one, level with its first line; before, it ended at "time period"
    pdf = next((data_dir / "pmc_dev_corpus" / "springer_PMC7309422").glob("*.pdf"))
    captions = {f.name: f.caption for f in extract_pdf(pdf.read_bytes(), name=pdf.name).figures}
    assert "over this time period (84.5±41.6), and the shaded area shows" in captions["Figure 1"]
    assert captions["Figure 1"].endswith("one standard deviation around this mean")
    assert "colored lines plot the seasons" not in captions["Figure 1"]  # the body text below is not caption
