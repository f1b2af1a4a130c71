"""The learned subcaption tagger (issue 16): its tag scheme, its numpy decoder against
python-crfsuite's own, and hand-labelled captions in the styles the hidden figures showed
(letters inside the description, multi-span subcaptions, trailing lists, no letters)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pycrfsuite
import pytest

from medfig.compound.subcaption_fill import subcaptions_for
from medfig.records import MedfigError
from medfig.text import subcaption_tagger
from medfig.text.subcaption_tagger import (
    MODEL_PATH,
    SubcaptionTagger,
    chunk_sequence,
    spans_from_tags,
    tags_from_spans,
    token_features,
)
from medfig.text.subcaptions import caption_body_start, parse_subcaptions

ROOT = Path(__file__).resolve().parents[1]
ROW = [[i * 110, 0, i * 110 + 100, 100] for i in range(6)]


def texts(caption: str, n: int) -> list[str | None]:
    parsed = parse_subcaptions(caption)
    labels = [chr(ord("a") + i) if parsed.get(chr(ord("a") + i)) else None for i in range(n)]
    _, subs = subcaptions_for(ROW[:n], labels, parsed)
    return [s.text if s else None for s in subs]


# ---------------------------------------------------------------- the tag scheme


def test_tags_follow_the_marker_that_owns_the_words():
    caption = "Brain CT (A) and MR images (B, C) showing no lesion."
    markers = parse_subcaptions(caption, mode="rules").markers
    tokens, _, owner, _ = token_features(caption, markers)
    gold = {"a": [(0, 8)], "b": [(17, 26)], "c": [(17, 26)]}  # "Brain CT", "MR images"
    tags = tags_from_spans(caption, tokens, owner, markers, gold)
    words = [caption[a:b] for a, b in tokens]
    assert list(zip(words, tags)) == [
        ("Brain", "F"), ("CT", "F"), ("(", "M"), ("A", "M"), (")", "M"), ("and", "O"), ("MR", "F"),
        ("images", "F"), ("(", "M"), ("B", "M"), (",", "M"), ("C", "M"), (")", "M"), ("showing", "O"),
        ("no", "O"), ("lesion", "O"), (".", "O"),
    ]
    # and back: every panel of the "B, C" marker gets the words it owns
    assert spans_from_tags(caption, tokens, owner, markers, tags) == gold


def test_glue_words_at_a_span_edge_are_not_panel_text():
    caption = "Axial CT (a) and coronal MRI (b)."
    markers = parse_subcaptions(caption, mode="rules").markers
    tokens, _, owner, _ = token_features(caption, markers)
    tags = ["M" if k is not None else "F" for k in owner]
    tags[-1] = "O"
    assert spans_from_tags(caption, tokens, owner, markers, tags) == {"a": [(0, 8)], "b": [(17, 28)]}


# ---------------------------------------------------------------- the decoder


def _load_trainer():
    spec = importlib.util.spec_from_file_location("train_subcaption_tagger", ROOT / "tools" / "train_subcaption_tagger.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_subcaption_tagger", module)
    spec.loader.exec_module(module)
    return module


def test_numpy_viterbi_decodes_as_crfsuite_does(tmp_path):
    captions = [
        "(a) Axial CT of the chest. (b) Coronal CT of the abdomen.",
        "Brain CT (A) and MR images (B) showing no lesion.",
        "Scans of the knee. (A) Before surgery; (B) after surgery.",
        "Ultrasound (a) and Doppler image (b) of the liver.",
        "Lesions of the skin. (a) Papule (arrow). (b) Plaque. Scale bar, 1 cm.",
        "The left hand (a) and the right foot (b) of the patient.",
    ]
    examples = []
    for caption in captions:
        parsed = parse_subcaptions(caption, mode="rules")
        tokens, _, owner, _ = token_features(caption, parsed.markers, caption_body_start(caption))
        tags = tags_from_spans(caption, tokens, owner, parsed.markers, {s.label: s.spans for s in parsed.subcaptions})
        _, feats, _, chunk = token_features(caption, parsed.markers, caption_body_start(caption), tags)
        examples.append(chunk_sequence(feats, chunk, tags))
    model = _load_trainer().train(examples[:4], c1=0.0, c2=0.1)
    ours = SubcaptionTagger(model)
    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, tags in examples[:4]:
        trainer.append(feats, tags)
    trainer.set_params({"c1": 0.0, "c2": 0.1, "max_iterations": 150, "feature.possible_transitions": True})
    trainer.train(str(tmp_path / "m.crfsuite"))
    theirs = pycrfsuite.Tagger()
    theirs.open(str(tmp_path / "m.crfsuite"))
    for feats, _ in examples:
        assert ours.tag(feats) == theirs.tag(feats)


def test_the_shipped_model_is_small_and_a_missing_one_is_one_clear_error(monkeypatch, tmp_path):
    assert MODEL_PATH.stat().st_size < 400_000
    monkeypatch.setattr(subcaption_tagger, "MODEL_PATH", tmp_path / "none.json")
    subcaption_tagger.default_tagger.cache_clear()
    try:
        with pytest.raises(MedfigError, match="none.json: subcaption tagger model missing"):
            subcaption_tagger.default_tagger()
    finally:
        subcaption_tagger.default_tagger.cache_clear()


# ---------------------------------------------------------------- hand-labelled captions


def test_letters_with_a_note_inside_the_description():
    got = texts("Western blots of the earliest (a, green) and final extract (b, red) after purification.", 2)
    assert got[1] == "final extract"
    assert got[0].endswith("earliest") and "final" not in got[0] and "green" not in got[0]


def test_letters_before_each_word_of_a_view_list():
    assert texts("The fossil skull seen in (a) lateral, (b) dorsal and (c) ventral view.", 3) == \
        ["lateral", "dorsal", "ventral view."]


def test_a_list_of_body_parts_each_closed_by_its_letter():
    caption = "Photographs of the patient: the right hand (a), right foot (b), the face (c), the left hand (d) and left foot (e)."
    assert texts(caption, 5) == ["the right hand", "right foot", "the face", "the left hand", "left foot"]


def test_trailing_letters_with_a_shared_tail():
    assert texts("Sagittal CT (A) and coronal MRI (B) of the lumbar spine.", 2) == ["Sagittal CT", "coronal MRI"]
    caption = "Histology of the excised lesion, stained with haematoxylin and eosin (a) and with Masson trichrome (b). Scale bar, 100 µm."
    assert texts(caption, 2) == ["stained with haematoxylin and eosin", "Masson trichrome"]


def test_text_shared_by_a_subset_is_a_span_of_each_panel_of_it():
    caption = ("Chest radiographs of two patients. (a, b) A 40-year-old man with pneumonia; "
               "(a) before and (b) after antibiotics. (c) A healthy control.")
    parsed = parse_subcaptions(caption)
    spans = {s.label: [caption[x:y] for x, y in s.spans] for s in parsed.subcaptions}
    assert spans == {
        "a": ["A 40-year-old man with pneumonia", "before"],
        "b": ["A 40-year-old man with pneumonia", "after antibiotics."],
        "c": ["A healthy control."],
    }


def test_the_tagger_attaches_words_where_markers_sit_inside_clauses_only():
    assert parse_subcaptions("Brain CT (A) and MR images (B).").tagged
    assert not parse_subcaptions("(A) Brain CT. (B) MR image.").tagged
    # the rules' text stays for leading markers: the same answer in both modes
    caption = "CT of two patients. a, b A 35-year-old man with cough. c, d A 60-year-old woman with fever."
    assert [s.text for s in parse_subcaptions(caption).subcaptions] == \
        [s.text for s in parse_subcaptions(caption, mode="rules").subcaptions]


def test_panels_listed_without_letters_take_the_items_in_reading_order():
    assert texts("Typical skin lesions: papule, plaque and nodule.", 3) == ["papule", "plaque", "nodule"]
