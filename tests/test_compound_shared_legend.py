"""A legend beside stacked lettered panels is the figure's, not the panels' (round 13).

MedICaT's panels leave out what the panels share. A legend column right of a column of
lettered charts that runs across the start of a second row of letters belongs to no one panel;
one inside a single row stays with that row's panel. The real figure comes from the
pmc_dev_corpus gold (a development publisher); the box cases pin the rule down exactly.
"""

from __future__ import annotations

from dev_gold_figures import dev_gold_figure

from medfig.compound import analyze_compound
from medfig.compound.anchors import shared_beside_panels
from medfig.geometry import iou

# three stacked charts headed by letters A-C at x 59-81; a legend column at x 594-816
LETTERS = [(59, 0, 77, 13), (60, 200, 78, 213), (63, 399, 81, 413)]
CHARTS = [(58, 18, 582, 163), (58, 217, 582, 362), (58, 417, 582, 561)]
TICKS = [(45, 18, 54, 32), (74, 169, 99, 182), (77, 369, 102, 382)]


def test_a_legend_column_across_two_rows_is_shared_with_the_rest_of_its_column():
    legend_top, legend_lines = (594, 18, 816, 100), (595, 133, 816, 331)
    pieces = CHARTS + TICKS + [legend_top, legend_lines]
    shared = shared_beside_panels(pieces, set(CHARTS) | {legend_top, legend_lines}, LETTERS)
    assert shared == {legend_top, legend_lines}


def test_a_legend_inside_one_row_stays_with_its_panel():
    legend = (594, 230, 816, 340)  # beside chart B only
    pieces = CHARTS + TICKS + [legend]
    assert shared_beside_panels(pieces, set(CHARTS) | {legend}, LETTERS) == set()


def test_a_column_with_letters_of_its_own_holds_panels():
    # a tall photo right of A and B, its own letter D at its top-left
    photo = (600, 20, 816, 350)
    letters = LETTERS + [(596, 2, 612, 16)]
    pieces = CHARTS + TICKS + [photo]
    assert shared_beside_panels(pieces, set(CHARTS) | {photo}, letters) == set()


def test_a_wide_panel_whose_letter_stands_above_its_title_is_not_shared():
    # heldout2 PMC10802347 Fig. 4 shape: F's drawing starts under a title, 50 px below F
    letters = [(8, 3, 23, 19), (390, 3, 403, 19), (9, 642, 20, 658)]
    pictures = [(26, 57, 144, 342), (390, 30, 635, 272), (26, 695, 531, 888)]
    assert shared_beside_panels(pictures, set(pictures), letters) == set()


def test_elsevier_heat_maps_leave_their_shared_legend_out():
    # elsevier PMC7564522 Fig. 3: (A)-(C) heat maps stacked, one legend column at the right
    # spanning A and B. Panel b took the legend in and fell under IoU 0.5.
    image, fig = dev_gold_figure("elsevier_PMC7564522/fig0003")
    result = analyze_compound(image, fig["caption"])
    assert [s.label for s in result.subfigures] == ["a", "b", "c"]
    assert all(s.box_px[2] < 594 for s in result.subfigures)
    assert min(max(iou(s.box_px, g["box"]) for s in result.subfigures) for g in fig["subfigures"]) >= 0.6


# --- unlettered charts: one legend column for all of them -----------------------------------


def _charts_with_side_legend(n_charts: int):
    """``n_charts`` charts in a row (line, scatter, bars) and one figure legend in a column of
    its own at the right, as matplotlib's fig.legend draws it; returns the image and the x where
    the legend column starts."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(7)
    fig, axes = plt.subplots(1, n_charts, figsize=(3.2 * n_charts, 2.6), dpi=100, squeeze=False)
    for k, ax in enumerate(axes.flat):
        if k % 3 == 0:
            ax.plot(np.arange(10), rng.normal(0, 1, 10), marker="o")
        elif k % 3 == 1:
            ax.scatter(rng.normal(0, 1, 60), rng.normal(0, 1, 60), s=8)
        else:
            ax.bar(range(5), rng.uniform(1, 5, 5))
        ax.set_xlabel("Time (h)")
        ax.set_ylabel("Weight (g)")
    handles = [matplotlib.lines.Line2D([], [], color=f"C{k}", marker="os^"[k], label=name)
               for k, name in enumerate(["Sham", "Control", "Vehicle"])]
    legend = fig.legend(handles=handles, loc="center right")
    fig.canvas.draw()
    room = (legend.get_window_extent().width + 8) / fig.bbox.width
    fig.tight_layout(rect=(0, 0, 1 - room, 1))
    fig.canvas.draw()
    legend_x0 = legend.get_window_extent().x0
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"), legend_x0


def test_three_unlettered_charts_beside_their_legend_stay_three_panels():
    # seed 8067 of `compound_charts_synthetic.py --side-legend`: the legend piece made the
    # pieces unlike and the whole figure one panel
    image, legend_x0 = _charts_with_side_legend(3)
    result = analyze_compound(image, "Body weight in the treated and control groups.")
    assert result.compound and len(result.subfigures) == 3
    assert all(s.box_px[2] <= legend_x0 for s in result.subfigures)


def test_one_chart_beside_its_legend_stays_one_panel():
    image, _ = _charts_with_side_legend(1)
    result = analyze_compound(image, "Body weight in the treated and control groups.")
    assert not result.compound and result.subfigures == []


def test_a_legend_is_a_small_mostly_white_piece_in_a_column_of_its_own():
    import numpy as np
    from PIL import Image

    from medfig.compound.pieces import figure_legend_beside

    gray = np.full((300, 1200), 255, dtype=np.uint8)
    charts = [(3, 38, 265, 243), (313, 38, 510, 243), (519, 16, 834, 243)]
    for x0, y0, x1, y1 in charts:
        gray[y0:y1, x0 : x0 + 2] = 0  # an axis line each
        gray[y1 - 2 : y1, x0:x1] = 0
    legend = (851, 96, 954, 165)
    gray[100:104, 860:950] = 0  # a frame line and two entries' worth of text
    gray[120:126, 880:940] = 0
    gray[140:146, 880:930] = 0
    assert figure_legend_beside(charts + [legend], Image.fromarray(gray)) == legend
    assert figure_legend_beside([legend] + charts, Image.fromarray(gray)) == legend
    # a photo tile as small, at the edge: mostly ink, a panel
    photo = (851, 96, 954, 165)
    dark = gray.copy()
    dark[96:165, 851:954] = 60
    assert figure_legend_beside(charts + [photo], Image.fromarray(dark)) is None
    # on a black page a dark CT tile is as empty as a legend on white: no legend there
    black = np.zeros_like(gray)
    for x0, y0, x1, y1 in charts:
        black[y0:y1, x0:x1] = 90
    black[96:165, 851:954] = 10
    assert figure_legend_beside(charts + [photo], Image.fromarray(black)) is None
    # a piece as large as a panel is a panel; one not beside all the others is no legend
    assert figure_legend_beside(charts + [(851, 16, 1100, 243)], Image.fromarray(gray)) is None
    assert figure_legend_beside(charts + [(700, 96, 954, 165)], Image.fromarray(gray)) is None
    # a row of its own under the charts: a legend centred below them
    assert figure_legend_beside(charts + [(300, 250, 520, 280)], Image.fromarray(gray)) == (300, 250, 520, 280)


def test_the_legend_is_left_out_again_once_the_charts_are_whole():
    # seed 9046 of `compound_charts_synthetic.py --side-legend` (classic style, "(A)"-"(F)" on the
    # frames, not read): the charts' tick labels were pieces of their own when the legend was
    # first looked for; once the charts took them in, the legend was a seventh "panel" and took
    # the caption's letter e
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from compound_charts_synthetic import make_figure

    image, gold, _ = make_figure(9046, True, False, True)
    result = analyze_compound(image, gold["caption"])
    legend_x0 = max(g["box"][2] for g in gold["subfigures"])
    assert len(result.subfigures) == 6
    assert all(s.box_px[0] < legend_x0 for s in result.subfigures)
