"""Panel splitting on real figures of the pmc_dev_corpus gold (development publishers only):
charts kept whole across the gaps between their bars, single-panel figures kept single when
nothing says they are compound, letters read only from label-shaped glyphs.

Pixels are rebuilt exactly as the gold's ``source`` says (PDF page rendered by pypdfium2 at
the given scale, cropped to ``clip_pt``); boxes are compared with the hand-checked gold boxes.
"""

from __future__ import annotations


import pytest
from PIL import Image

from dev_gold_figures import dev_gold_figure

from medfig.compound import analyze_compound
from medfig.compound.pieces import pieces_alike, unnamed_and_unlike
from medfig.geometry import iou
from medfig.vision.panel_labels import PanelLabel

_figure = dev_gold_figure


def _matched(fig: dict, result) -> int:
    boxes = [s.box_px for s in result.subfigures] or [[0, 0, fig["width"], fig["height"]]]
    return sum(1 for g in fig["subfigures"] if max(iou(b, g["box"]) for b in boxes) >= 0.5)


def test_bar_charts_are_not_cut_into_their_bars():
    # dove f4: two bar charts (A above B). The white columns between the bars are crossed
    # only by the x-axis line; they used to be taken as gaps, giving 8 "panels" of bars.
    image, fig = _figure("dove_PMC4708241/f4-dddt-10-155")
    result = analyze_compound(image, fig["caption"])
    assert len(result.subfigures) == 2
    assert _matched(fig, result) == 2
    assert [s.label for s in result.subfigures] == ["a", "b"]


def test_a_sliver_read_as_a_letter_does_not_cut_a_chart():
    # dove f7: photos A-C and chart D. A 20 x 5 px piece of D's rotated axis title was read
    # as "C" and cut the chart in two; a label is at most about three times wider than high.
    image, fig = _figure("dove_PMC4708241/f7-dddt-10-155")
    result = analyze_compound(image, fig["caption"])
    assert _matched(fig, result) == 4
    assert sorted(s.label for s in result.subfigures) == ["a", "b", "c", "d"]


@pytest.mark.parametrize(
    "key",
    [
        "scopemed_PMC5061480/F4",  # a bar chart cut from the strip of its rotated tick labels
        "hindawi_PMC4738914/fig1",  # a line chart and its data table
        "dove_PMC7585508/f0001",  # a flow chart cut into its boxes
    ],
)
def test_single_panel_figures_with_unlike_pieces_stay_single(key):
    image, fig = _figure(key)
    assert not fig["compound"]
    result = analyze_compound(image, fig["caption"])
    assert not result.compound
    assert result.subfigures == []


def test_unnamed_grid_of_alike_charts_stays_compound():
    # elsevier f0025: eight alike charts, a caption that names no panel: a layout, kept
    image, fig = _figure("elsevier_PMC5988028/f0025")
    result = analyze_compound(image, fig["caption"])
    assert result.compound
    assert _matched(fig, result) == len(fig["subfigures"]) == 8


def test_pieces_alike_and_the_evidence_for_a_split():
    tiles = [(0, 0, 100, 80), (110, 0, 210, 80), (0, 90, 100, 170)]
    chart_and_ticks = [(0, 0, 400, 250), (0, 255, 400, 300)]
    assert pieces_alike(tiles)
    assert not pieces_alike(chart_and_ticks)
    assert unnamed_and_unlike(chart_and_ticks, [], [])
    # the caption names panels, or the image shows two panel letters: not overruled
    assert not unnamed_and_unlike(chart_and_ticks, ["a", "b"], [])
    letters = [PanelLabel("A", (2, 2, 12, 14), 0.99), PanelLabel("B", (2, 257, 12, 269), 0.99)]
    assert not unnamed_and_unlike(chart_and_ticks, [], letters)
    assert not unnamed_and_unlike(tiles, [], [])


def test_an_axis_title_between_two_charts_goes_to_its_own_chart():
    # scopemed F3: three bar charts side by side, no caption letters. The second chart's
    # rotated y-axis title stands closer to it than to the first chart, which used to grow
    # over it first and left the second chart without its axis title.
    image, fig = _figure("scopemed_PMC5061480/F3")
    result = analyze_compound(image, fig["caption"])
    assert _matched(fig, result) == 3
    first, second = sorted((s.box_px for s in result.subfigures), key=lambda b: b[0])[:2]
    assert first[2] <= second[0]  # the panels do not overlap


def test_a_frame_round_the_figure_does_not_bridge_the_gap_between_its_panels():
    # a thin frame drawn round two photos crosses the white gap between them at its top and
    # bottom edges; unlike a chart's axis inside a region, it is no reason to keep them whole
    import numpy as np
    from PIL import ImageDraw

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(3)
    image = Image.new("RGB", (620, 420), "white")
    ImageDraw.Draw(image).rectangle((10, 10, 609, 409), outline="black", width=1)
    boxes = [(30, 30, 290, 390), (330, 30, 590, 390)]
    for x0, y0, x1, y1 in boxes:
        photo = np.clip(rng.normal(110, 30, (y1 - y0, x1 - x0, 3)), 0, 200).astype(np.uint8)
        image.paste(Image.fromarray(photo), (x0, y0))
    layout = find_panels(image)
    assert sorted(layout.panels) == boxes


def _tinted_chart(draw, box, bars: list[tuple[int, int, int]]) -> None:
    """A ggplot-style chart in ``box``: grey plot fill, white grid lines across it, blue bars
    (x0, x1, top) standing on its bottom edge."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=(235, 235, 235))
    for y in range(y0 + 20, y1, 40):
        draw.rectangle((x0, y, x1 - 1, y + 1), fill="white")
    for bx0, bx1, top in bars:
        draw.rectangle((bx0, top, bx1 - 1, y1 - 1), fill=(90, 120, 220))


def test_a_strip_of_a_charts_grey_fill_crossed_by_its_grid_lines_is_no_gap():
    # between two bars the grey plot fill is "background" to the ink test, but the chart's
    # white grid lines run across the strip from one bar to the next: one chart
    from PIL import ImageDraw

    from medfig.vision.subfigures import find_panels

    image = Image.new("RGB", (640, 420), "white")
    draw = ImageDraw.Draw(image)
    _tinted_chart(draw, (40, 20, 620, 380), [(60, 120, 150), (130, 190, 90), (200, 260, 200),
                                             (330, 390, 120), (400, 460, 60), (470, 530, 180), (540, 600, 140)])
    draw.rectangle((38, 20, 39, 381), fill="black")  # y axis
    layout = find_panels(image)
    assert len(layout.panels) == 1
    assert iou(layout.panels[0], (38, 20, 620, 380)) > 0.95


def test_two_grey_charts_on_white_page_are_still_two_panels():
    # the white page between two tinted plots holds nothing lighter than itself: a gap
    from PIL import ImageDraw

    from medfig.vision.subfigures import find_panels

    image = Image.new("RGB", (660, 400), "white")
    draw = ImageDraw.Draw(image)
    left, right = (20, 20, 310, 380), (350, 20, 640, 380)
    _tinted_chart(draw, left, [(40, 100, 150), (120, 180, 90), (200, 260, 200)])
    _tinted_chart(draw, right, [(370, 430, 120), (450, 510, 60), (530, 590, 180)])
    layout = find_panels(image)
    # the grey fill is light enough to count as background, so each panel is its bars' extent
    assert sorted(layout.panels) == [(40, 90, 260, 380), (370, 60, 590, 380)]


def test_a_ggplot_chart_is_not_cut_at_a_strip_of_its_plot_fill():
    # plos_PMC7556465 g002: one ggplot bar/line chart; a bar-free strip of its grey plot fill,
    # crossed by the white grid lines, cut it in two (a false split in the dev-corpus block)
    image, fig = _figure("plos_PMC7556465/pone.0240013.g002")
    result = analyze_compound(image, fig["caption"])
    assert not fig["compound"]
    assert not result.compound


def _pictures_joined_by_zoom_lines(letters: bool = True) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """Two textured pictures side by side on white, with two thin zoom lines drawn from the
    left one across the white gap to the right one (an inset and its enlargement); a panel
    letter above each picture's top-left corner."""
    import numpy as np
    from PIL import ImageDraw

    from medfig.compound.preview import preview_font

    rng = np.random.default_rng(5)
    image = Image.new("RGB", (640, 420), "white")
    boxes = [(10, 80, 250, 320), (290, 50, 630, 410)]
    for x0, y0, x1, y1 in boxes:
        photo = np.clip(rng.normal(120, 35, (y1 - y0, x1 - x0, 3)), 0, 210).astype(np.uint8)
        image.paste(Image.fromarray(photo), (x0, y0))
    draw = ImageDraw.Draw(image)
    draw.line((200, 140, 290, 50), fill="black", width=2)
    draw.line((200, 220, 290, 409), fill="black", width=2)
    if letters:
        font = preview_font(30)
        draw.text((12, 40), "A", fill="black", font=font)
        draw.text((292, 8), "B", fill="black", font=font)
    return image, boxes


def test_panels_the_caption_names_are_found_across_zoom_lines_drawn_over_their_gap():
    image, boxes = _pictures_joined_by_zoom_lines()
    result = analyze_compound(image, "Study area. (A) The country and its regions. (B) The state enlarged.")
    assert result.compound
    assert len(result.subfigures) == 2
    ordered = sorted(result.subfigures, key=lambda s: s.box_px[0])
    for sub, box in zip(ordered, boxes):
        assert iou(sub.box_px, box) > 0.8
    assert [s.label for s in ordered] == ["a", "b"]
    assert [s.subcaption for s in ordered] == ["The country and its regions.", "The state enlarged."]


def test_without_panel_names_lines_across_a_gap_still_join_what_they_cross():
    # the relaxed gap is looked for only where the caption names panels: a drawing whose parts
    # are joined by lines is one panel
    image, _ = _pictures_joined_by_zoom_lines()
    assert not analyze_compound(image, "Study area and the state enlarged.").compound


def test_caption_letters_the_image_does_not_print_cut_nothing_across_lines():
    # "(A)", "(B)" may name points of one drawing: without those letters printed one to a piece,
    # the lines across the gap still join it
    image, _ = _pictures_joined_by_zoom_lines(letters=False)
    assert not analyze_compound(image, "Study area. (A) The country and its regions. (B) The state enlarged.").compound


def test_a_map_and_its_enlargement_joined_by_zoom_lines_are_two_panels():
    # plos_PMC7535057 g001: (A) Brazil, (B) Minas Gerais enlarged; the two zoom lines from A's
    # inset rectangle to B cross the white gap, which left no empty column: predicted single
    image, fig = _figure("plos_PMC7535057/pntd.0008658.g001")
    result = analyze_compound(image, fig["caption"])
    assert len(result.subfigures) == 2
    assert _matched(fig, result) == 2
    assert [s.label for s in result.subfigures] == ["a", "b"]


def _two_slices_on_black(letters: bool) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """Two CT-like round slices side by side on black, a black gap between them (their own
    black margins run into it); a white letter in each one's bottom-left corner."""
    import numpy as np
    from PIL import ImageDraw

    from medfig.compound.preview import preview_font

    rng = np.random.default_rng(7)
    image = Image.new("RGB", (600, 300), "black")
    draw = ImageDraw.Draw(image)
    centres = [(150, 150), (450, 150)]
    for cx, cy in centres:
        draw.ellipse((cx - 120, cy - 120, cx + 120, cy + 120), fill=(150, 150, 150))
    pixels = np.asarray(image).astype(np.int16)
    noise = rng.normal(0, 25, pixels.shape[:2])[..., None]
    inside = pixels > 0
    image = Image.fromarray(np.where(inside, np.clip(pixels + noise, 40, 230), 0).astype(np.uint8))
    if letters:
        draw = ImageDraw.Draw(image)
        for (cx, _), letter in zip(centres, "AB"):
            draw.text((cx - 140, 250), letter, fill="white", font=preview_font(28))
    return image, [(30, 30, 270, 270), (330, 30, 570, 270)]


def test_the_dark_cut_checks_keep_two_round_slices_together_unless_told_not_to():
    # dark_cuts.dark_cut_ok refuses a cut between two round pictures on black (two legs in one CT slice);
    # analyze_compound asks for the unchecked cut only where the caption names the panels and the
    # image prints their letters one to a piece (synthetic dark figures: F1 0.684 -> 0.721)
    from medfig.vision.subfigures import find_panels

    image, boxes = _two_slices_on_black(letters=False)
    assert len(find_panels(image).panels) == 1
    assert sorted(find_panels(image, check_dark_cuts=False).panels) == [(30, 30, 271, 271), (330, 30, 571, 271)]


def test_pictures_on_black_the_caption_names_and_the_image_letters_are_split():
    # two round slices on black are what dark_cuts.dark_cut_ok refuses to cut (two legs in one CT slice);
    # the caption's "(A)", "(B)" and the same letters printed one to a piece say they are panels
    image, boxes = _two_slices_on_black(letters=True)
    result = analyze_compound(image, "CT of the abdomen. (A) Before treatment. (B) After treatment.")
    assert result.compound
    ordered = sorted(result.subfigures, key=lambda s: s.box_px[0])
    assert [s.label for s in ordered] == ["a", "b"]
    for sub, box in zip(ordered, boxes):
        assert iou(sub.box_px, box) > 0.6


def test_numbers_in_the_caption_never_cut_a_figure():
    # the same two slices with their printed "A" and "B", but a caption that numbers its panels:
    # numbers name panels for subcaptions only (text/ordinal_markers.py), so nothing asks for the
    # cut the letters' caption asks for, and the pair stays one picture
    image, _ = _two_slices_on_black(letters=True)
    assert analyze_compound(image, "CT of the abdomen. (A) Before treatment. (B) After treatment.").compound
    assert not analyze_compound(image, "CT of the abdomen. (1) Before treatment. (2) After treatment.").compound


def test_two_slices_on_black_without_printed_letters_stay_one_picture():
    image, _ = _two_slices_on_black(letters=False)
    assert not analyze_compound(image, "CT of the abdomen. (A) Before treatment. (B) After treatment.").compound


def _slices_on_black(centres: list[tuple[int, int]], size: tuple[int, int], radii: list[int] | None = None) -> Image.Image:
    """Round CT-like slices (noisy grey discs of radius 80 or ``radii``, a few brighter and darker
    spots) on black."""
    import numpy as np

    rng = np.random.default_rng(5)
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w]
    page = np.zeros((h, w), np.float32)
    for (cx, cy), radius in zip(centres, radii or [80] * len(centres)):
        disc = (yy - cy) ** 2 + (xx - cx) ** 2 < radius**2
        page[disc] = 110 + rng.normal(0, 12, disc.sum())
        for _ in range(3):
            sy, sx = cy + rng.uniform(-40, 40), cx + rng.uniform(-40, 40)
            page[((yy - sy) ** 2 + (xx - sx) ** 2 < rng.uniform(6, 14) ** 2)] = rng.uniform(30, 230)
    return Image.fromarray(np.clip(page, 0, 255).astype(np.uint8)).convert("RGB")


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2)])
def test_a_regular_grid_of_slices_on_black_is_split_into_its_cells(rows, cols):
    # an MRI series in rows and columns on black: no edges, no letters, no white gaps. Cut one
    # way first, two rows of such pictures were refused like two legs in one CT slice
    from medfig.vision.subfigures import find_panels

    pitch = 200
    centres = [(100 + c * pitch, 100 + r * pitch) for r in range(rows) for c in range(cols)]
    panels = find_panels(_slices_on_black(centres, (cols * pitch, rows * pitch))).panels
    assert len(panels) == rows * cols
    for cx, cy in centres:  # one panel round each slice, the slice's disc inside it
        (box,) = [p for p in panels if p[0] <= cx <= p[2] and p[1] <= cy <= p[3]]
        assert box[0] <= cx - 78 and box[2] >= cx + 78 and box[1] <= cy - 78 and box[3] >= cy + 78
        assert box[2] - box[0] <= pitch and box[3] - box[1] <= pitch


def test_objects_on_black_in_an_irregular_arrangement_stay_one_picture():
    # four round objects in two rows and two columns, the lower ones smaller: the rows are of
    # unequal height, as one photograph's objects are and a layout's rows are not
    from medfig.vision.subfigures import find_panels

    centres = [(100, 100), (300, 100), (100, 300), (300, 300)]
    regular = _slices_on_black(centres, (400, 400))
    irregular = _slices_on_black(centres, (400, 400), radii=[80, 80, 50, 50])
    assert len(find_panels(regular).panels) == 4
    assert len(find_panels(irregular).panels) == 1


def test_a_thin_black_gap_between_objects_on_black_is_no_rule_between_pictures():
    # two round objects of one micrograph nearly touching: the 4 px of black between them are
    # as thin as a rule between CT tiles, but black lies on both sides of them nearly all along
    import numpy as np

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(4)
    yy, xx = np.mgrid[0:300, 0:404]
    discs = ((yy - 150) ** 2 + (xx - 100) ** 2 < 100**2) | ((yy - 150) ** 2 + (xx - 304) ** 2 < 100**2)
    image = np.where(discs, rng.integers(60, 200, discs.shape), 0).astype(np.uint8)
    assert len(find_panels(Image.fromarray(image).convert("RGB")).panels) == 1
    # the same gap between two pictures that abut it all along is a rule
    tiles = np.zeros((300, 404), np.uint8)
    tiles[:, :200] = rng.integers(60, 200, (300, 200))
    tiles[:, 204:] = rng.integers(60, 200, (300, 200))
    assert len(find_panels(Image.fromarray(tiles).convert("RGB")).panels) == 2


@pytest.mark.parametrize("xs,panels", [((70, 210, 350), 3), ((70, 210, 420), 1)])
def test_three_slices_on_black_are_a_series_only_when_evenly_spaced(xs, panels):
    # three round pictures of one size in a row on black: an MRI series when their centres are
    # evenly spaced; clusters of cells scattered over one micrograph are not
    import numpy as np

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(6)
    yy, xx = np.mgrid[0:160, 0 : xs[-1] + 70]
    discs = np.zeros(yy.shape, bool)
    for x in xs:
        discs |= (yy - 80) ** 2 + (xx - x) ** 2 < 60**2
    image = np.where(discs, rng.integers(60, 200, discs.shape), 0).astype(np.uint8)
    assert len(find_panels(Image.fromarray(image).convert("RGB")).panels) == panels


def _heatmap_beside_a_photo(line: int) -> Image.Image:
    """A 6 x 6 heatmap of 40 px cells parted by ``line`` px white lines, 30 px of white, then a
    photo-like picture: two panels of one figure."""
    import numpy as np

    rng = np.random.default_rng(8)
    page = np.full((300, 620, 3), 255, np.uint8)
    for r in range(6):
        for c in range(6):
            y, x = 20 + r * (40 + line), 20 + c * (40 + line)
            page[y : y + 40, x : x + 40] = rng.integers(0, 200, 3)
    page[20:280, 340:600] = rng.integers(40, 200, (260, 260, 1))
    return Image.fromarray(page)


@pytest.mark.parametrize("line", [1, 2])
def test_a_heatmap_with_white_lines_between_its_cells_is_one_panel(line):
    # the XY-cut parted the heatmap at every white line: 36 cells, each too small for a panel,
    # merged into a text block, and the heatmap panel was lost
    from medfig.vision.subfigures import find_panels

    panels = sorted(find_panels(_heatmap_beside_a_photo(line)).panels)
    side = 6 * 40 + 5 * line
    assert panels == [(20, 20, 20 + side, 20 + side), (340, 20, 600, 280)]


def test_the_dashes_of_a_dashed_arrow_are_no_heatmap_cells():
    # elsevier fig. 1, a biosynthetic pathway (single panel): its dashed arrows are runs of equal
    # dashes parted by equal thin gaps, like a heatmap's cells, but they make no panel-size
    # picture; joined, they parted the pathway into two "panels"
    image, fig = _figure("elsevier_PMC5991880/fig1")
    assert not fig["compound"]
    assert not analyze_compound(image, fig["caption"]).compound


def test_a_row_across_a_charts_bars_is_no_rule_between_pictures():
    # ggplot bars on a light grey plot area, saved as JPEG: one row of the bars came out a few
    # grey levels off the rows round it, one colour all along, so it was taken for a thin rule
    # and the chart was cut through its bars. Light fill between the pieces: no rule
    import numpy as np

    from medfig.vision.subfigures import _thin_uniform_runs

    rng = np.random.default_rng(12)
    plot = np.full((60, 200), 229, np.int16)
    for x in (10, 60, 110, 160):
        plot[:, x : x + 30] = 117
    plot[30, :][plot[30, :] == 117] = 126  # the off row
    plot[:20] = rng.integers(0, 255, (20, 200))  # a picture above, so the row has sides to test
    assert _thin_uniform_runs(plot.astype(np.uint8), 1, 3) == []
    rule = rng.integers(0, 255, (60, 200)).astype(np.int16)
    rule[30, :] = 126  # a row of that grey all across, between two pictures: a rule
    assert _thin_uniform_runs(rule.astype(np.uint8), 1, 3) == [(30, 31)]
    rule[30, 60:140] = 229  # the rule broken by light over 40% of its length: no rule
    assert _thin_uniform_runs(rule.astype(np.uint8), 1, 3) == []


def test_a_narrow_picture_pasted_on_a_black_page_gets_its_own_box_not_the_page_round_it():
    # the page black round a narrow radiograph took most of its piece, so the trim was refused
    # (it guards an MRI's own black field); a picture lit all along its four edges is pasted
    import numpy as np

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(11)
    page = np.zeros((400, 600, 3), np.uint8)
    boxes = [(20, 20, 380, 380), (420, 60, 520, 340)]
    for x0, y0, x1, y1 in boxes:
        page[y0:y1, x0:x1] = rng.integers(30, 220, (y1 - y0, x1 - x0, 1), dtype=np.uint8)
    panels = sorted(find_panels(Image.fromarray(page)).panels)
    assert panels == boxes


def test_a_looser_split_is_taken_only_where_its_pieces_carry_the_captions_letters():
    from medfig.compound import _looser_split
    from medfig.vision.subfigures import find_panels

    lettered, boxes = _two_slices_on_black(letters=True)
    found = _looser_split(lettered, find_panels(lettered), {"a", "b"}, 2, lettered=None)
    assert found is not None
    layout, read = found
    assert len(layout.panels) == 2
    assert {label.text.lower() for label in read} >= {"a", "b"}
    # the same pieces without letters printed in them: no evidence, no split
    bare, _ = _two_slices_on_black(letters=False)
    assert _looser_split(bare, find_panels(bare), {"a", "b"}, 2, lettered=None) is None
    # more pieces wanted than the caption names: none
    assert _looser_split(lettered, find_panels(lettered), {"a", "b"}, 3, lettered=None) is None


def test_a_black_piece_that_trims_to_a_lit_line_is_no_panel():
    # cutting a dark figure at every black gap leaves the black beside a row's last picture as a
    # piece; trimmed of its page black, a lit line in it (a picture's edge) became a 1 px "panel",
    # one too many for the caption's letters, so the figure was not split at all
    import numpy as np

    from medfig.vision.subfigures import find_panels

    rng = np.random.default_rng(0)
    pixels = np.zeros((420, 560), np.uint8)
    for y0, x0 in ((20, 20), (20, 300), (230, 20)):
        pixels[y0 : y0 + 180, x0 : x0 + 240] = rng.integers(60, 200, (180, 240))
    pixels[230:410, 290] = 180
    panels = find_panels(Image.fromarray(pixels).convert("RGB"), check_dark_cuts=False).panels
    assert sorted(panels) == [(20, 20, 260, 200), (20, 230, 260, 410), (300, 20, 540, 200)]


def _ggplot_pair() -> Image.Image:
    """Two scatter plots on ggplot's grey fill with white grid lines, on a white page; in each, one
    vertical grid line that no dot crosses."""
    import numpy as np

    rng = np.random.default_rng(1)
    pixels = np.full((420, 760), 255, np.uint8)
    for x0 in (20, 380):
        pixels[20:280, x0 : x0 + 300] = 229
        for y in (60, 120, 180, 240):
            pixels[y : y + 2, x0 : x0 + 300] = 255
        pixels[20:280, x0 + 150 : x0 + 152] = 255
        pixels[20:280, x0 - 1] = 40
        pixels[280, x0 - 1 : x0 + 300] = 40
        for _ in range(150):
            y, x = rng.integers(30, 270), rng.integers(x0 + 5, x0 + 295)
            if abs(x - (x0 + 151)) > 4:
                pixels[y - 2 : y + 3, x - 2 : x + 3] = 60
    return Image.fromarray(pixels).convert("RGB")


def test_a_white_grid_line_on_a_plot_fill_is_no_gap_between_panels():
    # ggplot draws white grid lines on a grey fill: one that no dot crosses is a white run the
    # XY-cut took for a gap, and a scatter plot became two "panels" (a 3 x 2 chart grid of the
    # chart benchmark, seed 1, came out as one panel for it). The same fill on both sides of a
    # thin white line says it is the fill's grid line
    from medfig.vision.subfigures import find_panels

    panels = sorted(find_panels(_ggplot_pair()).panels)
    assert len(panels) == 2
    assert panels[0][0] <= 20 and panels[0][2] >= 310 and panels[1][0] <= 380 and panels[1][2] >= 670


def test_a_row_through_a_charts_bars_is_no_rule():
    # between where one error bar ends and the next begins, rows of a bar chart hold nothing but
    # the bars' one colour on the plot's light fill: "uniform", so they passed for a thin rule
    # and the chart was cut in two (the same 3 x 2 chart grid as JPEG). The bars run on through
    # those rows on both sides: no rule ends there
    import numpy as np

    from medfig.vision.subfigures import find_panels

    rgb = np.full((440, 560, 3), 255, np.uint8)
    rgb[20:280, 40:380] = 229
    for y in (50, 110, 170, 230):
        rgb[y, 40:380] = 255
    for x0, x1, top in ((60, 130, 200), (160, 250, 60), (265, 355, 80)):
        rgb[top:280, x0:x1] = (226, 74, 51)
    rgb[40:90, 204:206] = 0
    rgb[92:140, 309:311] = 0
    rgb[180:230, 94:96] = 0
    rgb[20:281, 39] = 40
    rgb[280, 39:380] = 40
    assert find_panels(Image.fromarray(rgb)).panels == [(60, 40, 355, 280)]


def _heatmap_under_a_grid(grid: bool) -> Image.Image:
    """An 8 x 8 heat map of 20 px cells (random tones) on white; with ``grid``, seaborn's light grey
    grid lines drawn through the middle of cell columns and rows 2, 4 and 6 (where its ticks are)."""
    import numpy as np

    rng = np.random.default_rng(5)
    page = np.full((220, 220, 3), 255, np.uint8)
    for r in range(8):
        for c in range(8):
            page[30 + 20 * r : 50 + 20 * r, 30 + 20 * c : 50 + 20 * c] = rng.integers(60, 200, 3)
    if grid:
        for k in (2, 4, 6):
            page[30:190, 30 + 20 * k + 10] = 204
            page[30 + 20 * k + 10, 30:190] = 204
    return Image.fromarray(page)


def test_a_grid_line_drawn_through_a_heat_maps_cells_is_no_rule():
    # seaborn's whitegrid style draws its grid over a heat map at the ticks, through the middle of
    # a column of cells: each line is one light grey, so it passed for a thin rule between pictures
    # and the heat map came out as 16 blocks (chart benchmark seeds 1000 and 4000). Each cell goes
    # on across the line: the tones beside it agree, and so do the places where they change
    from medfig.vision.subfigures import find_panels

    for grid in (False, True):
        layout = find_panels(_heatmap_under_a_grid(grid))
        assert layout.panels == [(30, 30, 190, 190)], grid


def test_a_rule_between_two_pictures_or_two_slices_on_black_is_still_a_rule():
    import numpy as np

    from medfig.vision.gap_checks import one_picture_across

    rng = np.random.default_rng(9)
    photos = rng.integers(0, 255, (100, 41)).astype(np.uint8)
    photos[:, 20] = 204  # a grey rule between two photos: their sides differ
    assert not one_picture_across(photos, 20, 21, 0)
    slices = np.zeros((100, 41), np.uint8)
    slices[10:30, 14:20] = 180  # the edge of a body at the left tile's right side ...
    slices[60:90, 21:27] = 150  # ... and at the right tile's left side, elsewhere: black alike, edges not
    slices[:, 20] = 204
    assert not one_picture_across(slices, 20, 21, 0)
    cells = np.repeat(rng.integers(60, 200, (10, 1)), 10, axis=0).astype(np.uint8) * np.ones((1, 41), np.uint8)
    cells[:, 20] = 204  # one column of cells under a grid line: the same cell on both sides
    assert one_picture_across(cells, 20, 21, 0)


def test_alike_charts_with_tick_labels_of_their_own_are_evidence_of_panels():
    # a framed shared legend cut out with the axis title above it is a piece unlike the four
    # charts, and a caption that names no panel then kept the figure whole (chart seed 3045)
    charts = [(60, 20, 300, 210), (370, 20, 610, 210), (60, 280, 300, 470), (370, 280, 610, 470)]
    legend = (420, 225, 630, 275)
    # a column of right-aligned y tick labels left of each chart
    ticks = [(c[0] - 20, y, c[0] - 5, y + 10) for c in charts for y in range(c[1] + 10, c[3] - 10, 40)]
    pieces = charts + [legend]
    assert not pieces_alike(pieces)
    assert unnamed_and_unlike(pieces, [], [])  # no text blocks given: no evidence of charts
    assert not unnamed_and_unlike(pieces, [], [], ticks, 640)
    # one chart with its ticks beside an unlike piece (a chart and its table) is still one panel
    one = [t for t in ticks if t[2] == charts[0][0] - 5 and t[1] < charts[0][3]]
    assert unnamed_and_unlike([charts[0], (320, 20, 420, 60)], [], [], one, 640)
