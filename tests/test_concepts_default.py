"""Issue 17 item 11: `medfig concepts CAPTIONS --vocabulary cui_mapping.csv` with no other flag tags
with medfig's shipped lexicon (learned from ROCO train + validation); user flags override it."""

from __future__ import annotations

from pathlib import Path

import pytest

from medfig.cli import main
from medfig.concepts.metrics import score
from medfig.concepts.roco import read_id_tsv
from medfig.concepts.vocabulary import load_vocabulary

N_CAPTIONS = 400


@pytest.fixture(scope="module")
def roco_test(data_dir, tmp_path_factory):
    folder = data_dir / "roco_v1_text" / "data" / "test" / "radiology"
    lines = (folder / "captions.txt").read_text(encoding="utf-8").splitlines()[:N_CAPTIONS]
    captions = tmp_path_factory.mktemp("roco") / "captions.txt"
    captions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gold = read_id_tsv(folder / "cuis.txt")
    return captions, {ln.split("\t")[0]: gold.get(ln.split("\t")[0], []) for ln in lines}


def _tag(capsys, *argv) -> dict[str, list[str]]:
    assert main(["concepts", *map(str, argv)]) == 0
    out = capsys.readouterr().out
    return {ln.split("\t")[0]: [c for c in ln.split("\t")[1].split(";") if c] for ln in out.splitlines()}


def test_no_flag_uses_the_shipped_lexicon(roco_test, data_dir, capsys):
    captions, gold = roco_test
    vocabulary = data_dir / "rocov2_concepts" / "cui_mapping.csv"
    keep = set(load_vocabulary(vocabulary).names)
    default = score(gold, _tag(capsys, captions, "--vocabulary", vocabulary, "--min-frequency", 0), keep)
    plain = score(gold, _tag(capsys, captions, "--vocabulary", vocabulary, "--min-frequency", 0,
                             "--no-default-lexicon"), keep)
    assert default.f1 >= 0.80, default
    assert plain.f1 < 0.6 < default.f1  # the dictionary alone: today's 0.45


def test_a_user_lexicon_overrides_the_default(roco_test, data_dir, tmp_path, capsys):
    captions, _ = roco_test
    vocabulary = data_dir / "rocov2_concepts" / "cui_mapping.csv"
    lexicon = tmp_path / "mine.tsv"
    lexicon.write_text("# user lexicon\nzzqx\tC0040405\t3\t0.9\n", encoding="utf-8")
    mine_caps = tmp_path / "mine_captions.txt"
    mine_caps.write_text("X1\tzzqx of the chest\n", encoding="utf-8")
    assert "C0040405" in _tag(capsys, mine_caps, "--vocabulary", vocabulary, "--min-frequency", 0,
                              "--lexicon", lexicon)["X1"]
    assert "C0040405" not in _tag(capsys, mine_caps, "--vocabulary", vocabulary, "--min-frequency", 0)["X1"]
    # with a user lexicon the shipped one is not used at all: the ROCO captions are tagged differently
    default = _tag(capsys, captions, "--vocabulary", vocabulary, "--min-frequency", 0)
    mine = _tag(capsys, captions, "--vocabulary", vocabulary, "--min-frequency", 0, "--lexicon", lexicon)
    assert default != mine


def test_shipped_lexicon_is_small_and_has_provenance():
    from medfig.concepts.default_lexicon import DEFAULT_LEXICON, default_lexicon

    assert DEFAULT_LEXICON.stat().st_size < 2_000_000
    readme = (DEFAULT_LEXICON.parent / "README.md").read_text(encoding="utf-8")
    assert "tools/build_concept_lexicon.py" in readme and "Licence" in readme and "test" in readme
    lex = default_lexicon()
    assert len(lex.entries) > 1000 and "C1696103" in lex.entries[("image",)]  # ROCO labels "image" C1696103


def test_the_rebuild_tool_never_reads_test(tmp_path):
    from medfig.concepts.default_lexicon import training_folders
    from medfig.records import MedfigError

    (tmp_path / "test" / "radiology").mkdir(parents=True)
    for name in ("captions.txt", "cuis.txt"):
        (tmp_path / "test" / "radiology" / name).write_text("ROCO_1\tCT of the chest\n")
    with pytest.raises(MedfigError, match="no ROCO train/validation folder"):
        training_folders(tmp_path)
