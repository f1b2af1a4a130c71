"""Compound figures: panel splitting, OCR panel letters, alignment, inline refs, crops, CLI.

Synthetic figures (exact ground truth) are built here from noise/gradient panels; real
checks use the MedICaT sample PNGs in ../shared/data.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from medfig.cli import main
from medfig.compound import analyze_compound, split_compound, write_crops
from medfig.compound.align import heuristic_alignment, reading_order
from medfig.records import InlineRef
from medfig.text.subcaptions import parse_subcaptions
from medfig.vision.subfigures import find_panels

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
MEDICAT = DATA / "medicat_sample" / "figures"
FOUR_MRI = MEDICAT / "5f2d2f2ffbd20c7ff3ac30d514da54ee5bd825b4_2-Figure2-1.png"
FOUR_MRI_CAPTION = "Fig. 2. Mid sagittal (A, C) and axial MRI (B, D) of the cervical spine showing a mass like lesion with enhancement."
MRI_WITH_INSET = MEDICAT / "26491ab76c6e8d6acc582e71bb6b3b5f5601ccc2_3-Figure4-1.png"


def _panel(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    """A textured photo-like panel: a gradient with noise, mid-grey so letters read on it."""
    yy, xx = np.mgrid[0:h, 0:w]
    base = 60 + 80 * (xx / w) + 40 * (yy / h)
    arr = np.clip(base + rng.normal(0, 12, (h, w)), 0, 200).astype(np.uint8)
    return Image.fromarray(np.stack([arr, arr, arr], axis=-1))


def synthetic_grid(rows: int, cols: int, gap: int = 10, letters: bool = True, seed: int = 0):
    """A white-background grid with exact panel boxes, optional white letters top-left."""
    rng = np.random.default_rng(seed)
    pw, ph = 180, 150
    img = Image.new("RGB", (cols * pw + (cols + 1) * gap, rows * ph + (rows + 1) * gap), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=26)
    boxes = []
    for r in range(rows):
        for c in range(cols):
            x, y = gap + c * (pw + gap), gap + r * (ph + gap)
            img.paste(_panel(rng, pw, ph), (x, y))
            boxes.append([x, y, x + pw, y + ph])
            if letters:
                draw.text((x + 8, y + 4), chr(ord("A") + r * cols + c), fill="white", font=font)
    return img, boxes


def test_grid_panels_are_found_exactly():
    img, boxes = synthetic_grid(2, 3)
    layout = find_panels(img)
    assert sorted(map(list, layout.panels)) == sorted(boxes)
    assert layout.compound


def test_touching_panels_split_at_a_thin_rule():
    rng = np.random.default_rng(1)
    img = Image.new("RGB", (403, 150), (30, 30, 30))
    img.paste(_panel(rng, 200, 150), (0, 0))
    img.paste(_panel(rng, 200, 150), (203, 0))  # 3 px dark-grey rule between them
    layout = find_panels(img)
    assert sorted(map(list, layout.panels)) == [[0, 0, 200, 150], [203, 0, 403, 150]]


def test_one_image_is_not_split():
    rng = np.random.default_rng(2)
    layout = find_panels(_panel(rng, 400, 300))
    assert not layout.compound and layout.panels == [(0, 0, 400, 300)]


def test_two_objects_on_black_are_one_panel():
    # two legs in one CT slice: comparable blobs on black, no visible panel edge
    img = Image.new("RGB", (400, 240), "black")
    d = ImageDraw.Draw(img)
    d.ellipse([30, 40, 170, 200], fill=(150, 150, 150))
    d.ellipse([230, 40, 370, 200], fill=(150, 150, 150))
    assert not find_panels(img).compound


def test_dark_pair_with_black_gap_is_split_when_lined_up():
    # a histology picture (straight edges) beside a radiograph on black (no visible edge),
    # same top and bottom, 12 px black gap: two panels. Shifted out of line: kept as one.
    rng = np.random.default_rng(9)
    for shift, expected in ((0, 2), (60, 1)):
        img = Image.new("RGB", (520, 300 + shift), "black")
        img.paste(_panel(rng, 240, 260), (10, 20))
        d = ImageDraw.Draw(img)
        d.ellipse([262, 20 + shift, 510, 280 + shift], fill=(170, 170, 170))  # bone on black
        assert len(find_panels(img).panels) == expected, shift


def test_real_mri_with_scout_inset_is_not_split():
    assert not analyze_compound(Image.open(MRI_WITH_INSET)).compound


def test_ocr_letters_drive_the_alignment():
    img, boxes = synthetic_grid(2, 2)
    caption = "Figure 1. Title. (A) first view. (B) second view. (C) third view. (D) fourth view."
    result = analyze_compound(img, caption)
    assert result.compound
    by_box = {tuple(s.box_px): s for s in result.subfigures}
    for i, box in enumerate(boxes):
        sub = by_box[tuple(box)]
        assert sub.label == "abcd"[i]
        assert sub.label_source == "ocr"
        assert sub.subcaption == ["first view.", "second view.", "third view.", "fourth view."][i]


def test_letters_beat_reading_order_when_panels_are_lettered_column_first():
    # letters run down the columns (A C / B D), so reading order would be wrong
    img, boxes = synthetic_grid(2, 2, letters=False)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=26)
    for letter, box in zip("ACBD", boxes):
        draw.text((box[0] + 8, box[1] + 4), letter, fill="white", font=font)
    caption = "(A) one. (B) two. (C) three. (D) four."
    label = {tuple(s.box_px): s.label for s in analyze_compound(img, caption).subfigures}
    heur = {tuple(s.box_px): s.label for s in analyze_compound(img, caption, alignment="heuristic").subfigures}
    assert [label[tuple(b)] for b in boxes] == ["a", "c", "b", "d"]
    assert [heur[tuple(b)] for b in boxes] == ["a", "b", "c", "d"]


def test_medicat_heuristic_rows_within_50px():
    boxes = [(300, 40, 400, 100), (0, 0, 100, 100), (150, 45, 250, 100), (0, 200, 100, 300)]
    assert reading_order(boxes) == [1, 2, 0, 3]
    labels = heuristic_alignment(boxes + [(150, 200, 250, 300)], parse_subcaptions("(a) x. (b) y. (c) z. (d) w."))
    assert labels == ["c", "a", "b", "d", "d"]  # the extra box gets the last subcaption


def test_real_four_panel_mri():
    result = analyze_compound(Image.open(FOUR_MRI), FOUR_MRI_CAPTION)
    got = {s.label: s for s in result.subfigures}
    assert sorted(got) == ["a", "b", "c", "d"]
    assert got["a"].box_px == [0, 0, 253, 317] and got["d"].box_px == [261, 325, 650, 642]
    assert got["a"].subcaption == got["c"].subcaption == "Mid sagittal"
    assert got["b"].subcaption == "axial MRI"
    assert sum(s.label_source == "ocr" for s in result.subfigures) >= 2


def test_inline_refs_attach_to_the_panels_they_name():
    refs = [
        InlineRef(figure_id="F2", sentence="The lesion enhanced (Figure 2B, D).", panels=["B", "D"]),
        InlineRef(figure_id="F2", sentence="See Figure 2.", panels=[]),
    ]
    subs = split_compound(Image.open(FOUR_MRI), FOUR_MRI_CAPTION, refs, figure_id="F2")
    cited = {s.label: [r.sentence for r in s.inline_refs] for s in subs}
    assert cited["b"] == cited["d"] == ["The lesion enhanced (Figure 2B, D)."]
    assert cited["a"] == cited["c"] == []
    assert all(s.figure_id == "F2" for s in subs)


def test_single_panel_split_is_empty_and_crops_are_written(tmp_path):
    assert split_compound(Image.open(MRI_WITH_INSET), "Figure 4. MRI scan.") == []
    subs = split_compound(Image.open(FOUR_MRI), FOUR_MRI_CAPTION)
    assert sorted(s.label for s in subs) == ["a", "b", "c", "d"]
    write_crops(Image.open(FOUR_MRI), subs, tmp_path, "images/subfigures/fig2")
    for s in subs:
        crop = Image.open(tmp_path / s.crop_file)
        assert crop.size == (s.box_px[2] - s.box_px[0], s.box_px[3] - s.box_px[1])


def test_cli_json_contract_and_preview(tmp_path, capsys):
    preview = tmp_path / "prev.png"
    assert main(["compound", str(FOUR_MRI), "--caption", FOUR_MRI_CAPTION, "--json", "--preview", str(preview)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"compound", "confidence", "subfigures"} and out["compound"] is True
    assert sorted(s["label"] for s in out["subfigures"]) == ["a", "b", "c", "d"]
    assert all(set(s) == {"label", "box", "score", "confidence", "subcaption"} for s in out["subfigures"])
    # calibrated probabilities from the shipped model (medfig.compound.confidence)
    assert all(0.0 < s["confidence"] < 1.0 for s in out["subfigures"]) and 0.0 < out["confidence"] < 1.0
    assert all(len(s["box"]) == 4 and 0 < s["score"] <= 1 for s in out["subfigures"])
    img = Image.open(preview)
    assert img.width == 650 and img.height > 670  # the figure plus a legend


def test_cli_bad_image_names_the_file(tmp_path, capsys):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not an image")
    assert main(["compound", str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err
    assert main(["compound", str(tmp_path / "missing.png")]) == 2
    assert "missing.png" in capsys.readouterr().err


MEDICAT_PNGS = sorted(p.name for p in MEDICAT.glob("*.png"))


def test_medicat_sample_is_there():
    # an empty parameter list would make the test below skip, not fail
    assert len(MEDICAT_PNGS) == 10, MEDICAT


@pytest.mark.parametrize("name", MEDICAT_PNGS)
def test_medicat_sample_runs_and_boxes_stay_inside(name):
    img = Image.open(MEDICAT / name)
    result = analyze_compound(img, "")
    # a compound figure has at least two panels; a single-panel figure has none
    if result.compound:
        assert len(result.subfigures) >= 2
    else:
        assert result.subfigures == []
    for s in result.subfigures:
        x0, y0, x1, y1 = s.box_px
        assert 0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height


def test_label_between_stacked_panels_follows_its_convention():
    from medfig.compound.align import assign_labels_to_panels
    from medfig.vision.panel_labels import PanelLabel

    top, bottom = (0, 0, 300, 200), (0, 230, 300, 430)
    # "(a)" centred in the gap, nearer the lower panel: Hindawi style names the panel above
    centred = PanelLabel(text="a", box=(140, 212, 160, 226), score=0.99)
    assert assign_labels_to_panels([top, bottom], [centred], {"a", "b"}) == {0: centred}
    # "a" at the left edge just above the lower panel: Nature style names the panel below
    left = PanelLabel(text="a", box=(0, 204, 12, 222), score=0.99)
    assert assign_labels_to_panels([top, bottom], [left], {"a", "b"}) == {1: left}


def test_subfigures_parquet_rows(tmp_path):
    import pyarrow.parquet as pq

    from medfig.compound.table import subfigure_rows, subfigures_table
    from medfig.io import atomic_write_parquet

    refs = [InlineRef(figure_id="F2", sentence="Axial MRI (Fig. 2B).", panels=["B"])]
    subs = split_compound(Image.open(FOUR_MRI), FOUR_MRI_CAPTION, refs, figure_id="F2")
    write_crops(Image.open(FOUR_MRI), subs, tmp_path, "images/subfigures/PMC1_F2")
    atomic_write_parquet(tmp_path / "subfigures.parquet", subfigures_table(subfigure_rows("PMC1", subs)))
    rows = pq.read_table(tmp_path / "subfigures.parquet").to_pylist()
    assert len(rows) == 4 and {r["label"] for r in rows} == {"a", "b", "c", "d"}
    b = next(r for r in rows if r["label"] == "b")
    assert b["inline_refs"][0]["sentence"] == "Axial MRI (Fig. 2B)." and (tmp_path / b["crop_path"]).is_file()
    assert FOUR_MRI_CAPTION[b["subcaption_spans"][0][0] : b["subcaption_spans"][0][1]] == "axial MRI"


def test_chart_panels_take_in_their_axis_labels_and_title():
    img = Image.new("RGB", (760, 300), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=14)
    for x0 in (70, 450):  # two line charts side by side, 240 px apart
        d.rectangle([x0, 50, x0 + 240, 230], outline="black", width=2)  # plot frame
        d.line([(x0 + 5, 220), (x0 + 80, 120), (x0 + 160, 150), (x0 + 235, 60)], fill="blue", width=2)
        d.text((x0 + 60, 22), "Survival by group", fill="black", font=font)  # title above the frame
        for i, tick in enumerate(("100", "50", "0")):
            d.text((x0 - 34, 50 + i * 85), tick, fill="black", font=font)  # y ticks left of it
        d.text((x0 + 90, 240), "Months", fill="black", font=font)  # x-axis label below it
    layout = find_panels(img)
    assert len(layout.panels) == 2
    for panel, x0 in zip(sorted(layout.panels), (70, 450)):
        assert panel[0] <= x0 - 30 and panel[1] <= 30 and panel[3] >= 250  # ticks, title, axis label inside


def test_unlettered_piece_joins_its_lettered_panel():
    # panel A is a picture plus a narrower map beside it (a gap between); B is one picture
    rng = np.random.default_rng(5)
    img = Image.new("RGB", (640, 200), "white")
    img.paste(_panel(rng, 200, 180), (10, 10))
    img.paste(_panel(rng, 100, 180), (214, 10))  # no letter, 4 px beside A: part of A
    img.paste(_panel(rng, 280, 180), (350, 10))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=26)
    d.text((18, 14), "A", fill="white", font=font)
    d.text((358, 14), "B", fill="white", font=font)
    assert len(find_panels(img).panels) == 3
    result = analyze_compound(img, "(A) STEM image with its EDX map. (B) Line profile.")
    got = {s.label: s.box_px for s in result.subfigures}
    assert got == {"a": [10, 10, 314, 190], "b": [350, 10, 630, 190]}


def test_cli_reads_an_elife_tiff(capsys):
    tiff = DATA / "jats_pdf_figure_packages" / "elife-19405_pmc_deposit" / "elife-19405-fig1.tif"
    assert main(["compound", str(tiff), "--caption", "Figure 1. (A) Centrosome and cilium. (B) Spindle.", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    labels = {s["label"]: s for s in out["subfigures"]}
    assert out["compound"] and {"a", "b"} <= set(labels)
    assert labels["a"]["box"][3] <= labels["b"]["box"][1]  # A sits above B (letter-anchored panels may abut)
    assert labels["b"]["subcaption"] == "Spindle."


def test_position_words_on_one_axis_name_whole_columns_or_rows_of_a_grid():
    from medfig.compound.align import label_alignment
    from medfig.text.subcaptions import parse_subcaptions

    grid = [[0, 0, 100, 80], [110, 0, 210, 80], [0, 90, 100, 170], [110, 90, 210, 170]]  # 2 x 2
    labels, _ = label_alignment(grid, [], parse_subcaptions("Axial T2 MRI (left) and contrast-enhanced T1 (right) "
                                                            "at admission and at follow-up."))
    assert labels == ["left", "right", "left", "right"]  # was: left, right, None, None
    labels, _ = label_alignment(grid, [], parse_subcaptions("Upper panels: H&E staining. Lower panels: CD20."))
    assert labels == ["upper", "upper", "lower", "lower"]
    # one row: "left" is the one left panel, as before; three columns named by two words: no guess
    row = [[0, 0, 100, 80], [110, 0, 210, 80]]
    assert label_alignment(row, [], parse_subcaptions("CT (left) and MRI (right)."))[0] == ["left", "right"]
    three = [[0, 0, 60, 80], [70, 0, 130, 80], [140, 0, 200, 80], [0, 90, 60, 170], [70, 90, 130, 170], [140, 90, 200, 170]]
    assert label_alignment(three, [], parse_subcaptions("CT (left) and MRI (right)."))[0].count("left") == 1
    # "middle" between words of one axis is that axis's middle line
    assert label_alignment(three, [], parse_subcaptions("Control (left), 5 mg/kg (middle) and 10 mg/kg (right)."))[0] == [
        "left", "middle", "right", "left", "middle", "right"]


def test_letters_under_rows_group_the_pictures_above_them():
    # two rows of three radiology-like pictures, "(a)" centred under row 1, "(b)" under row 2:
    # each letter names its whole row (publisher's layout), the letter is not part of the box
    rng = np.random.default_rng(11)
    img = Image.new("RGB", (660, 520), "white")
    for row, y in enumerate((10, 270)):
        for x in (10, 230, 450):
            img.paste(_panel(rng, 200, 200), (x, y))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=22)
    d.text((315, 218), "(a)", fill="black", font=font)
    d.text((315, 478), "(b)", fill="black", font=font)
    assert len(find_panels(img).panels) == 6
    result = analyze_compound(img, "Liver CT. (a) Arterial, portal and delayed phase. (b) MRI in three sequences.")
    got = {s.label: s.box_px for s in result.subfigures}
    assert got == {"a": [10, 10, 650, 210], "b": [10, 270, 650, 470]}


def test_top_left_letters_take_in_the_pieces_of_their_panel():
    # Nature/eLife style: "A" and "B" at the top-left; panel B is a plot plus a separate strip
    # of rotated tick labels under it (a piece the XY-cut leaves on its own)
    rng = np.random.default_rng(12)
    img = Image.new("RGB", (700, 330), "white")
    img.paste(_panel(rng, 280, 290), (30, 30))
    img.paste(_panel(rng, 280, 200), (400, 30))
    img.paste(_panel(rng, 280, 70), (400, 250))  # no letter, 20 px under B's plot
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=28)
    d.text((4, 2), "A", fill="black", font=font)
    d.text((372, 2), "B", fill="black", font=font)
    assert len(find_panels(img).panels) == 3
    result = analyze_compound(img, "(A) Survival of all patients. (B) Cytokine levels by group.")
    got = {s.label: s.box_px for s in result.subfigures}
    assert set(got) == {"a", "b"}
    ax0, ay0, ax1, ay1 = got["a"]
    bx0, by0, bx1, by1 = got["b"]
    assert ax0 <= 6 and ay0 <= 12 and ax1 == 310 and ay1 == 320  # letter + picture
    assert bx0 <= 376 and by0 <= 12 and bx1 == 680 and by1 == 320  # letter + plot + tick strip


def test_anchor_partition_wide_panel_under_two_narrow_ones():
    from medfig.compound.partition import partition_on_anchors

    # A and B side by side on top; C a wide chart under both, cut by the XY-cut into a left
    # plot and a right plot piece; a blank band runs across the figure between the rows
    letters = [(0, 0, 20, 24), (400, 0, 420, 24), (0, 300, 20, 324)]
    a_pic, b_pic = (30, 10, 380, 260), (430, 10, 780, 260)
    c_left, c_right = (30, 310, 390, 600), (380, 330, 780, 590)  # right piece starts left of B's letter
    ticks = (20, 600, 380, 620)  # tick-label strip under C's left plot
    big = {a_pic, b_pic, c_left, c_right}
    boxes = partition_on_anchors([a_pic, b_pic, c_left, c_right, ticks], big, letters)
    assert boxes == [(0, 0, 380, 260), (400, 0, 780, 260), (0, 300, 780, 620)]


def test_anchor_partition_cuts_a_piece_holding_two_letters():
    from medfig.compound.partition import partition_on_anchors

    # one XY-cut piece holds panels A and B (a chart touching the photos beside it)
    letters = [(10, 10, 30, 34), (300, 10, 320, 34)]
    joined = (10, 10, 600, 250)
    assert partition_on_anchors([joined], {joined}, letters) == [(10, 10, 300, 250), (300, 10, 600, 250)]
    # letters under the pictures do not head panels: no partition
    under = [(100, 260, 130, 280), (400, 260, 430, 280)]
    assert partition_on_anchors([joined], {joined}, under) is None


def test_foot_partition_gives_each_letter_the_pictures_above_it():
    from medfig.compound.partition import partition_on_foot_letters

    # "(a)" centred under a 2 x 2 block of blots, "(b)" under one picture on the right
    blots = [(0, 0, 200, 140), (220, 0, 420, 140), (0, 160, 200, 300), (220, 160, 420, 300)]
    pic_b = (500, 60, 800, 300)
    letters = [(195, 320, 225, 340), (635, 320, 665, 340)]
    boxes = partition_on_foot_letters(blots + [pic_b], set(blots) | {pic_b}, letters)
    assert boxes == [(0, 0, 420, 300), (500, 60, 800, 300)]


def test_thin_frame_round_a_light_figure_is_not_a_dark_border():
    # a PDF crop that carries the page's grey figure frame: still a light figure, still split
    img, boxes = synthetic_grid(1, 2, gap=30, letters=False, seed=3)
    framed = img.copy()
    ImageDraw.Draw(framed).rectangle([0, 0, framed.width - 1, framed.height - 1], outline=(145, 145, 145), width=2)
    layout = find_panels(framed)
    assert layout.background_light
    assert len(layout.panels) == 2


def test_text_blocks_do_not_snowball_along_a_rule():
    from medfig.vision.text_blocks import is_rule as _is_rule, merge_text as _merge_text

    # a column of tick labels, a panel letter, and pieces of one text line that overlap in
    # a staircase: the line joins, the column does not, nothing grows taller than ~1.5 lines
    ticks = [(10, y, 30, y + 12) for y in range(40, 400, 40)]
    letter = (60, 0, 78, 20)
    stair = [(100 + 12 * i, 300 + 6 * i, 110 + 12 * i, 312 + 6 * i) for i in range(8)]
    merged = _merge_text(ticks + [letter] + stair)
    assert letter in merged and all(t in merged for t in ticks)
    assert all(b[3] - b[1] <= 18 for b in merged if b != letter)  # staircase pieces are 12 tall
    # a 1 px frame edge is a rule: find_panels keeps it out of the text lines
    assert _is_rule((0, 0, 1, 400)) and not _is_rule(letter) and not _is_rule((0, 0, 3, 13))


def test_dark_pair_without_edges_is_cut_at_the_letters_its_caption_names():
    # two radiographs on black with no visible edge: one piece for the XY-cut. When the
    # caption names two panels and "A", "B" are read at their top-left, the figure is cut
    # at B; the same picture under a caption without panel letters stays one panel.
    img = Image.new("RGB", (420, 260), "black")
    d = ImageDraw.Draw(img)
    rng = np.random.default_rng(4)
    for x0 in (40, 250):
        d.ellipse([x0, 50, x0 + 140, 240], fill=(150, 150, 150))
        noise = rng.integers(0, 40, (120, 60), dtype=np.uint8)
        img.paste(Image.fromarray(np.stack([noise + 100] * 3, axis=-1)), (x0 + 40, 90))
    font = ImageFont.load_default(size=28)
    d.text((12, 8), "A", fill="white", font=font)
    d.text((222, 8), "B", fill="white", font=font)
    assert not find_panels(img).compound
    result = analyze_compound(img, "(A) Right femur. (B) Left femur.")
    got = {s.label: s.box_px for s in result.subfigures}
    assert set(got) == {"a", "b"}
    assert got["a"][2] == got["b"][0] and 215 <= got["b"][0] <= 230 and got["b"][2] >= 390  # cut at B
    assert not analyze_compound(img, "Both femora on plain radiographs.").compound


ELIFE_15600_PDF = DATA / "elife_xml_pdf_pairs" / "elife-15600-vor-r1" / "elife-15600.pdf"


def _elife_15600_figure(page: int, box_pt: tuple[float, float, float, float]) -> Image.Image:
    """A figure of elife-15600 as `medfig build` crops it from the PDF (page 0-based, box in
    PDF points, origin top-left, rendered at the build's 150 dpi)."""
    import io

    import pypdfium2

    from medfig.pdf.output import render_box_png

    doc = pypdfium2.PdfDocument(str(ELIFE_15600_PDF))
    try:
        png, _, _ = render_box_png(doc[page], box_pt, 150.0)
    finally:
        doc.close()
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_rotated_axis_title_glyph_is_not_an_extra_panel():
    # elife-15600 Fig. 7 (four stacked charts A-D). At the build's render scale the "E" of
    # the rotated y-axis title "Max Excitatory Enh." in panel D reads as "E", the letter after
    # the caption's last one; it touches its neighbouring glyphs, so it must not cut D in two.
    img = _elife_15600_figure(12, (168.550003, 53.799999, 375.019989, 678.609985))
    assert img.size == (429, 1301)
    caption = (
        "Multisensory responses have a greater inhibitory to excitatory ratio in older animals. "
        "(A) Sample excitatory (red) and inhibitory (blue) synaptic conductances recorded at different ISIs. "
        "(B) Plot of crossmodal enhancement of excitatory synaptic conductances as a function of ISI. "
        "(C) Plot of crossmodal enhancement of inhibitory synaptic conductances as a function of ISI. "
        "(D) Plot of maximum excitatory and inhibitory enhancement for each cell."
    )
    result = analyze_compound(img, caption)
    subs = result.subfigures
    assert [s.label for s in subs] == ["a", "b", "c", "d"]
    assert all(s.label_source == "ocr" for s in subs)
    # stacked top to bottom; D holds the whole scatter plot down to its x-axis title
    assert all(a.box_px[3] <= b.box_px[1] for a, b in zip(subs, subs[1:]))
    assert subs[3].box_px[3] >= 1250 and subs[3].box_px[3] - subs[3].box_px[1] >= 280
    assert all(s.box_px[2] >= 355 for s in subs)


def test_free_standing_letter_after_the_captions_last_heads_its_own_panel():
    # elife-15600 Fig. 5: the caption names (A)-(F) and "(C)" a second time for the seventh
    # chart, which the figure prints as "G" (free-standing, sure reading): it keeps its own box
    img = _elife_15600_figure(9, (37.02, 53.799999, 574.469971, 397.980011))
    caption = (
        "Cross-modal enhancement. (A) Example. (B) Plot one. (C) Plot two. (D) Plot three. "
        "(E) Plot four. (F) Plot five. (C) Plot six."
    )
    subs = analyze_compound(img, caption).subfigures
    assert len(subs) == 7
    seventh = [s for s in subs if s.label is None]
    assert len(seventh) == 1 and seventh[0].box_px[0] >= 700 and seventh[0].box_px[1] >= 340


def _chart_grid_missing_letter(skip: str):
    """2 x 2 chart grid, eLife style: each panel = a plot plus a separate legend piece under
    it (two XY-cut pieces); letters A-D at the top-left, except ``skip`` (not printed)."""
    rng = np.random.default_rng(21)
    img = Image.new("RGB", (720, 660), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=28)
    for k, (x, y) in enumerate(((0, 0), (370, 0), (0, 330), (370, 330))):
        img.paste(_panel(rng, 300, 200), (x + 40, y + 36))  # plot
        img.paste(_panel(rng, 300, 40), (x + 40, y + 260))  # legend piece, 24 px under the plot
        letter = "ABCD"[k]
        if letter != skip:
            d.text((x + 6, y + 2), letter, fill="black", font=font)
    return img


def test_missing_letter_in_a_grid_is_inferred_for_the_partition():
    # C is not printed (stands for a letter OCR cannot read): A, B, D form a 2 x 2 grid whose
    # empty cell (row 2, column 1) is C's, so the partition still gives one panel per letter,
    # each holding its plot and its legend piece (the legend is lost without the partition)
    img = _chart_grid_missing_letter("C")
    assert len(find_panels(img).panels) == 4  # the legend strips are left as loose pieces
    caption = "(A) Weight. (B) Glucose. (C) Insulin. (D) Survival."
    result = analyze_compound(img, caption)
    got = {s.label: s.box_px for s in result.subfigures}
    assert set(got) == {"a", "b", "c", "d"}
    assert {s.label: s.label_source for s in result.subfigures}["c"] == "order"
    for label, (x, y) in zip("abcd", ((0, 0), (370, 0), (0, 330), (370, 330))):
        x0, y0, x1, y1 = got[label]
        assert x0 <= x + 40 and y0 <= y + 36 and x1 == x + 340 and y1 == y + 300  # plot + legend


def test_missing_letter_is_not_inferred_without_a_grid():
    from medfig.compound.letter_grid import infer_missing_letters
    from medfig.vision.panel_labels import PanelLabel

    def lab(t, x, y):
        return PanelLabel(text=t, box=(x, y, x + 18, y + 24), score=0.99)

    # 2 x 2 with C missing: C at row 2, column 1
    grid = {"a": lab("A", 0, 0), "b": lab("B", 300, 0), "d": lab("D", 300, 300)}
    assert infer_missing_letters(grid, ["a", "b", "c", "d"]) == {"c": (0, 300, 18, 324)}
    # three letters in one row, D missing: no empty cell says where D is
    row = {"a": lab("A", 0, 0), "b": lab("B", 300, 0), "c": lab("C", 600, 0)}
    assert infer_missing_letters(row, ["a", "b", "c", "d"]) is None
    # the empty cell would put the letters out of order (B missing, but its cell is after C)
    odd = {"a": lab("A", 0, 0), "c": lab("C", 300, 0), "d": lab("D", 0, 300)}
    assert infer_missing_letters(odd, ["a", "b", "c", "d"]) is None
    # only two letters read: too little to infer a grid
    assert infer_missing_letters({"a": grid["a"], "b": grid["b"]}, ["a", "b", "c"]) is None


def test_foot_partition_refuses_a_picture_whose_own_letter_line_has_no_letter_for_it():
    from medfig.compound.partition import partition_on_foot_letters

    # 2 x 2 photos with "(a1) (a2)" under the top row and "(b1) (b2)" under the bottom row; the
    # recogniser missed "(a1)": the top-left photo must not join "(b1)" across the "(a2)" line
    pics = [(0, 0, 300, 250), (330, 0, 630, 250), (0, 310, 300, 560), (330, 310, 630, 560)]
    a2, b1, b2 = (460, 265, 500, 290), (130, 575, 170, 600), (460, 575, 500, 600)
    assert partition_on_foot_letters(pics, set(pics), [a2, b1, b2]) is None
    # with every letter read, each photo is its letter's panel
    a1 = (130, 265, 170, 290)
    assert partition_on_foot_letters(pics, set(pics), [a1, a2, b1, b2]) == pics


def test_sub_panel_labels_keep_their_pictures_apart():
    from medfig.compound.pieces import merge_unlettered_panels
    from medfig.vision.panel_labels import PanelLabel

    # a picture, a narrower one 4 px beside it without a letter, and a third picture; the caption
    # names (a) and (b)
    pics = [(0, 0, 200, 180), (204, 0, 304, 180), (340, 0, 620, 180)]
    parsed = parse_subcaptions("Cardiac MRI. (a) T2-weighted images. (b) Late gadolinium enhancement image.")
    # plain letters: the unlettered picture is a piece of its lettered neighbour (an EDX map)
    plain = [PanelLabel("a", (8, 4, 30, 30), 0.99), PanelLabel("b", (348, 4, 370, 30), 0.99)]
    assert merge_unlettered_panels(pics, plain, parsed) == [(0, 0, 304, 180), (340, 0, 620, 180)]
    # the figure prints sub-panel labels ("a1", "b"; "a2" was not read): the pictures are the
    # figure's units, the unlettered one a sub-panel of its own
    numbered = [PanelLabel("a", (8, 4, 30, 30), 0.99, sub="1"), PanelLabel("b", (348, 4, 370, 30), 0.99)]
    assert merge_unlettered_panels(pics, numbered, parsed) == pics


@pytest.mark.parametrize("mode", ["RGBA", "LA", "P"])
def test_transparent_figure_is_read_on_a_white_page(tmp_path, capsys, mode):
    # charts and schematics exported with a transparent background: convert("RGB") would paint
    # the gaps black (the colour stored under alpha 0) and the figure would read as one dark panel
    img, boxes = synthetic_grid(1, 2, gap=30, letters=False)
    rgba = img.convert("RGBA")
    alpha = np.zeros((img.height, img.width), np.uint8)
    for x0, y0, x1, y1 in boxes:
        alpha[y0:y1, x0:x1] = 255
    pixels = np.asarray(rgba).copy()
    pixels[..., 3] = alpha
    pixels[alpha == 0, :3] = 0
    stored = Image.fromarray(pixels, "RGBA")
    if mode == "LA":
        stored = stored.convert("LA")
    elif mode == "P":  # GIF-style: a palette with one transparent index
        stored = stored.convert("RGB").quantize(16)
        index = stored.getpixel((0, 0))
        stored.info["transparency"] = index
    path = tmp_path / f"transparent_{mode}.png"
    stored.save(path, transparency=stored.info["transparency"]) if mode == "P" else stored.save(path)
    assert main(["compound", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["compound"] is True
    found = sorted(s["box"] for s in out["subfigures"])
    assert len(found) == 2 and all(abs(a - b) <= 2 for f, g in zip(found, sorted(boxes)) for a, b in zip(f, g))


def test_rows_of_tiles_with_one_letter_per_row_are_cut_at_the_letters():
    from medfig.compound.pieces import split_at_letter_rows

    # letters B, C, D left of three rows of tiles; the XY-cut left the middle column's tiles as
    # one tall piece: it is cut where C's and D's rows start
    letters = [(20, 0, 40, 22), (20, 130, 40, 152), (20, 260, 40, 282)]
    tall = (200, 0, 380, 380)
    pieces, big = split_at_letter_rows([tall], {tall}, letters)
    assert pieces == [(200, 0, 380, 130), (200, 130, 380, 260), (200, 260, 380, 380)]
    assert big == set(pieces)
    # a tall panel headed by its own letter E, beside the stacked rows: left whole
    headed = (420, 0, 600, 380)
    letters_e = letters + [(400, 0, 418, 22)]
    assert split_at_letter_rows([headed], {headed}, letters_e)[0] == [headed]
    # one letter to the left (a single row): nothing to cut at
    assert split_at_letter_rows([tall], {tall}, letters[:1])[0] == [tall]


def test_anchor_partition_accepts_a_panel_sized_block_of_small_pieces_as_a_picture():
    from medfig.compound.partition import partition_on_anchors

    # A heads a photo; B heads one block that the XY-cut left as merged small pieces (a photo of
    # wells with their labels between them): panel-sized, so B has its picture
    photo = (30, 30, 300, 300)
    block = (350, 30, 600, 300)
    letters = [(0, 0, 20, 22), (320, 0, 340, 22)]
    assert partition_on_anchors([photo, block], {photo}, letters) == [(0, 0, 300, 300), (320, 0, 600, 300)]
    # a small text block is no picture: B has none and the convention is refused
    label = (350, 30, 420, 45)
    assert partition_on_anchors([photo, label], {photo}, letters) is None


def test_a_letter_printed_before_the_captions_first_one_still_names_a_panel():
    from medfig.compound.letter_grid import next_letters
    from medfig.compound.partition import partition_on_foot_letters
    from medfig.vision.panel_labels import PanelLabel

    # the caption discusses only "(b) and (c)"; the figure prints (a), (b), (c) under its charts
    parsed = parse_subcaptions("Memory retention in mice: decreased in V12 relative to controls ((b) and (c)).")
    a = PanelLabel("a", (217, 385, 233, 399), 1.0)
    b = PanelLabel("b", (687, 385, 704, 399), 1.0)
    c = PanelLabel("c", (450, 708, 466, 722), 1.0)
    assert next_letters([a, b, c], parsed, {"b": b, "c": c}) == [a.box]
    # a glyph that does not stand free (a letter of a word) is no panel letter the caption skipped
    word_a = PanelLabel("a", (217, 385, 233, 399), 1.0, free=False)
    assert next_letters([word_a, b, c], parsed, {"b": b, "c": c}) == []
    # with it, each chart goes to the letter under it
    charts = [(0, 0, 454, 298), (475, 0, 921, 282), (230, 405, 695, 700)]
    boxes = partition_on_foot_letters(charts, set(charts), [b.box, c.box, a.box])
    assert sorted(boxes) == sorted(charts)


def test_letters_at_the_bottom_left_corner_of_their_panels_partition_the_figure():
    from medfig.compound.partition import partition_on_anchors, partition_on_corner_feet

    # 2 x 2 micrograph grid, each letter in the lower-left corner under its picture (Veterinary
    # World); a line of page text above the figure and a 1 px frame edge on the right
    pics = [(20, 30, 300, 250), (330, 30, 610, 250), (20, 300, 300, 520), (330, 300, 610, 520)]
    letters = [(0, 255, 16, 272), (312, 255, 328, 272), (0, 525, 16, 542), (312, 525, 328, 542)]
    page_text, frame_edge = (100, 0, 400, 12), (639, 30, 640, 540)
    boxes = partition_on_corner_feet(pics + [page_text, frame_edge], set(pics), letters)
    assert boxes == [(0, 30, 300, 272), (312, 30, 610, 272), (0, 300, 300, 542), (312, 300, 610, 542)]
    # the top-left convention does not read this figure: the last row's letters head nothing
    assert partition_on_anchors(pics, set(pics), letters) is None


def test_a_line_along_the_image_edge_does_not_hide_the_gaps_it_crosses():
    # a 2 x 2 grid whose crop caught a 1 px grey line down each side (a frame's sides, a rule of
    # the page): the line crosses the white gap between the rows
    img, boxes = synthetic_grid(2, 2, letters=False)
    draw = ImageDraw.Draw(img)
    draw.line([(0, 0), (0, img.height - 1)], fill=(90, 90, 90))
    draw.line([(img.width - 1, 0), (img.width - 1, img.height - 1)], fill=(90, 90, 90))
    assert sorted(map(list, find_panels(img).panels)) == sorted(boxes)
    # a picture that fills the crop to its edge keeps its edge pixels (no page inside them)
    from medfig.vision.figure_edges import strip_edge_lines

    photo = np.full((60, 80), 40, np.uint8)
    assert (strip_edge_lines(photo, 215) == photo).all()


def test_a_frame_with_page_outside_it_is_stripped_where_the_ink_begins():
    # a figure framed by a 1 px rule with 3-5 px of page outside it (a PDF region rounded outward:
    # Veterinary World at its file's resolution). The frame's bottom side touched the letter plates
    # at the panels' feet, and the plates were never read
    from medfig.vision.figure_edges import strip_figure_edges, strip_frame

    gray = np.full((300, 400), 255, np.uint8)
    gray[40:240, 40:360] = 120  # a picture
    gray[250:280, 8:30] = 30  # a letter plate in the frame's bottom-left corner...
    gray[258:272, 15:23] = 250  # ... with its light glyph
    gray[5, 6:395], gray[280, 6:395], gray[5:281, 6], gray[5:281, 394] = 40, 40, 40, 40
    stripped = strip_figure_edges(gray, 215)
    assert (stripped[5, 40:360] == 255).all() and (stripped[280, 40:360] == 255).all()
    assert (stripped[100, 6] == 255) and (stripped[100, 394] == 255)
    assert (stripped[40:240, 40:360] == 120).all() and (stripped[250:279, 8:30] == gray[250:279, 8:30]).all()
    assert (strip_frame(gray, 215) == gray).all()  # the frame is not at the image's edge: left as is


def test_a_white_rule_between_photos_with_one_speck_in_it_is_still_a_gap():
    from medfig.vision.gap_checks import between_pictures

    # a 150 px tall row of two textured photos with a 2 px white rule between them (columns
    # 40-41); a JPEG speck off a letter plate sits in the rule: more than 0.4% of a 150 px rule,
    # still the gap between two pictures
    rng = np.random.default_rng(5)
    gray = rng.integers(40, 200, (150, 82)).astype(np.uint8)
    gray[:, 40:42] = 255
    gray[140, 40:42] = 30
    ink = gray < 215
    assert between_pictures(ink, gray, 0, 2) == [(40, 42)]
    # two specks in one column: no longer a clean rule
    ink2 = ink.copy()
    ink2[10, 40] = True
    assert between_pictures(ink2, gray, 0, 2) == []
    # the same geometry in a bar chart: two flat bars standing on the axis line, which crosses
    # the white between them -- flat fills are no pictures, so no cut
    bars = np.full((150, 82), 90, np.uint8)
    bars[:, 40:42] = 255
    bars[149, :] = 0
    assert between_pictures(bars < 215, bars, 0, 2) == []
