"""Where the last panel's text ends (round 13, from the third ROCO draw, read after its one clean
run: benchmarks/gold/subcaptions/roco_letters3_gold.json).

Captions are quoted from ../shared/data/roco_v1_text (ids beside them) or the harvested JATS
captions; the expected words were written by reading them. A last marker that opens its own
sentence heads a paragraph: the sentences after it describe that panel until one
speaks for the whole figure or opens on another panel. A last marker inside a list ends with
its sentence.
"""

from __future__ import annotations

from subcaption_words import refined


def test_a_paragraph_marker_keeps_the_sentences_after_it():
    # ROCO_82510 (shortened): each panel's text opens its own sentence
    caption = ("(a) Schematic of single-molecule rolling-circle assay. (b) Example field of view. Note both "
               "the length and number of products. Each flow cell has thousands of such fields, allowing "
               "for large numbers of products to be observed in a single experiment.")
    got = refined(caption)
    assert got["b"] == [caption[caption.index("Example"):]]


def test_a_last_marker_inside_a_list_ends_with_its_sentence():
    # ROCO_37903: what follows the list speaks of the whole figure
    caption = ("A spleen scan before accessory splenectomy, (A) posterior view (B) left lateral view. It shows "
               "a focal uptake in the left upper quadrant.")
    assert refined(caption)["b"] == ["left lateral view."]


def test_a_sentence_opening_on_another_panel_ends_the_last_panel():
    # ROCO_85518 (shortened)
    caption = ("CT angiography. (A) Axial slice at the mid portion. (B) Axial slice below it. (C) Coronal slice "
               "of the true lumen. On B, note the curvilinear hyperdensity of the intimal flap.")
    assert refined(caption)["c"] == ["Coronal slice of the true lumen."]


def test_a_back_reference_later_in_a_sentence_does_not_end_it():
    # harvested (PLoS Biol.): "Mice in (A)" points back; the sentence is still (B)'s
    caption = ("(A) Transgenic and wild-type littermates were fed a high-fat diet. (B) Glucose tolerance test. "
               "Mice in (A) after high-fat feeding were fasted for 6 h.")
    assert refined(caption)["b"] == [caption[caption.index("Glucose"):]]


def test_credits_and_definitions_after_the_last_panel_are_shared():
    caption = ("(a) Vascular intervention simulator. (b) Close-up of the circled lesion. Permission for use "
               "obtained by Elsevier Ltd.")
    assert refined(caption)["b"] == ["Close-up of the circled lesion."]
    # ROCO_53060: an abbreviation defined for the whole figure
    got = refined("Radiographic measurements. (A) C2-7 Cobb angle. (B) T1 slope. (C) C2-7 SVA. "
                  "SVA indicates sagittal vertical axis.")
    assert got["c"] == ["C2-7 SVA."]
    # ROCO_82030: "Note that ..." continues the panel; "Note:" speaks for the figure
    caption = "(A) Fundus photograph. (B) Representative OCT image. Note that the photoreceptor layer is lost."
    assert refined(caption)["b"] == ["Representative OCT image. Note that the photoreceptor layer is lost."]
    caption = "(A) Fundus photograph. (B) Representative OCT image. Note: images were cropped."
    assert refined(caption)["b"] == ["Representative OCT image."]


def test_a_later_sentence_naming_one_panel_describes_it():
    # ROCO_87826: after the list, each sentence points at one panel
    caption = ("B-scan (a), A-scan (b). A typical section of the forearm is shown in a, where the red lines "
               "indicate the skin surface. A representative A-scan in linear scale is seen in b.")
    got = refined(caption)
    assert got["a"] == ["B-scan", "A typical section of the forearm is shown in a, where the red lines indicate the skin surface."]
    assert got["b"] == ["A-scan", "A representative A-scan in linear scale is seen in b."]
    # one that names no panel, or two, stays shared; so does a scale statement naming one
    caption = ("B-scan (a), A-scan (b). The forearm is shown in a and b. Both were taken in 2019. "
               "Scale bar in b, 1 mm.")
    got = refined(caption)
    assert got["a"] == ["B-scan"] and got["b"] == ["A-scan"]


def test_a_sentence_summing_up_the_figure_is_shared():
    # harvested (Elsevier; real gold PMC4706941): what sums up every panel is no one panel's text
    caption = ("HPLC analysis. (A) Authentic T3LHyp. (B) Reaction product by AbLhpH. Similar results were "
               "obtained when CpLhpH was used (data not shown).")
    assert refined(caption)["b"] == ["Reaction product by AbLhpH."]
    caption = ("(a) Multiphase CECT showed enhancement in arterial phase. (b) Contrast enhanced MRI showed a "
               "typical pattern. In conclusion, the lesion was consistent with PHC.")
    assert refined(caption)["b"] == ["Contrast enhanced MRI showed a typical pattern."]
    # the summing-up sentence ends the paragraph where it stands, not the sentence before it
    caption = ("(A) Axial CT. (B) Coronal CT of the liver. The lesion enhances. Similar lesions were seen "
               "elsewhere (data not shown).")
    assert refined(caption)["b"] == ["Coronal CT of the liver. The lesion enhances."]
