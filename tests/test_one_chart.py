"""The bars or facets of one chart are one panel (medfig.compound.one_chart), drawn with exact
ground truth: a bar chart without an axis line, whose bars the XY-cut parts at the blank
columns between them, against a row of two such charts, each with its own tick labels."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from medfig.compound import analyze_compound
from medfig.vision.subfigures import find_panels

FONT = ImageFont.load_default(size=16)


def _bar_chart(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, heights: list[float]) -> None:
    """Tick labels 0..50 left of the plot, light grid lines, bars without an axis line."""
    for k in range(6):
        ty = y + h - k * h // 5
        draw.text((x - 8, ty), str(k * 10), fill=0, font=FONT, anchor="rm")
        draw.line([(x, ty), (x + w, ty)], fill=(225, 225, 225), width=1)
    bar = w // (2 * len(heights) + 1)
    for i, v in enumerate(heights):
        bx = x + bar * (2 * i + 1)
        draw.rectangle([bx, y + h - int(v * h), bx + bar, y + h], fill=(200, 40, 40) if i % 2 == 0 else (60, 110, 200))
    draw.text((x + w // 2, y + h + 18), "Treatment groups", fill=0, font=FONT, anchor="mm")


def test_the_bars_of_one_chart_are_one_panel():
    img = Image.new("RGB", (600, 440), "white")
    _bar_chart(ImageDraw.Draw(img), 90, 30, 480, 330, [0.8, 0.6])
    assert len(find_panels(img).panels) == 2  # the XY-cut alone parts the two bars
    result = analyze_compound(img, "Diagnostic accuracy with and without the list.")
    assert result.compound is False


def test_two_charts_each_with_its_own_tick_labels_stay_apart():
    img = Image.new("RGB", (1100, 440), "white")
    draw = ImageDraw.Draw(img)
    _bar_chart(draw, 90, 30, 400, 330, [0.8, 0.6])
    _bar_chart(draw, 640, 30, 400, 330, [0.5, 0.9])
    result = analyze_compound(img, "Scores of both cohorts.")
    assert result.compound is True
    assert any(s.box_px[0] >= 600 for s in result.subfigures)


def test_photos_beside_a_column_of_labels_are_not_plot_parts():
    rng = np.random.default_rng(0)
    img = Image.new("RGB", (760, 400), "white")
    draw = ImageDraw.Draw(img)
    for k in range(6):  # a right-aligned column of row labels, like tick labels
        draw.text((82, 40 + k * 60), f"day {k}", fill=0, font=FONT, anchor="rm")
    for x in (120, 450):
        noise = rng.integers(40, 200, size=(330, 290, 3), dtype=np.uint8)
        img.paste(Image.fromarray(noise), (x, 30))
    result = analyze_compound(img, "Wound healing over six days.")
    assert result.compound is True
    assert len(result.subfigures) == 2


def test_a_colour_bar_merged_with_the_next_charts_axis_is_an_axis_between_two_charts():
    # two heatmaps side by side (chart benchmark, bmh style, seed 3025): the first one's colour bar
    # and the second's axis title and tick labels nearly touch and merge into one tall text block,
    # so no column of tick labels was found before the second heatmap, and the pair was taken for
    # the plot parts of one chart (one panel). A block as tall as half the piece beside it is an
    # axis of its own: the bars of one chart have nothing between them
    from medfig.compound.one_chart import plot_parts_of_one_chart

    img = Image.new("RGB", (620, 240), "white")
    draw = ImageDraw.Draw(img)
    for k in range(4):
        draw.text((38, 30 + k * 55), str(2 * k), fill=0, font=FONT, anchor="rm")
    pieces = [(42, 6, 262, 214), (359, 6, 579, 214)]
    merged_axis = (274, 6, 354, 214)
    assert plot_parts_of_one_chart(img, pieces, [merged_axis] + [(20, 22 + k * 55, 40, 38 + k * 55) for k in range(4)], []) is False
    # with nothing between them, the same two pieces are the plot parts of one chart
    assert plot_parts_of_one_chart(img, pieces, [(20, 22 + k * 55, 40, 38 + k * 55) for k in range(4)], []) is True
