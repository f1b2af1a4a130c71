"""Caption styles of issue 16 that the first parser did not cover, one real caption per test.

Each caption is quoted from ../shared/data (the file is named beside it; development
publishers of pmc_dev_corpus, pmc_hindawi_xml_pdf, elife_xml_pdf_pairs, roco_v1_text); the
expected subcaptions were written by reading the caption (MedICaT conventions: the words that
describe one panel and not all of them; a panel's text may be several spans).
"""

from __future__ import annotations

from medfig.compound.subcaption_fill import enumerated_parts, subcaptions_for
from medfig.text.subcaptions import parse_subcaptions

ROW2 = [[0, 0, 100, 100], [110, 0, 210, 100]]
ROW3 = ROW2 + [[220, 0, 320, 100]]


def subs(caption: str) -> dict[str, str]:
    return {s.label: s.text for s in parse_subcaptions(caption).subcaptions}


def filled(caption: str, boxes: list[list[int]], labels: list[str | None]) -> list[str | None]:
    """Per-panel text as analyze_compound gives it once the aligner has named the panels."""
    _, per_panel = subcaptions_for(boxes, labels, parse_subcaptions(caption))
    return [s.text if s else None for s in per_panel]


# ------------------------------------------------------------ numbered sub-panels


def test_numbered_sub_panels_in_a_list_name_their_letter_and_capitals_abbreviate_words():
    # roco_v1_text/data/train/non-radiology/captions.txt, ROCO_84629
    caption = ("Selected regions of interest: (a) Forehead (F); (b1,b2) Cheeks (C); (c) Neck (N). Some details "
               "are blurred to preserve the subject\u2019s privacy. The ROIs are selected considering the percentage "
               "of the detected face area shown in the figure.")
    got = subs(caption)
    # "(F)", "(C)", "(N)" abbreviate the region names: no panels F and N, and "(C); (c)" is not one marker
    assert list(got) == ["a", "b", "c"]
    assert got["a"] == "Forehead (F)" and got["b"] == "Cheeks (C)" and got["c"] == "Neck (N)."


def test_a_letter_and_a_roman_sub_number_are_one_sub_panel_not_a_range():
    # the "(A-i)" form: no caption in ../shared/data writes it; this is the Dove caption of the
    # next test (pmc_dev_corpus/dove_PMC4708241, f5) with its sub-panels written "A-i", "A–ii"
    caption = ("Impact of quercetol on the MMP of HepG2 cells. Notes: Panel (A-i) shows green fluorescence "
               "(JC-1 monomer) only, panel (A\u2013ii) shows red fluorescence (JC-1 aggregate) only, and the panel "
               "(A-iii) shows merged (green\u2013red fluorescence). (B) % MMP ratio.")
    parsed = parse_subcaptions(caption)
    assert parsed.labels == ["a", "b"]  # not a, b, ..., i
    assert parsed.get("a").text == ("shows green fluorescence (JC-1 monomer) only shows red fluorescence "
                                    "(JC-1 aggregate) only shows merged (green\u2013red fluorescence).")
    assert parsed.get("b").text == "% MMP ratio."
    assert parsed.letter_case == "upper"


def test_panel_word_before_a_sub_panel_is_not_the_previous_panel_text():
    # pmc_dev_corpus/dove_PMC4708241/fulltext.xml, f5
    caption = ("Impact of quercetol on the MMP of HepG2 cells. Notes: Panel (Ai) shows green fluorescence (JC-1 "
               "monomer) only, panel (Aii) shows red fluorescence (JC-1 aggregate) only, and the panel (Aiii) shows "
               "merged (green\u2013red fluorescence). (B) % MMP ratio. Data are expressed as the mean \u00b1 SE of "
               "three experiments.")
    parsed = parse_subcaptions(caption)
    aii = next(m for m in parsed.markers if "Aii)" in caption[m.start : m.end])
    # "panel (Aii)" opens the words of sub-panel Aii; "only, and the" is nobody's text
    assert caption[aii.start : aii.end] == "panel (Aii)"
    assert "panel" not in parsed.get("a").text and "and the" not in parsed.get("a").text


def test_ranges_of_sub_panels_and_of_letters():
    assert parse_subcaptions("(a1\u2013a3) Cortex at postnatal days 7, 14 and 28; (b) hippocampus.").labels == ["a", "b"]
    assert parse_subcaptions("(b1\u2013b3) Cortex. (a) Hippocampus.").labels == ["b", "a"]
    # a range between two letters of one case is still a range of panels
    assert parse_subcaptions("(a\u2013i) Serial sections of the liver.").labels == list("abcdefghi")
    assert parse_subcaptions("(A\u2013I) Serial sections of the liver.").labels == list("abcdefghi")
    # an en dash reads the same: "(A–i)" is sub-panel i of A
    assert parse_subcaptions("(A–i) Axial T1. (A–ii) Axial T2. (B) CT.").labels == ["a", "b"]
    # "a–i" is sub-panel i of a when the caption also numbers "a–ii"
    assert parse_subcaptions("(a\u2013i) Axial and (a\u2013ii) coronal MRI; (b) CT.").labels == ["a", "b"]


def test_roman_numerals_and_vertebra_levels_are_no_panel_letters():
    caption = "(A) Sagittal T2 MRI showing disc herniation (C5\u2013C6). (B) Axial CT (iv) of the same level."
    assert parse_subcaptions(caption).labels == ["a", "b"]


# ------------------------------------------------------------ leading letters, subsets of panels


def test_a_group_of_letters_then_each_letter_of_it_again():
    # pmc_dev_corpus/springer_PMC7553375/fulltext.xml, Fig1 (the first three groups)
    caption = ("Appearance of COVID-19 on CT. a, b A 35-year-old male presented 13 days after the symptom onset "
               "with unproductive cough, fatigue, and anosmia. Mild CT signs: GGOs in only one lobe. c, d A "
               "60-year-old male having symptoms for 7 days: muscle pain, weakness, fever, and effort dyspnea. "
               "e, f A 73-year-old woman experiencing weakness, muscle pain, inappetence, and mild effort "
               "dyspnea. e Bilateral GGOs, thickened vessels, and traction bronchiectasis on the right. f 4 days "
               "later, the abnormalities are more extensive and crazy paving appeared within the GGO.")
    got = subs(caption)
    woman = "A 73-year-old woman experiencing weakness, muscle pain, inappetence, and mild effort dyspnea."
    assert got["e"] == woman + " Bilateral GGOs, thickened vessels, and traction bronchiectasis on the right."
    assert got["f"] == woman + " 4 days later, the abnormalities are more extensive and crazy paving appeared within the GGO."
    assert got["a"] == got["b"] and got["a"].startswith("A 35-year-old male")
    assert got["c"] == got["d"] and got["c"].startswith("A 60-year-old male")


def test_a_capital_article_after_a_group_is_no_letter():
    got = subs("A, B: CT scans of the chest. A large mass is seen in the left lobe. C: MRI of the spine.")
    assert list(got) == ["a", "b", "c"]
    assert got["a"] == got["b"] == "CT scans of the chest. A large mass is seen in the left lobe."


def test_groups_out_of_order_and_references_that_open_each_panel_text():
    # pmc_dev_corpus/elsevier_PMC7326430/fulltext.xml, fig1 (its "B, C, D and E" means B, C, E and F)
    caption = ("The effects of varying levels of containment effectiveness upon the expected subsequent "
               "trajectories of a SARS-CoV-2 epidemic. A and D: Controlled reproductive numbers (Rc) expressed as a "
               "function of either (A) overall reduction of transmission rate (1-Rc/R0) or (D) the mean effective "
               "protective coverage of individuals with interventions to prevent exposure behaviours (Cp). B, C, D "
               "and E: Controlled reproduction numbers (Rc) and incidence rate trajectories expressed as functions "
               "of either (B and C) overall reduction of transmission rate (1-Rc/R0) or (E and F) effective "
               "protective coverage of individuals with interventions to prevent exposure behaviours (Cp).")
    got = subs(caption)
    head_ad = "Controlled reproductive numbers (Rc) expressed as a function of either"
    head_bc = "Controlled reproduction numbers (Rc) and incidence rate trajectories expressed as functions of either"
    assert got["a"] == head_ad + " overall reduction of transmission rate (1-Rc/R0)"
    assert got["d"].startswith(head_ad + " the mean effective protective coverage")
    assert got["b"] == got["c"] == head_bc + " overall reduction of transmission rate (1-Rc/R0)"
    assert got["e"].startswith(head_bc + " effective protective coverage") and "overall reduction" not in got["e"]


# ------------------------------------------------------------ positions and lists of trailing markers


def test_position_words_after_a_comma_with_a_colon():
    # roco_v1_text/data/validation/non-radiology/captions.txt, ROCO_83355
    assert subs("Left image: Original mammogram, Right: Expanded image segment") == {
        "left": "Original mammogram", "right": "Expanded image segment"}


def test_a_list_of_trailing_positions_leaves_its_shared_head_out():
    # roco_v1_text/data/train/non-radiology/captions.txt, ROCO_85117: the items are parallel
    caption = "The robotic deflectable sheath (V-CAS Deflect) fully undeflected (left panel) and fully deflected (right panel)."
    assert filled(caption, ROW2, ["left", "right"]) == ["fully undeflected", "fully deflected"]
    # elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.xml, fig5s1 (the last item's tail is the tagger's)
    caption = ("Binding of sDectin-1 to various mouse cancer cell lines. The sDectin-1 binding to YAC-1 (left panel), "
               "Meth-A (middle panel), or B16F10 (right panel) cells were examined as described in Figure 3A.")
    assert filled(caption, ROW3, ["left", "middle", "right"])[:2] == ["YAC-1", "Meth-A"]
    # roco_v1_text/data/validation/radiology/captions.txt, ROCO_77279
    caption = "Frontal (left panel) and transverse (right panel) views of the CT scan performed postoperatively."
    assert filled(caption, ROW2, ["left", "right"]) == ["Frontal", "transverse"]


def test_a_list_of_trailing_letters_starts_where_its_items_do():
    # pmc_dev_corpus/bmj_PMC7412619/fulltext.xml, F2 and F3
    caption = ("Effects of PrEP on the overall number of people living with HIV (A) and the overall HIV incidence (B) "
               "over time. The effects of introducing PreP in 2019 (dotted lines) on the HIV prevalence and incidence "
               "for Rwanda as a nation are shown here.")
    assert filled(caption, ROW2, ["a", "b"]) == ["the overall number of people living with HIV", "the overall HIV incidence"]
    caption = ("Effects of PrEP on the prevalence (A) and incidence of HIV (B) for female sex workers and sex clients "
               "over time. The solid line illustrates the estimated prevalence and incidence for these population "
               "without introduction of PrEP.")
    assert filled(caption, ROW2, ["a", "b"]) == ["the prevalence", "incidence of HIV"]


def test_a_second_clause_is_no_list_item():
    # roco_v1_text/data/train/non-radiology/captions.txt, ROCO_83430: "while" opens a clause
    caption = ("Electrocardiogram showing sinus rhythm with no signs of ischemia (left panel) while chest radiograph "
               "(right panel) revealing prominent heart with no acute cardiopulmonary process.")
    got = filled(caption, ROW2, ["left", "right"])
    assert got[0] == "Electrocardiogram showing sinus rhythm with no signs of ischemia"
    assert got[1].startswith("chest radiograph")


def test_a_list_whose_first_item_lost_its_head_already_is_kept_whole():
    # pmc_hindawi_xml_pdf/PMC4706923/fulltext.xml, fig4 (the span starts after "MRI,")
    caption = ("MRI, VIBE sequences after the i.v. contrast medium administration (a) and HASTE sequences (b): large "
               "mass with endophytic growth with intense and heterogeneous enhancement.")
    assert filled(caption, ROW2, ["a", "b"])[0] == "VIBE sequences after the i.v. contrast medium administration"


# ------------------------------------------------------------ letters inside the description


def test_half_bracket_letters_continue_their_run_inside_a_clause():
    # pmc_dev_corpus/elsevier_PMC5991880/fulltext.xml, fig3
    caption = ("Iridoid synthase from C. roseus in alternate biochemical mechanism of iridoid biosynthesis. a) The "
               "synthase uses monoterpene 10 oxogeranial as substrate and NAD(P)H reduction step for cyclization, "
               "whereas b) monoterpene cyclases uses geranyl diphosphate as substrate in the usual process of cyclization.")
    assert subs(caption) == {
        "a": "The synthase uses monoterpene 10 oxogeranial as substrate and NAD(P)H reduction step for cyclization",
        "b": "monoterpene cyclases uses geranyl diphosphate as substrate in the usual process of cyclization.",
    }
    # a lone "b)" inside a clause with no run before it is no marker
    assert subs("The grades were scored as in b) of the protocol.") == {}


def test_trailing_letters_with_a_colon_take_the_words_after_them():
    # pmc_hindawi_xml_pdf/PMC4706923/fulltext.xml, fig1: "Definitive histology" is every panel's
    caption = ("MRI, TrueFISP coronal sequence (a): a circumferential thickening protruding in the intestinal lumen with "
               "tendency to invagination is detected, in absence of local infiltration. In the VIBE sequences after the "
               "i.v. contrast medium administration (b), there is an inhomogeneous contrast enhancement. Definitive "
               "histology: adenocarcinoma.")
    got = subs(caption)
    assert got["a"].endswith("a circumferential thickening protruding in the intestinal lumen with tendency to "
                             "invagination is detected, in absence of local infiltration.")
    assert got["b"] == ("In the VIBE sequences after the i.v. contrast medium administration there is an "
                        "inhomogeneous contrast enhancement.")


def test_a_sentence_that_explains_a_significance_symbol_is_no_panel_text():
    # pmc_dev_corpus/dove_PMC5965372/fulltext.xml, f4
    caption = ("Effect of Vicenin-2 on the expression of p-GSK-3\u03b2. Notes: (A) Western blot expressions of p-GSK-3\u03b2 "
               "and T-GSK-3\u03b2. (B) The densitometric quantification of p-GSK-3\u03b2 and T-GSK-3\u03b2 by ImageJ software "
               "(NIH). \u201c*\u201d denotes the statistical difference at P<0.05. (C) To confirm the inhibition of "
               "non-p-\u03b2-catenin by Vicenin-2 was mediated through GSK-3\u03b2, the cells were incubated with Vicenin-2 "
               "and LiCl (GSK-3\u03b2 inhibitor).")
    got = subs(caption)
    assert got["b"] == "The densitometric quantification of p-GSK-3\u03b2 and T-GSK-3\u03b2 by ImageJ software (NIH)."
    assert got["c"].startswith("To confirm the inhibition")


# ------------------------------------------------------------ no letters: items in reading order


def test_abbreviations_and_credits_are_no_list_of_panels():
    # pmc_dev_corpus/dove_PMC5965372/fulltext.xml, f2: four "items", none a panel
    caption = ("Vicenin-2 reduces TCF/LEF reporter assay. Notes: Vicenin-2 administration reduces the TCF/LEF reporter "
               "activity. The details of the experiment are included in the \u201cMaterials and methods\u201d section. "
               "\u201c**\u201d denotes the statistical difference at P<0.05. Abbreviations: LEF, leukocyte erythroid "
               "factor; TCF, T-cell factor.")
    assert enumerated_parts(caption, 4) is None and enumerated_parts(caption, 2) is None
    # pmc_dev_corpus/plos_PMC12091794/fulltext.xml, pone.0322878.g003 (its last sentence)
    caption = ("Animal silhouettes were taken from http://www.philopic.org, freely available for reuse under Creative "
               "Commons licenses and biohazard sign from http://www.openclipart.org with public domain.")
    assert enumerated_parts(caption, 3) is None


def test_without_letters_panels_take_the_listed_items_in_reading_order():
    # the issue's own example, then a grid read row by row: top row first, left to right
    caption = "Typical habitats of the species: wetlands, dry grassland, oak woods and farmland."
    grid = [[110, 110, 210, 210], [0, 0, 100, 100], [0, 110, 100, 210], [110, 0, 210, 100]]
    assert filled(caption, grid, [None] * 4) == ["farmland", "wetlands", "oak woods", "dry grassland"]


def test_the_words_after_a_trailing_marker_and_its_colon_stay_its_text():
    got = subs("Chest CT of two patients. Patient 1 (a, b): consolidation in the right lower lobe. "
               "Patient 2 (c, d): ground-glass opacities.")
    assert got["c"] == got["d"] == "Patient 2 ground-glass opacities."
    assert got["a"] == got["b"] == "Patient 1 consolidation in the right lower lobe."


def test_position_words_after_a_full_stop_without_a_space():
    # roco_v1_text/data/train/non-radiology/captions.txt, ROCO_86211: title and first position word run together
    caption = ("Left and right hippocampus segmentations in coronal view.Left: manual segmentation. Middle: FSL-FIRST "
               "segmentation. Right: FreeSurfer segmentation.")
    assert subs(caption) == {"left": "manual segmentation.", "middle": "FSL-FIRST segmentation.",
                             "right": "FreeSurfer segmentation."}


# ------------------------------------------------------------ text shared by a subset of panels


def test_words_running_on_after_a_list_belong_to_each_item_of_a_subset():
    # pmc_hindawi_xml_pdf/PMC4736807/fulltext.xml, fig2: "maximum intensity projection ..." is the
    # head noun of both (a) and (b), not of (c) and (d)
    caption = ("Paraxial (a) and parasagittal (b) maximum intensity projection reconstruction from cardiac CT scan, "
               "demonstrating the anomalous site of the coronary ostia as well as the malposition of the great "
               "arteries, confirmed by 3D volume-rendered reconstruction ((c), (d)).")
    grid = [[0, 0, 100, 100], [110, 0, 210, 100], [0, 110, 100, 210], [110, 110, 210, 210]]
    got = filled(caption, grid, ["a", "b", "c", "d"])
    shared = ("maximum intensity projection reconstruction from cardiac CT scan, demonstrating the anomalous site of "
              "the coronary ostia as well as the malposition of the great arteries")
    assert got[0] == "Paraxial " + shared and got[1] == "parasagittal " + shared
    assert got[2] == got[3] == "confirmed by 3D volume-rendered reconstruction"


def test_words_after_a_list_of_every_panel_stay_shared():
    assert filled("Sagittal CT (A) and coronal MRI (B) of the lumbar spine.", ROW2, ["a", "b"]) == ["Sagittal CT", "coronal MRI"]


def test_a_lone_position_after_a_comma_and_a_run_letter_in_the_other_case_are_read_as_written():
    # roco_v1_text/data/validation/radiology/captions.txt, ROCO_22539: "(right: 2, left: 2)" is a score
    caption = ("Medial temporal atrophy (MTA) scoring illustrated on T1-weighted MRI. The degree of MTA was rated on a "
               "5-point scale from absent (0) to severe (4). The MTA score of this patient is 2 (right: 2, left: 2).")
    assert subs(caption) == {}
    # roco_v1_text/data/train/non-radiology/captions.txt, ROCO_85152: a lower-case "(f)" that
    # continues the capitals' run is panel f, not an abbreviation
    caption = ("A 10 mm trocar for the camera is placed 20mm above the umbilicus (A). Three 8 mm robotic trocars are "
               "placed pararectal on the right and on the left side (B, C), another 8 mm trocar is placed 80mm "
               "laterally on the left side (D). Two assistant trocars are placed: one 5 mm trocar between the camera "
               "and right working trocar (E) and one 12 mm trocar medial and cranial to the right anterior superior crest (f).")
    assert parse_subcaptions(caption).labels == ["a", "b", "c", "d", "e", "f"]


# ------------------------------------------------------------ where the last panel's text ends


def test_the_last_panel_keeps_its_further_sentences_when_the_other_panels_have_several():
    # pmc_dev_corpus/springer_PMC7553375/fulltext.xml, Fig1 (its e, f group shortened): panels a to
    # d are described in two sentences, so the sentence after "g, h"'s first one is still g's and h's
    caption = ("Appearance of COVID-19 on CT. a, b A 35-year-old male presented 13 days after the symptom onset with "
               "unproductive cough, fatigue, and anosmia. Mild CT signs: GGOs in only one lobe. c, d A 60-year-old "
               "male having symptoms for 7 days: muscle pain, weakness, fever, and effort dyspnea. Bilateral, "
               "multilobar GGOs and halo sign (small consolidation surrounded by GGO) on the lower section. e, f A "
               "73-year-old woman experiencing weakness, muscle pain, inappetence, and mild effort dyspnea. g, h An 82-year-old man having symptoms for a week: dry cough, fever, "
               "weakness, inappetence, and low oxygen saturation at presentation. Several features are visible on the "
               "CT scans: GGOs, consolidation, organizing pneumonia with reverse halo sign")
    got = subs(caption)
    assert got["g"] == got["h"] == (
        "An 82-year-old man having symptoms for a week: dry cough, fever, weakness, inappetence, and low oxygen "
        "saturation at presentation. Several features are visible on the CT scans: GGOs, consolidation, organizing "
        "pneumonia with reverse halo sign")
    # pmc_dev_corpus/elsevier_PMC3958920/fulltext.xml, f0015: an aside in brackets is everybody's
    caption = ("Enzymatic properties of Pyr2C reductase. (A) Effect of pH on the activity. Left panel, PaLhpD; "
               "middle panel, AbLhpI; right panel, CpLhpI. 50 mM acetate-NaOH (pH 4.0–6.0) (square), 50 mM potassium"
               " phosphate (pH 6.0–8.5) (circle), 50 mM Tris–HCl (pH 7.0–9.0) (triangle) for the reduction of Pyr2C "
               "(left axis), and 50 mM glycine–NaOH (diamond) for the oxidization of l-proline (right axis), instead"
               " of 50 mM Tris-HCl (pH 8.0) under standard assay conditions. (B) Substrate specificity of "
               "NADP+-dependent oxidization reaction. PaLhpD, red bar; AbLhpI, blue bar; CpLhpI, yellow bar. The "
               "assay was performed with standard assay solution containing the indicated substrate (10 mM). "
               "Relative values were expressed as percents of the values obtained in l-proline (means ± SD, n = 3). "
               "(C) Zymogram staining. Five micrograms of each of purified protein (left panel, AbLhpI; middle "
               "panel, CpLhpI; right panel, PaLhpD) was applied on 10% (w/v) gel. After electrophoresis, the gel was"
               " soaked in staining solution in the presence of substrates and coenzymes as follows (each of 10 mM):"
               " lane 1, l-proline and NADP+; lane 2, l-proline and NAD+; lane 3, l-pipecolate and NADP+. (D) "
               "Catalytic efficiency (kcat/Km) of NADPH-dependent reduction (left panel) and NADP+-dependent "
               "oxidization reactions (right panel). Asterisks indicate no (or trace) activity. (For interpretation "
               "of the references to color in this figure legend, the reader is referred to the web version of this "
               "article.)")
    assert subs(caption)["d"] == ("Catalytic efficiency (kcat/Km) of NADPH-dependent reduction (left panel) and "
                                  "NADP+-dependent oxidization reactions (right panel). Asterisks indicate no (or trace) activity.")


def test_the_last_panel_ends_with_its_sentence_when_every_panel_has_one():
    # pmc_dev_corpus/plos_PMC7535057/fulltext.xml, pntd.0008658.g002: the sentences after (d) are the figure's
    caption = ("Association between detection of yellow fever virus (YFV) in the liver of non-human primate (NHP) "
               "carcasses with (a) NHP genera, (b) period of sampling (c) environment, and (d) environment plus NHP "
               "genera. YFV ND: yellow fever virus RNA was not detected. YFV pos: yellow fever virus RNA was detected. "
               "Pearson residuals (standardized) were extracted from the chi-square function and plotted.")
    assert subs(caption)["d"] == "environment plus NHP genera."


# ------------------------------------------------------------ half brackets with ranges and a heading run
# The style of a held-out publisher (microPublication Biology), written out here in shorter words:
# "A) ... B-F) <text for B to F> B) ... C) ..." and "A-H A) ..., B) ...". No development caption
# uses it; the grammar already reads "(B-F)" and "b)", and these are the same markers.


def test_a_half_bracket_range_shares_its_text_with_each_panel_it_names():
    caption = ("A) Basic map of plasmids. B-F) Proof of concept using transient expression in leaves. "
               "B) Empty YFP and C) empty RFP localized in the cytosol. D) No fluorescence signal was detected. "
               "E) The luciferase assay. F) The GUS assay.")
    got = subs(caption)
    assert got["a"] == "Basic map of plasmids."
    shared = "Proof of concept using transient expression in leaves."
    assert got["b"] == f"{shared} Empty YFP"
    assert got["d"] == f"{shared} No fluorescence signal was detected."
    assert got["f"] == f"{shared} The GUS assay."


def test_a_bare_letter_run_heading_the_list_does_not_hide_its_markers():
    caption = ("A-H A) Schematic of the assay, B) Wild type worms, C) Mutant worms, D) Double mutants, "
               "E) Control, F) Treated, G) Food patch, H) No food.")
    got = subs(caption)
    assert list(got) == list("abcdefgh")
    assert (got["a"], got["b"], got["h"]) == ("Schematic of the assay", "Wild type worms", "No food.")


def test_a_bracket_closing_one_opened_before_it_is_no_half_bracket():
    # roco_v1_text: arrows labelled a-b and c inside one panel's text, no panels named
    caption = ("Early stage of progressive vertebral fusion in which C4-C6, showed progressive anterior disc "
               "narrowing and end plate irregularities (arrows; a-b), whereas (arrow c) showed the development "
               "of a thick anterior and posterior bony ridge.")
    assert subs(caption) == {}


def test_letters_after_the_word_panel_without_brackets_open_their_text():
    # Veterinary World: "Panel A and B <text>. Panel C and D <text>."
    caption = ("Amplification plot and melt curve for chicken toll-like receptors (TLR 2), TLR 4 and TLR 7. "
               "Panel A and B Amplification plot and melt curve for chicken TLRs 2. Panel C and D Amplification "
               "plot and melt curve for chicken TLRs 4. Panel E and F Amplification plot and melt curve for chicken TLRs 7.")
    parsed = parse_subcaptions(caption)
    assert parsed.labels == ["a", "b", "c", "d", "e", "f"]
    assert parsed.get("b").text == "Amplification plot and melt curve for chicken TLRs 2."
    assert parsed.get("c").text == parsed.get("d").text == "Amplification plot and melt curve for chicken TLRs 4."
    # in brackets: the bracket is part of the marker, not of the text
    parsed = parse_subcaptions("Cardiac catheterization. (Panel A) Left ventriculogram in diastole. (Panel B) Systole.")
    assert parsed.get("a").text == "Left ventriculogram in diastole."
    # "as in panel A of Figure 2" opens no clause: no marker
    assert parse_subcaptions("Data as in panel A of Figure 2.").labels == []


def test_markers_that_open_the_items_of_a_list_inside_a_sentence_lead_their_text():
    # "(a) X and (b) Y": each marker opens its item, the words before the first one are the title
    parsed = parse_subcaptions("Rhizosphere bacterial OTU (a) richness and (b) Shannon diversity by treatment. "
                               "Means and SE are displayed.")
    assert parsed.get("a").text == "richness"
    assert parsed.get("b").text.startswith("Shannon diversity")
    parsed = parse_subcaptions("Example of inaccurate segmentation (a) pupil and (b) iris boundary.")
    assert (parsed.get("a").text, parsed.get("b").text) == ("pupil", "iris boundary.")
    # "X (a) and Y (b)": the markers close their items, as before
    parsed = parse_subcaptions("Chest CT (a) and abdominal MRI (b) of the patient.")
    assert parsed.get("a").text.endswith("Chest CT") and "abdominal MRI" in parsed.get("b").text


def test_a_range_marker_whose_text_opens_with_the_article_a_keeps_its_range():
    # PubLayNet page PMC5447509 (figure_bbox_ground_truth/publaynet_examples), shortened: the
    # article "a" right after "A–B:" is no panel a coming back to its own text; it used to
    # be read so, leaving b without words and a's text without its first word
    caption = ("EEG and optical imaging acquisition data. A–B: a patch comprising four pairs of optical "
               "fibers has been positioned in the middle of the forehead. C: 9 electrodes were disposed "
               "according to the 10–20 system.")
    got = subs(caption)
    assert list(got) == ["a", "b", "c"]
    assert got["a"] == got["b"] == ("a patch comprising four pairs of optical fibers has been positioned "
                                    "in the middle of the forehead.")
    assert got["c"] == "9 electrodes were disposed according to the 10–20 system."


# ------------------------------------------------------------ words every panel shares
# Captions of the ROCO test split (roco_v1_text/data/test, ids named) read for issue 16's caption
# benchmark (benchmarks/subcaptions_unseen.py) and of pmc_hindawi_xml_pdf; expected text by reading.


def test_a_clause_with_its_own_head_after_the_first_item_leaves_the_head_to_it():
    # Hindawi PMC4745298 fig2 (pmc_hindawi_xml_pdf): "Skull X-ray revealed" is the third
    # panel's own head, so "Lateral spine radiographs showing" belongs to a and b, not to all
    got = subs("Lateral spine radiographs showing severe osteopenia, platyspondyly (a, b), "
               "Skull X-ray revealed wormian bone ↘ (c).")
    assert got["a"] == got["b"] == "Lateral spine radiographs showing severe osteopenia, platyspondyly"


def test_words_a_marker_naming_every_panel_gives_are_shared_and_left_out():
    # ROCO_04202: "(a–d)" after the video's label names all four panels; each has its own words
    got = subs("Video 2(a–d) Supramitral ring. The fibrous ring (arrows) is an integral part of the anterior "
               "and posterior mitral valve leaflets. The leaflet tips are thickened and chords are abnormally "
               "short. (a) 2-D TEE, (b) 2-D color TEE, (c) 3-D live, and (d) 3-D full volume acquisition")
    assert got == {"a": "2-D TEE", "b": "2-D color TEE", "c": "3-D live", "d": "3-D full volume acquisition"}


def test_a_group_marker_is_not_every_panel_when_the_caption_never_names_a():
    # Hindawi PMC4745327 fig4: "((b) and (c))" names the two panels the caption discusses; panel a
    # exists unnamed, so the words "(b) and (c)" close are b's and c's own, not shared by all
    caption = ("All the groups of the rats were able to learn the location of the hidden platform. However, "
               "there was statistically significant decrease in memory retention in V12 relative to controls "
               "((b) and (c)). The W9 group showed a remarkable recovery in memory retention (b) and were "
               "comparable to the controls.")
    got = subs(caption)
    assert "decrease in memory retention in V12" in got["b"]
    assert "decrease in memory retention in V12" in got["c"]


def test_markers_followed_by_capitalised_descriptions_after_a_title_lead_their_text():
    # jats_xml_only/PMC9000000.xml Fig3: the title has no full stop; each marker opens a
    # description that starts with a capital, and the last one has its words after it
    got = subs("Visual feature extraction (a) Visualization of 68 facial landmark location coordinates "
               "(b) Examples of few action units extracted from Cohn and Kanades database [ 25 ]")
    assert got["a"] == "Visualization of 68 facial landmark location coordinates"
    assert got["b"].startswith("Examples of few action units")


def test_a_missing_full_stop_before_a_capital_does_not_make_trailing_markers_lead():
    # Veterinary World PMC6200556 fig3 (pmc_dev_corpus): "(a)" closes its sentence without a full
    # stop, and "(b)." ends the next: both close their words
    got = subs("The ChAT RT-PCR product (183 bp) was visualized on 2.5% agarose gel (a) Glyceraldehyde-3–phosphate "
               "dehydrogenase was run as an internal control of the RT-PCR reaction (165 bp) (b). (1: Marker; "
               "2: Non treated).")
    assert got["a"] == "The ChAT RT-PCR product (183 bp) was visualized on 2.5% agarose gel"
    assert got["b"].startswith("Glyceraldehyde-3–phosphate dehydrogenase was run")


def test_a_title_without_full_stop_before_a_lone_marker_is_no_panel_text():
    # jats_xml_only/PMC9500000.xml fig1 (title and text joined without a full stop): "(A)" is
    # alone in its sentence and a capitalised description follows it, so it leads its text,
    # which runs on to "(B)"; the title is shared by every panel
    got = subs("High-throughput screening strategy and validation (A) Schematic illustration of the HTS "
               "strategy. Organoids carrying the mutation are treated with drug compounds. (B) A deep neural "
               "network can be used as an efficient classifier.")
    assert got["a"] == ("Schematic illustration of the HTS strategy. Organoids carrying the mutation are "
                        "treated with drug compounds.")
    assert got["b"] == "A deep neural network can be used as an efficient classifier."


def test_a_sentence_may_start_with_a_number_but_not_after_no():
    # jats_xml_only/PMC10777901.xml f001: "... (dotted arrows). 57-old year man with ... ( A )": the
    # trailing marker's words start at its own sentence, which opens with a digit; ROCO_82351:
    # "No. 2 PDS suture" does not end a sentence
    got = subs("PET/CT results of 3 patients showing lesions (dotted arrows). 57-old year man with sigmoid "
               "primary ( A ) and synchronous carcinoma of left colon ( B ).")
    assert got["a"] == "57-old year man with sigmoid primary"
    got = subs("(A) A spinal needle penetrates the capsular portion. (B) Arthroscopic image of No. 2 PDS "
               "suture material advanced through the needle.")
    assert got["b"] == "Arthroscopic image of No. 2 PDS suture material advanced through the needle."


def test_a_capital_after_a_lower_case_letter_is_the_article_not_a_listed_panel():
    # jats_xml_only/PMC6500000.xml Fig1 (Nature style "a , A spider plot ..."): "c , A" is panel c
    # opening with the article, not the list "c, a"
    got = subs("Clinical response. a , A spider plot of change in laryngeal disease burden is shown. b , "
               "Representative endoscopic images are displayed. c , A spider plot of the change in pulmonary "
               "disease burden is shown. d , Representative images from CT scans are displayed.")
    assert got["a"] == "A spider plot of change in laryngeal disease burden is shown."
    assert got["c"] == "A spider plot of the change in pulmonary disease burden is shown."


def test_references_inside_a_group_marker_text_split_it_between_its_panels():
    # jats_xml_only/PMC9500000.xml fig3 and plos pbio.0020294 g004: "(D and E) Phenotypic rescue (D)
    # and adverse effect (E) for the plates": each reference closes its panel's own words, the tail
    # is both panels'; ROCO_82413: before a reference to two panels "and" joins their items
    got = subs("(A) Scores. (B) Space. (C) Control wells. (D and E) Phenotypic rescue (D) and adverse effect "
               "(E) for the 14 individual 96-well plates. (F) Example images.")
    assert got["d"] == "Phenotypic rescue for the 14 individual 96-well plates."
    assert got["e"] == "adverse effect for the 14 individual 96-well plates."
    got = subs("(a–d) Direct blood flow of popliteal artery (a), anterior tibial artery and posterior tibial "
               "arteries (b, c), and foot arteries (d) was restored after angioplasty")
    assert got["b"] == got["c"] == "anterior tibial artery and posterior tibial arteries was restored after angioplasty"
    assert got["d"] == "foot arteries was restored after angioplasty"


def test_letters_after_a_group_that_closes_its_words_are_markers_of_their_own():
    # jats_xml_only/PMC10821037.xml f004: "(in (A, B))" is a trailing group, so the "(B)" after it is
    # a marker of its own, not a reference inside the group's text
    caption = ("NEWS-2 is lower in the vaccinated groups ( A ). BNT162b2-vaccinated individuals show higher "
               "severity ( B ). However, both groups (in ( A , B )) and the non-vaccinated group experience an "
               "increase over the course of days ( B ).")
    parsed = parse_subcaptions(caption)
    assert [m.labels for m in parsed.markers] == [["a"], ["b"], ["a", "b"], ["b"]]
    assert parsed.get("a").text.startswith("NEWS-2 is lower")


def test_a_letter_run_ending_on_a_colon_opens_the_panel_list_after_a_title():
    # PubLayNet page PMC5447509 (figure_bbox_ground_truth): the title has no full stop before "A–B:";
    # the colon run starting at a outvotes the channel names "(A1–A4)" in brackets
    caption = ("EEG and optical imaging acquisition data A–B: A patch comprising four pairs of optical fibers "
               "has been positioned in the middle of the forehead. The four channels (A1–A4) differed in the "
               "distance between the emitter and the detector. C: 9 electrodes were disposed according to the "
               "10–20 system, with a frontal reference.")
    got = subs(caption)
    assert sorted(got) == ["a", "b", "c"]
    assert got["a"] == got["b"]
    assert got["a"].startswith("A patch comprising")
    assert got["c"].startswith("9 electrodes were disposed")
    # a colon alone does not make a list of a letter that does not start at a: "Hepatitis B: ..."
    assert subs("Serology of the patient with hepatitis B: positive core antibodies. C: liver biopsy.") == {}


def test_nature_letters_inside_a_sentence_fill_the_gaps_of_the_run():
    # jats_xml_only/PMC10200000.xml Fig3: "b" and "c" sit inside a sentence between the clause-start
    # letters a and d; the sentence's head is each of its letters' own, not panel a's
    got = subs("The photothermal effect of the LM and HM. a IR camera image of the LM under light irradiation. "
               "Light-induced b temperature changes and c ionic current changes of the LM under alternating "
               "illumination. d IR camera image of the HM under light irradiation.")
    assert got["a"] == "IR camera image of the LM under light irradiation."
    assert got["b"] == "Light-induced temperature changes"
    assert got["c"] == "Light-induced ionic current changes of the LM under alternating illumination."
    assert got["d"] == "IR camera image of the HM under light irradiation."
    # "BALB/c mice" (PMC6000000.xml Fig2) and a letter the run does not expect are no markers
    got = subs("Lungs of infected mice. a , b Eight-week-old female BALB/c mice without infection. c – h Mice "
               "infected with H5N6.")
    assert got["a"] == "Eight-week-old female BALB/c mice without infection."
    assert got["c"] == "Mice infected with H5N6."


def test_a_unit_letter_ends_the_sentence_before_the_next_letter_of_the_run():
    # jats_xml_only/PMC10200000.xml Fig2: "... ranging from 0.01 to 0.5 M. c Conductance ..."
    got = subs("Transport. a Schematic illustration of the setup. b I – V curves of HM in LiCl ranging from 0.01 "
               "to 0.5 M. c Conductance measurement of the LM and HM. d I-V curves of the HM.")
    assert sorted(got) == ["a", "b", "c", "d"]
    assert got["b"] == "I – V curves of HM in LiCl ranging from 0.01 to 0.5 M."
    assert got["c"] == "Conductance measurement of the LM and HM."


def test_letters_in_brackets_that_name_no_panel_do_not_hide_inline_letters():
    # jats_xml_only/PMC7500000.xml Fig2: "(H&E)" looks like a bracketed letter pair but names no
    # panel run; the inline letters a, b, c are the panels
    got = subs("Hematoxylin-eosin (H&E) staining of carotid and vagal paragangliomas. a left CPGL, b right "
               "CPGL, and c right VPGL. Specific growth pattern of paragangliomas can be seen")
    assert got == {"a": "left CPGL", "b": "right CPGL", "c": "right VPGL."}


def test_a_letter_after_another_figure_number_is_no_panel_of_this_figure():
    # ROCO_67660: "the cleaved Si in Fig. 5(b)" points at a panel of another figure
    assert subs("Intensity map of ARPES spectra measured for the cleaved Si in Fig. 5(b) along the "
                "direction. For details, see text.") == {}
    # the caption's own label is not another figure: "Figure 2 (A) CT ... (B) MRI ..." keeps its panels
    assert sorted(subs("Figure 2 (A) CT of the chest. (B) MRI of the brain.")) == ["a", "b"]


def test_before_and_after_are_the_words_of_the_marker_they_precede():
    # ROCO_70990 / ROCO_78220: "before (A) and after (B) bacterial inoculation" -- "before" is
    # panel A's description, not a function word opening (A)'s text; the rules gave A "after"
    assert subs("Corneal thickness was measured at 5 locations before (A) and after (B) bacterial "
                "inoculation.")["a"].endswith("before")
    got = subs("Lung and abdominal CT showing air in the bladder wall before (a) and after bladder catheter (b)")
    assert got["b"] == "after bladder catheter" and got["a"].endswith("bladder wall before")
    assert subs("CT scans before (top row) and after treatment (bottom row).") == {
        "row-top": "CT scans before", "row-bottom": "after treatment"}


def test_the_figure_label_is_in_no_subcaption_whoever_attaches_the_words():
    # the tagger (trailing markers) read the "Figure 3." label as the first panel's words
    for mode in ("rules", "tagger", "hybrid"):
        got = {s.label: s.text for s in parse_subcaptions("Figure 3. Axial T2-weighted MRI (left) and "
                                                          "contrast-enhanced T1 (right).", mode=mode).subcaptions}
        assert got["left"] == "Axial T2-weighted MRI", mode
