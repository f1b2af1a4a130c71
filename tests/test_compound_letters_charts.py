"""Panel letters only where the figure's own letters say so, numbered sub-panels, charts kept
whole (issue 16, item 2b).

Real figures come from the pmc_dev_corpus gold (development publishers only); their pixels are
rebuilt exactly as the gold's ``source`` says and compared with the hand-checked gold boxes.
The synthetic cases pin each mechanism down exactly.
"""

from __future__ import annotations


import numpy as np
from PIL import Image

from dev_gold_figures import dev_gold_figure

from medfig.compound import analyze_compound
from medfig.compound.align import case_consistent
from medfig.compound.pieces import grow_charts_over_text, has_tick_labels
from medfig.geometry import iou
from medfig.text.subcaptions import parse_subcaptions
from medfig.vision.panel_labels import PanelLabel, find_panel_labels

_figure = dev_gold_figure


def _ious(fig: dict, result) -> list[float]:
    boxes = [s.box_px for s in result.subfigures] or [[0, 0, fig["width"], fig["height"]]]
    return [max(iou(b, g["box"]) for b in boxes) for g in fig["subfigures"]]


# --- real figures -------------------------------------------------------------------------


def test_capital_letters_answer_a_lower_case_caption_and_a_letter_off_its_neighbours_lines_is_found():
    # plos pntd.0008658 Fig. 2: the caption names (a)-(d), the image prints A-D. D sits in B's
    # column but not in C's row, so the search next to C missed it, and the case rule dropped
    # all four capitals: 9 pieces of heat maps, 1 of 4 panels matched.
    image, fig = _figure("plos_PMC7535057/pntd.0008658.g002")
    result = analyze_compound(image, fig["caption"])
    assert [s.label for s in result.subfigures] == ["a", "b", "c", "d"]
    assert min(_ious(fig, result)) >= 0.8


def test_bar_charts_with_filled_bars_take_in_their_tick_labels_and_titles():
    # elsevier PMC5988028 Fig. 4: eight bar charts of dark bars. The splitter keeps a dense
    # panel's edges, so each box was the plot frame only (3 of 8 gold panels matched).
    image, fig = _figure("elsevier_PMC5988028/f0020")
    result = analyze_compound(image, fig["caption"])
    assert len(result.subfigures) == 8
    assert min(_ious(fig, result)) >= 0.75


# --- synthetic -------------------------------------------------------------------------------


def _ticks(x1: int, ys: list[int], w: int = 18, h: int = 10) -> list[tuple[int, int, int, int]]:
    """Right-aligned tick labels ending at ``x1``, one per y."""
    return [(x1 - w + (k % 2) * 6, y, x1, y + h) for k, y in enumerate(ys)]


def test_tick_labels_are_the_evidence_of_a_chart():
    plot = (100, 50, 300, 250)
    assert has_tick_labels(plot, _ticks(95, [60, 110, 160, 210]), reach=20)
    # two labels are no tick column; three not lined up (a photo's scattered words) neither
    assert not has_tick_labels(plot, _ticks(95, [60, 110]), reach=20)
    assert not has_tick_labels(plot, [(70, 60, 95, 70), (40, 110, 60, 120), (80, 160, 88, 170)], reach=20)
    # a row of x tick labels under the plot
    assert has_tick_labels(plot, [(x, 254, x + 12, 264) for x in (110, 160, 210, 260)], reach=20)


def test_charts_grow_over_their_own_text_never_over_a_shared_legend():
    left, right = (100, 50, 300, 250), (400, 50, 600, 250)
    photo = (700, 50, 900, 250)
    ticks_left, ticks_right = _ticks(95, [60, 110, 160, 210]), _ticks(395, [60, 110, 160, 210])
    title = (150, 30, 250, 44)  # above the left chart
    legend = (318, 140, 362, 150)  # between the two charts, about as near to either
    caption_under_photo = (780, 255, 820, 270)
    grown = grow_charts_over_text([left, right, photo], ticks_left + ticks_right + [title, legend, caption_under_photo], side=1000)
    assert grown[0] == (77, 30, 300, 250)  # ticks and title taken in
    assert grown[1] == (377, 50, 600, 250)
    assert grown[2] == photo  # no tick labels: a photo keeps its edges


def test_whole_letter_family_in_the_other_case_is_accepted_a_lone_capital_is_not():
    parsed = parse_subcaptions("Maps. (a) one. (b) two. (c) three.")
    family = [PanelLabel("A", (3, 3, 20, 21), 1.0), PanelLabel("B", (428, 3, 443, 21), 1.0), PanelLabel("C", (4, 533, 20, 551), 1.0)]
    assert case_consistent(family, parsed) == family
    # one size too many: a "B" twice as tall is no member of the family ("C" looks the same
    # in both cases, so it is kept either way)
    tall_b = [family[0], PanelLabel("B", (428, 3, 460, 39), 1.0), family[2]]
    assert case_consistent(tall_b, parsed) == [family[2]]
    # a lone anatomical "A" inside a photo answers no "(a)"
    assert case_consistent([PanelLabel("A", (50, 50, 60, 62), 1.0), PanelLabel("b", (300, 3, 310, 15), 1.0)], parsed) == [
        PanelLabel("b", (300, 3, 310, 15), 1.0)
    ]
    # letters that touch other ink (not free) are no family either
    crowded = [PanelLabel(l.text, l.box, l.score, free=False) for l in family]
    assert case_consistent(crowded, parsed) == [crowded[2]]


# --- numbered sub-panels -------------------------------------------------------------------


def test_numbered_sub_panels_are_panels_with_their_own_subcaptions():
    # dove f5: "Ai", "Aii", "Aiii" printed white on three fluorescence columns, "B" on a bar
    # chart; the caption says "Panel (Ai) shows green ..., panel (Aii) shows red ...". Before:
    # the three "A" columns were cut into six photos labelled a, b, b, b ... (1 of 4 matched).
    image, fig = _figure("dove_PMC4708241/f5-dddt-10-155")
    result = analyze_compound(image, fig["caption"])
    assert [s.label for s in result.subfigures] == ["a", "a", "a", "b"]
    assert min(_ious(fig, result)) >= 0.8
    assert [l.key for l in result.ocr_labels if l.sub] == ["ai", "aii", "aiii"]
    subcaptions = [s.subcaption for s in result.subfigures]
    assert "green" in subcaptions[0] and "red" not in subcaptions[0]
    assert "red" in subcaptions[1] and "green" not in subcaptions[1]
    assert "merged" in subcaptions[2] and "red fluorescence (JC-1" not in subcaptions[2]
    assert "MMP ratio" in subcaptions[3]


def test_sub_panel_labels_are_split_into_letter_and_number():
    from medfig.vision.panel_labels import split_label

    assert split_label("(a)") == ("a", "")
    assert split_label("Aii") == ("A", "ii")
    assert split_label("Aiii") == ("A", "iii")
    assert split_label("(a1)") == ("a", "1")
    assert split_label("b2") == ("b", "2")
    assert split_label("(A-ii)") == ("A", "ii")
    assert split_label("B.iv") == ("B", "iv")
    assert split_label("12") == ("12", "")  # a numbered panel, no sub-number
    for text in ("Al", "Au", "AB", "100", "a12", "Merged", ""):  # words, long numbers
        assert split_label(text) is None
    # one stroke in brackets: "1" or "i", which the figure's other labels decide
    assert split_label("(al)") == ("a", "l") and split_label("(BI)") == ("B", "l")


def test_one_stroke_sub_number_follows_the_figures_other_labels():
    from medfig.vision.panel_labels import settle_one_stroke_subs

    numbered = settle_one_stroke_subs([PanelLabel("a", (0, 0, 9, 9), 0.9, sub="l"), PanelLabel("a", (50, 0, 59, 9), 0.9, sub="2")])
    assert [l.key for l in numbered] == ["a1", "a2"]
    roman = settle_one_stroke_subs([PanelLabel("A", (0, 0, 9, 9), 0.9, sub="l"), PanelLabel("A", (50, 0, 59, 9), 0.9, sub="ii")])
    assert [l.key for l in roman] == ["ai", "aii"]


def test_sub_panel_subcaption_takes_the_words_of_its_own_marker():
    from medfig.compound.align import sub_panel_subcaptions

    caption = "CMR. (a1) T2-weighted image. (a2) Late enhancement image. (b) Follow-up."
    parsed = parse_subcaptions(caption)
    a1 = PanelLabel("a", (10, 10, 30, 24), 0.99, sub="1")
    a2 = PanelLabel("a", (300, 10, 320, 24), 0.99, sub="2")
    subs = [parsed.get("a"), parsed.get("a"), parsed.get("b")]
    out = sub_panel_subcaptions({0: a1, 1: a2}, parsed, subs)
    assert out[0].text == "T2-weighted image."
    assert out[1].text == "Late enhancement image."
    assert out[2] is subs[2]
    # a caption with "(a)" for printed "a1"/"a2": both sub-panels keep the letter's text
    plain = parse_subcaptions("CMR. (a) T2-weighted image. (b) LGE image.")
    kept = sub_panel_subcaptions({0: a1, 1: a2}, plain, [plain.get("a"), plain.get("a")])
    assert kept[0].text == kept[1].text == "T2-weighted image."


def test_foot_letters_with_sub_numbers_give_one_panel_each():
    from medfig.compound.partition import anchor_panels_on_letters

    # 2 x 2 photos, "(a1) (a2)" under the top row, "(b1) (b2)" under the bottom row; the
    # caption names (a) and (b) only (fresh PMC4738934 Fig. 7 style)
    photos = [(0, 0, 340, 280), (360, 0, 700, 280), (0, 330, 340, 610), (360, 330, 700, 610)]
    letters = [
        PanelLabel("a", (160, 290, 186, 304), 0.99, sub="1"), PanelLabel("a", (520, 290, 546, 304), 0.99, sub="2"),
        PanelLabel("b", (160, 620, 186, 634), 0.99, sub="1"), PanelLabel("b", (520, 620, 546, 634), 0.99, sub="2"),
    ]
    parsed = parse_subcaptions("CMR. (a) T2-weighted image. (b) LGE image.")
    boxes = anchor_panels_on_letters(photos, [l.box for l in letters], letters, parsed)
    assert boxes is not None and sorted(boxes) == sorted(photos)


def test_tick_labels_lined_up_with_a_number_read_are_skipped():
    from medfig.vision.glyphs import same_axis

    tick = (200, 100, 220, 113)
    assert same_axis((204, 140, 220, 153), tick)  # next tick label of the column, right-aligned
    assert same_axis((250, 100, 262, 113), tick)  # next of a row of x tick labels
    assert not same_axis((204, 400, 220, 413), tick)  # same column but far below: another panel
    assert not same_axis((204, 140, 230, 163), tick)  # twice the size: a panel letter


# --- flow charts kept whole --------------------------------------------------------------------


def test_flow_chart_joined_by_arrows_is_one_panel():
    # elsevier PMC5991880 Fig. 2: a biosynthesis scheme (molecules, enzyme names) whose only
    # caption marker is "(A)". Arrows cross every blank band the XY-cut cut at; it was split in 4.
    image, fig = _figure("elsevier_PMC5991880/fig2")
    assert not fig["compound"]
    result = analyze_compound(image, fig["caption"])
    assert not result.compound and result.subfigures == []


def _boxes_drawing(arrow: bool) -> Image.Image:
    from PIL import ImageDraw

    img = Image.new("RGB", (400, 400), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((50, 20, 350, 120), outline="black", width=3)
    d.rectangle((50, 250, 350, 380), outline="black", width=3)
    if arrow:  # a 1 px grey arrow that stops short of both boxes
        d.line((200, 130, 200, 240), fill=(120, 120, 120), width=1)
        d.polygon([(195, 232), (205, 232), (200, 242)], fill=(120, 120, 120))
    return img


def test_a_drawn_connector_across_the_gap_joins_the_pieces():
    from medfig.compound.pieces import one_drawing

    boxes = [(48, 18, 353, 123), (48, 248, 353, 383)]
    assert one_drawing(_boxes_drawing(arrow=True), boxes, [], [], [])
    assert not one_drawing(_boxes_drawing(arrow=False), boxes, [], [], [])
    # a caption that names two panels outweighs the arrow (a "before -> after" pair)
    assert not one_drawing(_boxes_drawing(arrow=True), boxes, [], ["a", "b"], [])


def test_a_letter_inside_a_photo_loses_to_the_one_the_family_agrees_with():
    from medfig.compound.align import family_readings

    corner = [PanelLabel("A", (10, 10, 24, 28), 0.97), PanelLabel("B", (300, 10, 314, 28), 0.95),
              PanelLabel("C", (10, 300, 24, 318), 0.98)]
    # a "B" on an ultrasound screen: surer reading, but smaller and with image round it
    screen_b = PanelLabel("B", (150, 150, 160, 162), 1.0, free=False)
    # a "D" three times the letters' size (a big structure letter in a drawing)
    big_d = PanelLabel("D", (300, 300, 340, 354), 0.99)
    best = family_readings(corner + [screen_b, big_d], lambda l: l.text.lower())
    assert best["b"] is corner[1]
    assert set(best) == {"a", "b", "c"}
    # two letters are no family: nothing is dropped for its size
    pair = family_readings([corner[0], big_d], lambda l: l.text.lower())
    assert set(pair) == {"a", "d"}


def test_stacked_charts_on_shared_axes_are_cut_at_their_corner_letters():
    # elsevier PMC3958920 Fig. 4: four HPLC traces stacked with touching frames (no blank
    # band between them: one XY-cut piece), letters A-D at the top-right of each. The tick
    # labels used up the OCR budget before the letters were read; the figure came out single.
    image, fig = _figure("elsevier_PMC3958920/f0020")
    result = analyze_compound(image, fig["caption"])
    assert [s.label for s in result.subfigures] == ["a", "b", "c", "d"]
    assert min(_ious(fig, result)) >= 0.7


def test_letter_offsets_partition_exactly():
    from medfig.compound.partition import partition_on_letter_offsets

    region = (0, 0, 300, 480)
    # letters at the top-right of four stacked 120 px panels, 10 px below each panel's top
    letters = [(270, 10 + 120 * k, 284, 28 + 120 * k) for k in range(4)]
    assert partition_on_letter_offsets(region, letters) == [(0, 0, 300, 120), (0, 120, 300, 240),
                                                             (0, 240, 300, 360), (0, 360, 300, 480)]
    # a 2 x 2 grid with letters at the top-left corners
    grid = [(5, 5, 19, 23), (155, 5, 169, 23), (5, 245, 19, 263), (155, 245, 169, 263)]
    assert partition_on_letter_offsets(region, grid) == [(0, 0, 150, 240), (150, 0, 300, 240),
                                                         (0, 240, 150, 480), (150, 240, 300, 480)]
    # letters not filling the grid (three in two rows and two columns) or out of reading order
    assert partition_on_letter_offsets(region, grid[:3]) is None
    assert partition_on_letter_offsets(region, [grid[1], grid[0], grid[2], grid[3]]) is None
    # letters too close for panels (a word's capitals): no grid
    assert partition_on_letter_offsets(region, [(5, 5, 19, 23), (25, 5, 39, 23)]) is None


# --- letters the image prints when the caption names none ------------------------------------


def test_row_headings_name_the_panels_when_the_caption_does_not():
    # plos pone.0097823 Fig. 1: two rows of two bar charts headed "A: 60 x 120 Networks" and
    # "B: 600 x 1200 Networks"; the caption names no panel. The heading was one wide text block
    # (never read), so each chart came out as a panel: 4 boxes for the 2 gold panels, 0 matched.
    image, fig = _figure("plos_pone.0097823/pone-0097823-g001")
    result = analyze_compound(image, fig["caption"])
    assert len(result.subfigures) == 2
    assert min(_ious(fig, result)) >= 0.8


def test_image_letter_run_needs_a_consistent_run_from_a():
    from medfig.compound.partition import image_letter_run

    a, b, c = (PanelLabel(t, (10 + 200 * k, 10, 24 + 200 * k, 28), 0.99) for k, t in enumerate("ABC"))
    assert image_letter_run([a, b, c]) == ["a", "b", "c"]
    assert image_letter_run([b, c]) == []  # not from "a"
    assert image_letter_run([a, c]) == []  # a gap in the run
    assert image_letter_run([a, PanelLabel("b", b.box, 0.99)]) == []  # two cases
    assert image_letter_run([a, PanelLabel("B", (300, 300, 340, 360), 0.99)]) == []  # two sizes
    assert image_letter_run([a, PanelLabel("B", b.box, 0.99, free=False)]) == []  # a letter of a word
    assert image_letter_run([a]) == []


def test_first_word_of_a_heading_and_colon_labels():
    import numpy as np

    from medfig.vision.glyphs import first_word
    from medfig.vision.panel_labels import normalise_label

    from PIL import ImageDraw, ImageFont

    img = Image.new("L", (400, 40), 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=24)
    d.text((5, 5), "A: 60 x 120 Networks", fill=0, font=font)
    x0, y0, x1, y1 = img.point(lambda v: 255 - v).getbbox()
    head_end = x0 + round(d.textlength("A:", font=font))
    word = first_word(np.asarray(img), (x0, y0, x1, y1))
    assert word[:2] == (x0, y0) and word[3] == y1
    assert head_end - 3 <= word[2] <= head_end + 1  # "A:" and not a pixel of "60"
    one = first_word(np.asarray(img), (x0, y0, word[2], y1))
    assert one == (x0, y0, word[2], y1)  # one word: the block itself
    assert normalise_label("A:") == "A" and normalise_label("(b)") == "b" and normalise_label("A:B") is None


def _chart_corner(top_left: str) -> np.ndarray:
    """A framed 400 x 300 chart at the top-left of a 1,200 px figure whose text is 10 px: ``top_left``
    written near its top-left corner, a lone "A" (13 px, just under 1.2% of the side) at its top-right."""
    from PIL import ImageDraw, ImageFont

    img = Image.new("L", (1200, 600), 255)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # solid glyphs: one connected component each
    font = ImageFont.load_default(size=18)
    draw.rectangle((0, 0, 399, 299), outline=0)
    draw.text((20, 12), top_left, fill=0, font=font)
    draw.text((370, 12), "A", fill=0, font=font)
    return np.asarray(img)


def test_corner_letters_as_small_as_the_figures_text_are_offered_when_they_stand_alone():
    from medfig.vision.panel_labels import _corner_candidates

    # a figure read at 1,200 px has its letters at 10-13 px: 1.2% of the side (14 px) dropped them
    gray = _chart_corner("Chl a overlay")
    assert _corner_candidates(gray, (0, 0, 400, 300), 1200, None) == []
    found = _corner_candidates(gray, (0, 0, 400, 300), 1200, 10.0)
    assert [b for b in found if b[0] >= 360] and all(b[0] >= 360 for b in found)  # the "A", not the "C" of "Chl"
    # the same "C" alone is offered: it is its neighbours that rule it out, not its size
    alone = _corner_candidates(_chart_corner("C"), (0, 0, 400, 300), 1200, 10.0)
    assert any(b[0] < 40 for b in alone)


def _plate(draw, x: int, y: int, side: int, letter: str, dark=30, light=250) -> None:
    from PIL import ImageFont

    draw.rectangle((x, y, x + side - 1, y + side - 1), fill=dark)
    draw.text((x + side // 2, y + side // 2), letter, fill=light, font=ImageFont.load_default(size=round(side * 0.8)), anchor="mm")


def test_white_letters_on_black_plates_are_found_wherever_they_sit():
    from PIL import ImageDraw

    from medfig.vision.glyphs import letter_plates

    img = Image.new("L", (600, 400), 255)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    _plate(draw, 10, 300, 20, "E")  # a plate at a panel's foot...
    draw.line((10, 320, 590, 320), fill=30)  # ... sitting on a rule that runs on under the next panel
    _plate(draw, 300, 300, 20, "F")
    draw.rectangle((100, 50, 119, 69), fill=30)  # a black square with no letter: no plate
    draw.rectangle((200, 50, 239, 89), outline=30, width=2)  # an empty frame: no plate
    found = letter_plates(np.asarray(img), 10.0)
    assert sorted((b[0], b[1]) for b in found) == [(10, 300), (300, 300)]
    assert all(abs((b[3] - b[1]) - 20) <= 1 for b in found)
    # plates far larger than the figure's text are no letters (a black box of a chart)
    assert letter_plates(np.asarray(img), 3.0) == []


def test_small_white_letters_on_plates_under_the_panels_are_read():
    # 15 px plates under two pictures, standing on a rule (Veterinary World): the rule joins them into
    # one wide block, which no reader takes for a letter; found as plates and read inverted (dark on
    # light, as the recogniser reads best: a 14 px "E" on black read "日" as it stands), "E" and "F"
    from PIL import ImageDraw

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(5)
    img = Image.new("RGB", (640, 300), "white")
    for x in (20, 330):
        img.paste(Image.fromarray(rng.integers(120, 230, (240, 290, 3), dtype=np.uint8)), (x, 10))
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    for x, letter in ((20, "E"), (330, "F")):
        _plate(draw, x, 252, 15, letter, (30, 30, 30), (250, 250, 250))
    draw.line((20, 267, 620, 267), fill=(60, 60, 60))  # the rule the plates stand on joins them in one block
    labels = find_panel_labels(img, find_panels(img), {"e", "f"})
    assert sorted(l.text for l in labels if l.text in "EF") == ["E", "F"]


def test_a_row_of_significance_letters_is_not_a_row_of_panel_letters():
    from PIL import ImageDraw, ImageFont

    from medfig.vision.glyphs import in_letter_row

    img = Image.new("L", (700, 120), 255)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    font = ImageFont.load_default(size=14)
    for k, letter in enumerate("aabab"):  # over five bars, one letter width apart
        draw.text((100 + 16 * k, 60), letter, fill=0, font=font)
    for x in (10, 330, 650):  # one letter per panel, a panel apart
        draw.text((x, 10), "b", fill=0, font=font)
    draw.text((500, 60), "a b", fill=0, font=font)  # two are no row
    gray = np.asarray(img)

    def glyph_at(x: int, y: int):
        ys, xs = np.nonzero(gray[y - 2:y + 22, x - 2:x + 12] < 128)
        return (x - 2 + xs.min(), y - 2 + ys.min(), x - 1 + xs.max(), y - 1 + ys.max())

    assert all(in_letter_row(gray, glyph_at(100 + 16 * k, 60)) for k in range(5))
    assert not any(in_letter_row(gray, glyph_at(x, 10)) for x in (10, 330, 650))
    assert not in_letter_row(gray, glyph_at(500, 60))


def _bar_chart_with_significance_letters(draw, x: int, y: int, letters: str) -> None:
    from PIL import ImageFont

    font = ImageFont.load_default(size=14)
    draw.line((x, y, x, y + 200), fill=0, width=2)
    draw.line((x, y + 200, x + 360, y + 200), fill=0, width=2)
    for k, letter in enumerate(letters):
        bx = x + 20 + 30 * k
        draw.rectangle((bx, y + 60 + 12 * (k % 3), bx + 20, y + 199), fill=60)
        draw.text((bx + 10, y + 40), letter, fill=0, font=font, anchor="ms")  # on one line over the bars


def test_significance_letters_over_bars_are_not_read_as_panel_letters():
    # two bar charts with "a ab b a ..." over their bars (mdpi agronomy Figs. 1 and 3 print
    # rows of them): where the chart's own "b" is not read, the "b" over a bar was taken for it
    from PIL import ImageDraw

    from medfig.vision.subfigures import find_panels

    img = Image.new("RGB", (480, 560), "white")
    draw = ImageDraw.Draw(img)
    _bar_chart_with_significance_letters(draw, 60, 20, "aababbab")
    _bar_chart_with_significance_letters(draw, 60, 300, "babaabba")
    layout = find_panels(img)
    read = find_panel_labels(img, layout, {"a", "b"})
    over_bars = [l for l in read if l.box[0] > 70 and any(l.box[1] < y + 200 and l.box[3] > y + 20 for y in (20, 300))]
    assert over_bars == []


def test_a_rotated_title_glyph_merged_with_a_tick_label_is_no_panel_letter():
    # a 2 x 3 bmh chart grid of benchmarks/compound_charts_synthetic.py (seed 40, lettered a-f):
    # a glyph of panel f's rotated "Relative level", merged with a tick label into one text block,
    # read as "e ..." and was taken for panel e's letter (the merged-block rule for "D 1000"); e's
    # own letter was then never looked for, and d, e and f got each other's boxes. Read alone, the
    # glyph is no letter: the head of a merged block must read as its letter by itself too
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from compound_charts_synthetic import make_figure

    image, gold, _ = make_figure(40, True)
    result = analyze_compound(image, gold["caption"])
    boxes = {s.label: s.box_px for s in result.subfigures}
    for letter, panel in zip("abcdef", gold["subfigures"]):
        assert iou(boxes[letter], panel["box"]) >= 0.5, letter


def test_bracketed_letters_heading_chart_titles_are_read_before_the_tick_labels():
    # elsevier PMC7564522 Fig. 3: three heat maps, each under a title line "(A) 0.10% net
    # mortality ...", with rows of "10%" ... "100%" tick labels. A bold "(A)" is as wide as a
    # two-digit number, so it waited behind every tick label, and the recognition budget ran
    # out on "10%", "30%", "50%" (too far apart to be passed over as one row): none of the
    # three was read.
    from medfig.vision.subfigures import find_panels

    image, fig = _figure("elsevier_PMC7564522/fig0003")
    labels = find_panel_labels(image, find_panels(image), {"a", "b", "c"})
    heads = {l.text: l.box for l in labels if l.text in "ABC"}
    assert set(heads) == {"A", "B", "C"}
    # each at the left end of its title line, one over each heat map
    assert all(55 <= heads[k][0] <= 70 for k in "ABC")
    assert heads["A"][1] < heads["B"][1] < heads["C"][1]
    assert [s.label for s in analyze_compound(image, fig["caption"]).subfigures][:3] == ["a", "b", "c"]


def test_a_letter_with_its_full_stop_or_brackets_is_label_shaped():
    # "C." and a bold "(A)" are 1.4-1.6 times as wide as high: they were ranked with the wide
    # blocks, behind the "C" of a rotated "Count", which then stood in for panel c's letter and
    # the chart grid was cut across (chart benchmark seed 3060)
    from medfig.vision.glyphs import letter_shaped

    assert letter_shaped((0, 0, 18, 13)) and letter_shaped((0, 0, 22, 14))  # "(A)", "C."
    assert letter_shaped((0, 0, 10, 14)) and letter_shaped((0, 0, 28, 14))  # "A", "(a)"
    assert not letter_shaped((0, 0, 48, 12))  # "1000": wider
    assert not letter_shaped((0, 0, 4, 30))  # a piece of a rotated axis title: taller and thinner
