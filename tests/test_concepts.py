"""Concept matching: normalisation, longest match, vocabulary formats, lexicon learning, CLI contract."""

from __future__ import annotations

import subprocess
import sys

import pytest

from medfig.concepts.lexicon import combined_matcher, learn_lexicon, load_lexicon
from medfig.concepts.matcher import DictionaryMatcher
from medfig.concepts.metrics import score
from medfig.concepts.normalise import normalise
from medfig.concepts.tagger import ConceptTagger
from medfig.concepts.vocabulary import Vocabulary, load_vocabulary
from medfig.records import MedfigError


def test_normalisation_folds_case_plurals_hyphens_and_spellings():
    assert normalise("X-Rays of the Arteries") == ("x", "ray", "of", "the", "artery")
    assert normalise("xray") == ("x", "ray")
    assert normalise("PET/CT") == ("pet", "ct")
    assert normalise("masses, vertebrae, tumours") == ("mass", "vertebra", "tumor")
    assert normalise("CT US MRI") == ("ct", "us", "mri")  # short forms untouched


def test_longest_match_wins_and_overlapping_reports_both():
    m = DictionaryMatcher({("computed", "tomography"): ["CT"], ("tomography",): ["TOMO"], ("chest",): ["CH"]})
    assert m.concepts("Computed tomography of the chest") == ["CT", "CH"]
    assert m.concepts("Computed tomography of the chest", overlapping=True) == ["CT", "TOMO", "CH"]
    assert m.concepts("exact chests") == ["CH"]  # plural folded, no match inside "exact"


def test_variants_resolve_through_vocabulary_names_only():
    vocab = Vocabulary({"C0040405": "X-Ray Computed Tomography", "C0817096": "Chest"}, "test")
    m = DictionaryMatcher.from_vocabulary(vocab)
    assert m.concepts("Axial CT of the chest") == ["C0040405", "C0817096"]
    assert m.concepts("MRI of the chest") == ["C0817096"]  # MRI's name is not in this vocabulary


def test_vocabulary_formats(tmp_path, data_dir):
    rocov2 = load_vocabulary(data_dir / "rocov2_concepts" / "cui_mapping.csv")
    assert len(rocov2) == 1935 and rocov2.names["C0040405"] == "X-Ray Computed Tomography"
    mesh = tmp_path / "mesh.csv"
    mesh.write_text("id,scheme,subject\nhttps://id.nlm.nih.gov/mesh/D014057,MeSH,\"Tomography, X-Ray Computed\"\n")
    assert load_vocabulary(mesh).names == {"D014057": "Tomography, X-Ray Computed"}
    bad = tmp_path / "bad.csv"
    bad.write_text("foo,bar\n1,2\n")
    with pytest.raises(MedfigError, match="bad.csv: unrecognised vocabulary header"):
        load_vocabulary(bad)


def test_lexicon_learns_synonyms_and_explains_away_context_words(tmp_path):
    # "scan" always with CUI A; "axial" co-occurs with A only because "scan" is there too
    examples = [("axial scan of the head", ["A"])] * 6 + [("axial view of the knee", [])] * 4
    examples += [("scan of the foot", ["A"])] * 3 + [("a film", ["B"])] * 3
    lex = learn_lexicon(examples, keep={"A", "B"})
    assert ("scan",) in lex.entries and "A" in lex.entries[("scan",)]
    assert ("axial",) not in lex.entries
    assert lex.entries[("film",)] == {"B"}
    path = tmp_path / "lex.tsv"
    lex.save(path)
    assert load_lexicon(path).entries == lex.entries


def test_lexicon_blocks_dictionary_names_the_labels_contradict():
    base = DictionaryMatcher({("magnetic", "resonance", "imaging"): ["MRI"]})
    examples = [("magnetic resonance imaging of the brain", ["BRAIN"])] * 5
    lex = learn_lexicon(examples, base, keep={"MRI", "BRAIN"})
    m = combined_matcher(base, lex)
    assert "MRI" not in m.concepts("magnetic resonance imaging of the brain", overlapping=True)


def test_learned_lexicon_beats_the_dictionary_on_held_out_roco(data_dir):
    from medfig.concepts.roco import read_roco_split

    roco = data_dir / "roco_v1_text" / "data"
    vocab = load_vocabulary(data_dir / "rocov2_concepts" / "cui_mapping.csv")
    keep = set(vocab.names)
    caps, gold = read_roco_split(roco / "validation" / "radiology")
    items = sorted(caps)
    train, test = items[:6000], items[6000:]
    base = DictionaryMatcher.from_vocabulary(vocab)
    lex = learn_lexicon([(caps[k], gold.get(k, [])) for k in train], base, keep)
    learned = combined_matcher(base, lex)
    g = {k: gold.get(k, []) for k in test}
    f_base = score(g, {k: base.concepts(caps[k]) for k in test}, keep).f1
    f_learned = score(g, {k: learned.concepts(caps[k], True) for k in test}, keep).f1
    assert f_base < 0.6 and f_learned > 0.85, (f_base, f_learned)


def test_frequency_cutoff_and_deny_list():
    vocab = Vocabulary({"C1": "chest", "C2": "knee"}, "t")
    caps = {f"id{i}": "chest film" for i in range(3)} | {"idk": "knee film"}
    assert ConceptTagger(vocab, min_frequency=2).tag_many(caps)["idk"] == []
    assert ConceptTagger(vocab, min_frequency=1).tag_many(caps)["idk"] == ["C2"]
    assert ConceptTagger(vocab, min_frequency=1, deny={"C1"}).tag_many(caps)["id0"] == []


def test_cli_contract_id_tab_cuis(tmp_path, data_dir):
    caps = tmp_path / "captions.txt"
    caps.write_text("ROCO_1\t Axial CT of the chest.\nROCO_2\t Knee radiograph.\n")
    # the dictionary alone (the shipped lexicon follows ROCO's gold, which does not give "CT" its modality CUI)
    out = subprocess.run([sys.executable, "-m", "medfig.cli", "concepts", str(caps), "--vocabulary",
                          str(data_dir / "rocov2_concepts" / "cui_mapping.csv"), "--min-frequency", "1",
                          "--no-default-lexicon"],
                         capture_output=True, text=True, check=True).stdout
    lines = dict(line.split("\t") for line in out.splitlines())
    assert lines["ROCO_1"].split(";") == ["C0040405", "C0817096"]
    assert "C1306645" in lines["ROCO_2"].split(";")  # radiograph -> Plain x-ray
