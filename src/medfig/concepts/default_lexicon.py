"""The lexicon medfig ships: learned from ROCO's train + validation captions, used when the user names none.

``medfig concepts`` and ``medfig curate --vocabulary`` tag captions with the vocabulary's names
plus this lexicon unless the user passes ``--lexicon``, ``--learn-from`` or ``--no-default-lexicon``.
It is learned by medfig's own distant supervision (:func:`medfig.concepts.lexicon.learn_lexicon`)
from every ROCO v1 train and validation folder present (radiology and non-radiology), never from
test; rebuild it with ``tools/build_concept_lexicon.py ROCO_DATA_DIR``. Provenance and licence:
``data/README.md`` beside the file.
"""

from __future__ import annotations

from pathlib import Path

from medfig.concepts.lexicon import Lexicon, learn_lexicon, load_lexicon
from medfig.concepts.matcher import DictionaryMatcher
from medfig.concepts.roco import read_roco_split
from medfig.concepts.vocabulary import Vocabulary
from medfig.records import MedfigError

DEFAULT_LEXICON = Path(__file__).parent / "data" / "roco_lexicon.tsv"
# ROCO v1 folders a default lexicon may learn from; test/* never (the benchmark scores on it).
TRAINING_FOLDERS = ("train/radiology", "train/non-radiology", "validation/radiology", "validation/non-radiology")


def default_lexicon() -> Lexicon:
    if not DEFAULT_LEXICON.is_file():
        raise MedfigError(f"{DEFAULT_LEXICON}: medfig's default lexicon is missing from the installation "
                          "(rebuild it with tools/build_concept_lexicon.py, or pass --lexicon / --no-default-lexicon)")
    return load_lexicon(DEFAULT_LEXICON)


def training_folders(roco_data: str | Path) -> list[Path]:
    """The train/validation folders of a ROCO ``data/`` directory that have captions and CUIs."""
    root = Path(roco_data)
    found = [root / f for f in TRAINING_FOLDERS
             if (root / f / "captions.txt").is_file() and (root / f / "cuis.txt").is_file()]
    if not found:
        raise MedfigError(f"{root}: no ROCO train/validation folder with captions.txt + cuis.txt "
                          "(expected e.g. {root}/validation/radiology)")
    return found


def learn_default_lexicon(roco_data: str | Path, vocabulary: Vocabulary | None = None) -> tuple[Lexicon, dict]:
    """Learn the lexicon over every CUI ROCO's gold names (so any UMLS-CUI vocabulary can use it);
    ``vocabulary`` only supplies the dictionary triggers that the data may block. Returns (lexicon, facts)."""
    examples: list[tuple[str, list[str]]] = []
    per_folder: dict[str, int] = {}
    root = Path(roco_data)
    for folder in training_folders(root):
        captions, gold = read_roco_split(folder)
        examples += [(captions[k], gold.get(k, [])) for k in sorted(captions)]
        per_folder[folder.relative_to(root).as_posix()] = len(captions)
    base = DictionaryMatcher.from_vocabulary(vocabulary) if vocabulary is not None else None
    lexicon = learn_lexicon(examples, base, keep=None)
    return lexicon, {"captions_per_folder": per_folder, "terms": len(lexicon.entries),
                     "blocked_pairs": len(lexicon.blocked)}
