"""Caption styles found on ROCO captions of journals medfig was never developed on (round 11).

Each caption is quoted from ../shared/data/roco_v1_text (its id beside it; the development half
of benchmarks/gold/subcaptions/roco_letters_gold.json, or the ROCO test split of roco_gold.json);
the expected words were written by reading the caption (MedICaT conventions: the words that
describe one panel and not all of them). Each test of a style failed before its change; the two
that check a rule's limit (a second mention after trailing letters, a last item of its own) fail
on a looser version of that rule.
"""

from __future__ import annotations

from subcaption_words import refined


def test_a_half_bracket_may_name_a_group_of_letters():
    # ROCO_84296
    caption = ("A) preoperative x-ray; B) immediate postoperative x-ray; C and D) 12-month follow-up "
               "bitewing and periapical radiographies")
    got = refined(caption)
    assert list(got) == ["a", "b", "c", "d"]
    assert got["b"] == ["immediate postoperative x-ray"]
    assert got["c"] == got["d"] == ["12-month follow-up bitewing and periapical radiographies"]


def test_a_half_bracket_run_may_open_inside_its_clause_when_b_follows():
    # ROCO_84398
    got = refined("Photograph of A) Gliderite\u00ae rigid stylet and B) Parker Flex-It stylet.")
    assert list(got) == ["a", "b"]
    assert got["a"] == ["Gliderite\u00ae rigid stylet"]
    assert got["b"][0].startswith("Parker Flex-It stylet")
    # without a b) after it, an "A)" inside a clause stays text
    assert refined("Photograph of A) Gliderite\u00ae rigid stylet.") == {}


def test_the_word_panel_before_a_letter_belongs_to_the_marker():
    # ROCO_87173 (abridged: its first two sentences)
    caption = ("Multilobulated aneurysm of the first branch of the right middle cerebral artery. Panel (A) shows a "
               "pretreatment DSA image of a multilobulated aneurysm. Panel (B) shows the 6 months posttreatment "
               "control DSA image.")
    got = refined(caption)
    assert list(got) == ["a", "b"]
    assert all("Panel" not in words for spans in got.values() for words in spans)
    assert got["a"][0].startswith("shows a pretreatment DSA image")


def test_a_letter_named_before_and_pointed_back_to_is_a_reference_not_a_marker():
    # ROCO_84289
    caption = ("Transmission electron microscopy (TEM) images of the Fe36.00Co36.00B19.00Si5Nb4 alloy in rod form "
               "with the diameter of 2.5 mm: (a) bright field; (b) HRTEM image of the position marked 1 in (a) at "
               "higher magnification; (c) electron diffraction, an amorphous phase; (d) HRTEM image of the position "
               "marked 2 in (a) at higher magnification; (e) electron diffraction with solution, precipitate of the "
               "Nb5Si3 phase.")
    got = refined(caption)
    assert got["a"] == ["bright field"]
    assert got["b"] == ["HRTEM image of the position marked 1 in (a) at higher magnification"]
    assert got["d"] == ["HRTEM image of the position marked 2 in (a) at higher magnification"]


def test_after_trailing_letters_a_second_mention_marks_its_panels_own_words():
    # harvested caption (jats_xml_only); the letters trail their words, so "in (a)" is a's again
    caption = ("Postfacetectomy (a) and postlaminectomy (b) axial Computed Tomograms at the level of T10-11. The "
               "arrowheads in (a) demonstrate bilateral ossifications of the ligamentum flavum occupying the "
               "posterior aspect of the spinal canal. The bracket in (b) indicates the area where decompression "
               "was achieved via laminectomy and resection of these lesions.")
    got = refined(caption)
    assert any("bilateral ossifications" in words for words in got["a"])


def test_a_full_stop_glued_to_the_first_letter_still_ends_the_title():
    # ROCO_53060
    got = refined("Radiographic measurements.(A) C2\u20137 Cobb angle. (B) T1 slope. (C) C2\u20137 SVA. "
                  "SVA indicates sagittal vertical axis.")
    assert got["a"] == ["C2\u20137 Cobb angle."]


def test_an_en_dash_between_two_words_joins_them():
    # ROCO_77713
    got = refined("Posterior\u2013anterior (A) and oblique (B) X-ray imaging of the left forefoot, showing the "
                  "integration of the bone graft after 6 weeks.")
    assert got["a"] == ["Posterior\u2013anterior"]
    assert got["b"] == ["oblique"]


def test_short_leading_items_share_what_the_last_one_runs_on_to_say():
    # ROCO_64162
    caption = ("CT images of the lesion. (A) On the plain CT scan, an oval homogeneous hypodense mass with a distinct "
               "border is located in the quadrate lobe of the liver. (B) Arterial, (C) portal venous and (D) delayed "
               "phase CT scan showing slight and continued enhancement in the peripheral of the mass. CT, computed "
               "tomography.")
    got = refined(caption)
    shared = "CT scan showing slight and continued enhancement in the peripheral of the mass"
    assert got["b"] == ["Arterial", shared]
    assert got["c"] == ["portal venous", shared]
    assert got["d"][0].startswith("delayed phase " + shared)
    assert not any(shared in words for words in got["a"])


def test_a_last_item_that_says_something_of_its_own_is_not_shared():
    got = refined("(A) Control, (B) treated with 10 \u00b5M drug for 24 h.")
    assert got["a"] == ["Control"]


def test_a_letter_after_a_comma_opens_its_item():
    # ROCO_37903 (ROCO test split)
    caption = ("A spleen scan before accessory splenectomy, (A) posterior view (B) left lateral view. It shows a "
               "focal uptake in the left upper quadrant, (the splenic bed), and this is suggestive of the presence "
               "of an accessory spleen.")
    got = refined(caption)
    assert got["a"] == ["posterior view"]
    assert got["b"][0].startswith("left lateral view")


def test_a_picture_and_its_verb_head_every_item_of_a_trailing_list():
    # ROCO_80701 (ROCO test split)
    caption = ("T2-weighted MRI showing a retroclival hematoma (A), stripping of the tectorial membrane (B), and "
               "prevertebral hemorrhage (C). MRI, magnetic resonance imaging.")
    got = refined(caption)
    assert got["a"] == ["a retroclival hematoma"]
    assert got["b"] == ["stripping of the tectorial membrane"]


def test_an_item_with_a_verb_of_its_own_keeps_its_picture():
    # harvested ROCO caption: two pictures, each with its own verb
    caption = ("Electrocardiogram showing sinus rhythm with no signs of ischemia (left panel) while chest radiograph "
               "(right panel) revealing prominent heart with no acute cardiopulmonary process.")
    got = refined(caption)
    assert got["left"] == ["Electrocardiogram showing sinus rhythm with no signs of ischemia"]


def test_an_item_that_names_its_own_picture_keeps_the_first_items_picture():
    caption = ("Imaging findings. Axial CT image showing a hypodense lesion in the right hepatic lobe (a), coronal "
               "T2-weighted MRI (b) and endoscopic view (c).")
    got = refined(caption)
    assert got["a"] == ["Axial CT image showing a hypodense lesion in the right hepatic lobe"]


def test_a_letter_with_its_magnification_is_a_marker():
    # ROCO_87036 (round 13, third draw): "(H × 100)" names panel h
    caption = ("Contrast MRI showed the mass had significant enhancement (A). Coronal images showed invasion into "
               "the paraspinal soft tissues (B). The small round tumor cells were CD99 positive (C \u00d7 100).")
    got = refined(caption)
    assert list(got) == ["a", "b", "c"]
    assert got["c"] == ["The small round tumor cells were CD99 positive"]


def test_a_description_may_end_on_a_number():
    # ROCO_87161 (round 13, third draw): "to 1 (A)" is a trailing marker, not "to (A) ..."
    caption = ("Examples in which the diagnoses changed from grade 0 to 1 (A) and grade 2 to 4 (B) after "
               "interpretation of 3-D MIP images.")
    got = refined(caption)
    assert got["b"] == ["grade 2 to 4"]
    assert got["a"][-1].endswith("grade 0 to 1")


def test_a_preposition_before_a_list_is_the_heads():
    # ROCO_45009 (round 13, third draw): "between" belongs to the shared head, not to item a
    got = refined("ROM of the segment can be calculated by the difference between extension (A) and flexion (B) angles.")
    assert got["a"] == ["extension"]
