"""Concept extraction against ROCO's own CUIs (test/radiology), ROCOv2-vocabulary subset.

Gold: ../shared/data/roco_v1_text/data/test/radiology/cuis.txt (QuickUMLS over full
UMLS), restricted to the 1,935 CUIs of ../shared/data/rocov2_concepts/cui_mapping.csv;
predictions restricted the same way. The learned lexicon is trained ONLY on
validation/radiology + train/non-radiology + validation/non-radiology; test/radiology
is used for the numbers below and nothing else. No frequency cut-off here (the
vocabulary is already ROCOv2's post-cut-off list).

The first table is what a user gets from ``medfig concepts CAPTIONS --vocabulary cui_mapping.csv``
with no other flag (medfig's shipped default lexicon, learned from ROCO train + validation by
tools/build_concept_lexicon.py; the CLI's default --min-frequency 10), against the same command with
--no-default-lexicon (medfig before the lexicon shipped).

Run: .venv/bin/python benchmarks/curate_concepts.py [--cli-only]
"""

from __future__ import annotations

import time
from collections import Counter

import sys

from medfig.concepts.default_lexicon import default_lexicon
from medfig.concepts.lexicon import combined_matcher, learn_lexicon
from medfig.concepts.tagger import ConceptTagger
from medfig.concepts.manual import MODALITY_CUI
from medfig.concepts.matcher import DictionaryMatcher
from medfig.concepts.metrics import score
from medfig.concepts.roco import read_roco_split
from medfig.concepts.vocabulary import load_vocabulary

from harness import DATA, format_table, run_peers

ROCO = DATA / "roco_v1_text" / "data"
TRAIN = ("validation/radiology", "train/non-radiology", "validation/non-radiology")


def cli_defaults(vocab, caps, gold, keep) -> None:
    """The CLI's own tagger and defaults, with and without the shipped lexicon."""
    rows = []
    for name, lexicon in (("no flag (shipped default lexicon)", default_lexicon()),
                          ("--no-default-lexicon", None)):
        t0 = time.perf_counter()
        pred = ConceptTagger(vocab, lexicon, min_frequency=10).tag_many(caps)
        s = score(gold, pred, keep)
        rows.append([name] + [f"{v:.3f}" for v in (s.precision, s.recall, s.f1)]
                    + [f"{len(caps) / (time.perf_counter() - t0):,.0f}"])
    print(f"`medfig concepts test/radiology/captions.txt --vocabulary cui_mapping.csv` ({len(caps)} captions)\n")
    print(format_table(["flags", "micro P", "micro R", "micro F1", "captions/s"], rows, markdown=True))
    print()


def main() -> None:
    vocab = load_vocabulary(DATA / "rocov2_concepts" / "cui_mapping.csv")
    keep = set(vocab.names)
    modality = set(MODALITY_CUI.values()) & keep
    caps, gold = read_roco_split(ROCO / "test" / "radiology")
    gold = {k: gold.get(k, []) for k in caps}
    cli_defaults(vocab, caps, gold, keep)
    if "--cli-only" in sys.argv:
        return

    examples = []
    for split in TRAIN:
        c, g = read_roco_split(ROCO / split)
        examples += [(c[k], g.get(k, [])) for k in c]
    base = DictionaryMatcher.from_vocabulary(vocab)
    t0 = time.perf_counter()
    lexicon = learn_lexicon(examples, base, keep)
    t_learn = time.perf_counter() - t0
    learned = combined_matcher(base, lexicon)

    configs = {
        "canonical names, longest match": (DictionaryMatcher.from_vocabulary(vocab, variants=False), False),
        "+ hand variant table": (base, False),
        "+ overlapping matches": (base, True),
        "+ learned lexicon (distant supervision)": (learned, True),
    }
    print(f"test/radiology captions: {len(caps)}; vocabulary: {len(keep)} CUIs; "
          f"lexicon learned from {len(examples)} captions in {t_learn:.1f} s: "
          f"{len(lexicon.entries)} terms, {len(lexicon.blocked)} dictionary pairs blocked\n")
    runs = run_peers({name: (lambda k, m=matcher, o=overlapping: m.concepts(caps[k], o))
                      for name, (matcher, overlapping) in configs.items()}, list(caps), progress=False)
    preds, rows = {}, []
    for name, run in runs.items():
        pred = preds[name] = run.outputs
        s, sm, so = score(gold, pred, keep), score(gold, pred, modality), score(gold, pred, keep - modality)
        rows.append([name] + [f"{v:.3f}" for v in (s.precision, s.recall, s.f1, s.sample_f1, sm.f1, so.f1)]
                    + [f"{len(caps) / sum(run.seconds.values()):,.0f}"])
    print(format_table(["matcher", "micro P", "micro R", "micro F1", "sample F1", "modality F1", "other F1", "captions/s"],
                       rows, markdown=True))

    train_caps = {c.strip().lower() for c, _ in examples}
    novel = {k: gold[k] for k in caps if caps[k].strip().lower() not in train_caps}
    s = score(novel, preds["+ learned lexicon (distant supervision)"], keep)
    print(f"\nlearned lexicon on the {len(novel)} test captions whose text is not in the training captions: "
          f"P {s.precision:.3f} R {s.recall:.3f} F1 {s.f1:.3f}")

    pred = preds["+ learned lexicon (distant supervision)"]
    fp, fn = Counter(), Counter()
    for k in caps:
        g, p = set(gold[k]) & keep, set(pred[k]) & keep
        fp.update(p - g)
        fn.update(g - p)
    print("\nerror classes (learned lexicon): most frequent false positives / false negatives")
    print(format_table(["false positive CUI", "name", "n", "", "false negative CUI", "name", "n"],
                       [[a, vocab.names[a], na, "", b, vocab.names[b], nb]
                        for (a, na), (b, nb) in zip(fp.most_common(12), fn.most_common(12))], markdown=True))


if __name__ == "__main__":
    main()
