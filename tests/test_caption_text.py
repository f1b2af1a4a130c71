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


def _captions(pdf_path):
    # captions do not depend on the layout detector: the cheap mode reads the same caption text
    result = extract_pdf(pdf_path.read_bytes(), name=pdf_path.name, use_layout=False)
    return {f.name: f.caption for f in [*result.figures, *result.regionless]}


def test_a_legend_continued_on_the_next_page_is_read_to_its_end(data_dir):
    # eLife ends the page's part of a long legend with "Figure 5. Continued on next page" and goes on
    # under "Figure 5. Continued" overleaf; before, the caption stopped at "in WT or Dectin-1−/− mice. WT and"
    captions = _captions(data_dir / "elife_xml_pdf_pairs" / "elife-04177-vor-r1" / "elife-04177.pdf")
    assert "WT and Dectin-1−/− mice were intravenously injected with GFP-expressing 3LL" in captions["Figure 5"]
    assert captions["Figure 5"].endswith("ND, none detected; NS, not significant.")
    assert "ontinued" not in captions["Figure 5"]
    # Figure 1's legend ends its sentence before the marker: what goes on overleaf is the list of its
    # figure supplements, not legend text
    assert captions["Figure 1"].endswith("Represented as means ± SD.")
    # a table caption stops at the table's header row ("Unigene | Gene symbol | Fold change"), a row of
    # cells level with each other under it
    assert captions["Table 1"] == "Table 1. Induction of mRNAs in DCs co-cultured with B16F1 cells via Dectin-1 signaling"
    # the same in lower case and without a delimiter ("Figure 6 continued on next page")
    captions = _captions(data_dir / "elife_xml_pdf_pairs" / "elife-15600-vor-r1" / "elife-15600.pdf")
    assert "ontinued" not in captions["Figure 6"]
    assert "Dashed lines connect 0.25 and 0.75 quartile values" in captions["Figure 6"]


def test_a_bold_panel_letter_after_the_label_keeps_the_caption(data_dir):
    # Springer: "Fig. 1 a ISSR profile ... b RAPD profile", label and panel letter bold; before, the
    # label's font change was not seen and Figure 1 had no caption at all
    captions = _captions(data_dir / "pmc_dev_corpus" / "springer_PMC4569613" / "fulltext.pdf")
    assert captions["Figure 1"].startswith("Fig. 1 a ISSR profile 17 Ocimum genotypes generated by UBC 807")


def test_a_caption_line_broken_by_inline_math_is_read_whole(data_dir):
    # Hindawi: "r_s = 0.81" is set in a math font on a baseline a point off, and the left column's
    # line beside it is offset too: the row was cut and the caption read "... choroidal ,"
    captions = _captions(data_dir / "pmc_hindawi_xml_pdf" / "PMC4691483" / "fulltext.pdf")
    assert "between the retinal and choroidal thicknesses in the SDT rats." in captions["Figure 4"]
    # Elsevier: subscripts "t0 ≤ ti ≤ 31" split the caption's first line; it stopped at "COVID9 (t"
    captions = _captions(data_dir / "pmc_dev_corpus" / "elsevier_PMC7518201" / "fulltext.pdf")
    assert "Probabilities could have a coefficient of order 10" in captions["Figure 2"]
    assert captions["Figure 2"].endswith("the pandemic in Europe (Lescureet al, 2020).")


def test_the_publishers_figure_link_line_ends_a_caption_with_or_without_a_colon():
    from medfig.pdf.captions import _LINK_LINE

    for link in ("DOI: 10.7554/eLife.04177.027", "https://doi.org/10.1371/journal.pone.0060593.g001",
                 "doi:10.1371/journal.pone.0060593.g001", "DOI 10.1186/s12879-020-4946-1"):
        assert _LINK_LINE.match(link), link
    for text in ("doing", "DOI is the identifier", "10.1186/s12879", "Figure 1. Cells"):
        assert not _LINK_LINE.match(text), text


def test_a_links_underline_inside_the_caption_does_not_end_it(data_dir):
    # PLOS underlines the URLs in this legend; the hairline under "(https://sib.gob.ar/" was read as a
    # rule between caption and art and the legend stopped there, two lines short
    captions = _captions(data_dir / "pmc_dev_corpus" / "plos_PMC12091794" / "fulltext.pdf")
    assert captions["Figure 2"].endswith(
        "Silhouettes of deer taken from http://www.philopic.org, freely available for reuse under Creative Commons licenses.")
    assert "journal.pone.0322878.g002" not in captions["Figure 2"]  # the figure's DOI line still ends it


def test_a_space_glyph_that_advances_nothing_does_not_split_a_word(data_dir):
    # ScopeMed's PDF maps the fi ligature to "fi " and sets the next letter at the ligature's end:
    # the captions read "signifi cant differences", "sacrifi ced" before
    captions = _captions(data_dir / "pmc_dev_corpus" / "scopemed_PMC5061480" / "fulltext.pdf")
    text = " ".join(captions.values())
    assert "significant differences" in captions["Figure 1"] and "sacrificed" in captions["Figure 4"]
    assert "signifi " not in text and "sacrifi " not in text


def test_an_accent_drawn_over_a_letter_is_that_letters_accent(data_dir):
    # PLOS sets the Brazilian state names' accents as glyphs of their own over the letter ("Rondoˆnia",
    # "Esp´ırito" before); the accent and the letter under it are one accented letter
    caption = _captions(data_dir / "pmc_dev_corpus" / "plos_PMC7535057" / "fulltext.pdf")["Figure 1"]
    for name in ("AP: Amapá;", "ES: Espírito Santo;", "RO: Rondônia;", "PB: Paraíba;", "PI: Piauí;"):
        assert name in caption, name
    assert "´" not in caption and "ˆ" not in caption


def _row(spec, top=100.0, size=8.0):
    """Words of one row from (text, x0) pairs, each 5 pt per character wide."""
    return [Word(text, (x0, top, x0 + 5.0 * len(text), top + size), size, "Verdana") for text, x0 in spec]


def test_a_justified_line_with_wide_word_gaps_stays_one_line():
    from medfig.pdf.page import build_lines

    # left column: ordinary word gaps; right column: five long words justified over the column,
    # every gap 13 pt (1.6 em at 8 pt), as Veterinary World sets a caption's second line
    left = _row([("the", 52.0), ("cells", 69.0), ("were", 96.0), ("fixed", 118.0), ("in", 145.0), ("ethanol", 157.0)])
    right = _row([("embryonic", 306.0), ("kidney-293", 364.0), ("(HEK-293)", 427.0), ("cells", 485.0), ("mimicking", 523.0)])
    texts = sorted(line.text for line in build_lines(left + right))
    assert texts == ["embryonic kidney-293 (HEK-293) cells mimicking", "the cells were fixed in ethanol"]


def test_uneven_wide_gaps_still_part_columns_and_table_cells():
    from medfig.pdf.page import build_lines

    # a label, a wide gap, then two words: the gaps are not alike, so they are not justification
    row = _row([("Age", 52.0), ("34.5", 120.0), ("years", 145.0)])
    assert sorted(line.text for line in build_lines(row)) == ["34.5 years", "Age"]
    # two words alone tell nothing about evenness: a wide gap still parts them
    assert len(build_lines(_row([("Total", 52.0), ("128", 90.0)]))) == 2
