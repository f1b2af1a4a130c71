"""Caption -> per-panel subcaptions (medfig.text.subcaptions), one case per caption style."""

from __future__ import annotations

import json
from pathlib import Path

from medfig.text.subcaptions import parse_subcaptions

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def subs(caption: str) -> dict[str, str]:
    return {s.label: s.text for s in parse_subcaptions(caption).subcaptions}


def test_bracketed_leading_markers_split_at_each_marker():
    got = subs("Figure 4. Endoscopic images. (A) Stricture with a small ulcer. (B) Stents seen on radiograph.")
    assert got == {"a": "Stricture with a small ulcer.", "b": "Stents seen on radiograph."}


def test_title_before_the_first_marker_is_shared_not_a_subcaption():
    got = subs("Figure 2: Survival comparison. (a) Total patients. (b) Early stage.")
    assert "Survival" not in got["a"] and got["a"] == "Total patients."


def test_trailing_markers_take_the_text_before_them():
    got = subs("Fig. 1. Brain CT (A) and MR diffusion images (B, C) showing no intracranial lesion.")
    assert got == {"a": "Brain CT", "b": "MR diffusion images", "c": "MR diffusion images"}


def test_marker_after_a_function_word_leads():
    got = subs("Figure 2. Resolution, as evidenced by (A) colonoscopy and (B) plain abdominal radiograph.")
    assert got == {"a": "colonoscopy", "b": "plain abdominal radiograph."}


def test_comma_and_colon_letter_style():
    got = subs("Figure 3. A, Axial CT at follow-up; B, Doppler ultrasound; C: chest radiograph.")
    assert got == {"a": "Axial CT at follow-up", "b": "Doppler ultrasound", "c": "chest radiograph."}


def test_range_shares_text_between_panels():
    got = subs("(A–C) Serial CT scans of the chest. (D) MRI of the spine.")
    assert got["a"] == got["b"] == got["c"] == "Serial CT scans of the chest."
    assert got["d"] == "MRI of the spine."


def test_grouped_markers_and_and_lists():
    assert set(subs("(a) and (b) Note the prominent forehead.")) == {"a", "b"}
    assert subs("(a and b) Cross sections show recurrence.")["b"] == "Cross sections show recurrence."
    got = subs("Coronary angiography showing dual LAD ((a), (b)) and lone Cx ((c), (d)).")
    assert got["a"] == got["b"] == "Coronary angiography showing dual LAD"
    assert got["c"] == got["d"] == "lone Cx"



def test_a_semicolon_ends_a_group_of_markers():
    # the letters before ";" trail their clause, those after it lead the next one: two groups
    got = subs("Gels of the first (a, blue) and last sample (b, orange); (c) and (d) controls.")
    assert got == {"a": "Gels of the first", "b": "last sample", "c": "controls.", "d": "controls."}
    got = subs("Western blots (a) and (b); (c) and (d) loading controls.")
    assert got["a"] == got["b"] == "Western blots"
    assert got["c"] == got["d"] == "loading controls."

def test_a_preposition_opening_the_clause_on_a_marker_leaves_the_words_after_it_to_the_marker():
    got = subs("In (a), the mass is visible; in (b), it has regressed after therapy.")
    assert got == {"a": "the mass is visible", "b": "it has regressed after therapy."}
    got = subs("In panel (A), CT before treatment. In panel (B), CT after treatment.")
    assert got == {"a": "CT before treatment.", "b": "CT after treatment."}


def test_nature_style_bold_letters_with_inner_references():
    got = subs("Formation. a, b Schematic of the process (a) and summary (b). c–e SEM images of BM (c), PM (d).")
    assert set(got) == {"a", "b", "c", "d", "e"}
    # the bracketed letters inside a multi-panel text end each panel's own words
    assert got["a"] == "Schematic of the process" and got["b"] == "summary"
    assert got["c"] == "SEM images of BM" and got["d"] == "PM"
    assert got["e"] == "SEM images of BM (c), PM (d)."  # no reference of its own: the whole text
    got = subs("Title. a, b Simulated image (a), indicating density, and ABF image (b) showing atoms.")
    assert got["a"] == "Simulated image indicating density showing atoms."
    assert got["b"] == "ABF image showing atoms."


def test_article_a_is_not_a_panel_marker():
    assert subs("A patient with a mass. A CT scan shows a lesion.") == {}


def test_capital_structure_letters_inside_a_lowercase_panel_are_not_panels():
    got = subs("(a) The retina. A: optic nerve disc. B: points. (b) The choroid. A: ILM.")
    assert set(got) == {"a", "b"}


def test_scale_information_is_left_out():
    got = subs("(a) SEM image of the plate, scale bar 5 µm. (b) TEM image.")
    assert "scale" not in got["a"].lower() and got["a"].startswith("SEM image of the plate")


def test_positions_rows_and_columns():
    assert subs("Chest X-ray (left) and CT (right) of the patient.") == {"left": "Chest X-ray", "right": "CT"}
    assert subs("Figure 1. Top row: CT images; bottom row: MRI images.") == {"row-top": "CT images", "row-bottom": "MRI images."}
    assert set(subs("Brain MRI (first column) and CT (second column).")) == {"column-1", "column-2"}
    assert set(subs("Upper left, axial CT; upper right, coronal CT.")) == {"upper-left", "upper-right"}


def test_spans_are_offsets_into_the_caption():
    caption = "Figure 1. (A) Barium enema and (B) endoscopic image."
    subcaptions = parse_subcaptions(caption).subcaptions
    assert [(s.label, s.text) for s in subcaptions] == [("a", "Barium enema"), ("b", "endoscopic image.")]
    start_a, start_b = caption.index("Barium"), caption.index("endoscopic")
    assert [list(map(tuple, s.spans)) for s in subcaptions] == [[(start_a, start_a + len("Barium enema"))],
                                                                [(start_b, len(caption))]]
    for s in subcaptions:
        assert " ".join(caption[a:b] for a, b in s.spans) == s.text


def test_real_medicat_captions():
    records = [json.loads(line) for line in (DATA / "medicat_sample" / "sample.jsonl").read_text().splitlines() if line.strip()]
    parsed = {r["fig_uri"].removesuffix(".png") + r["pdf_hash"][:6]: subs(r["s2_caption"]) for r in records}
    assert parsed["2-Figure2-15f2d2f"] == {"a": "Mid sagittal", "c": "Mid sagittal", "b": "axial MRI", "d": "axial MRI"}
    assert parsed["2-Figure1-157c9ad"]["a"] == "Barium enema"
    # single-panel captions have no subcaptions ("(arrow)" and "(CT)" are not markers)
    assert parsed["3-Figure2-1b362a1"] == {} and parsed["2-Figure1-1e19039"] == {}


def test_nature_marker_after_a_sentence_ending_on_a_panel_letter():
    caption = (
        "Catalysis. a LSV curves of the catalysts. b, c Electron numbers (b) and Tafel plots (c). "
        "Id is the limiting current density at 0.30 V in a. d Chronoamperometric response of SMNp."
    )
    parsed = parse_subcaptions(caption)
    assert parsed.labels == ["a", "b", "c", "d"]
    assert parsed.get("d").text.startswith("Chronoamperometric response of SMNp")


def test_statistics_sentences_are_not_subcaption_text():
    caption = (
        "Choline import. A. Expression of the transporter in knockout cells. N = 3 per group. "
        "Statistic: unpaired t-test. Bars represent mean and error shown as s.e.m. "
        "B. Cellular respiration of knockout cells. Values relative to KO. *P < 0.05. C. Top 50 genes."
    )
    got = subs(caption)
    # "s.e.m. B." ends a sentence: B is still a leading marker
    assert list(got) == ["a", "b", "c"]
    assert got["a"] == "Expression of the transporter in knockout cells."
    assert got["b"] == "Cellular respiration of knockout cells. Values relative to KO."
    # a span made only of statistics is kept (nothing else describes the panel)
    assert subs("(a) Mean ± SD of three runs. (b) Raw traces.")["a"].startswith("Mean ± SD")
