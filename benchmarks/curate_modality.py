"""Modality from caption rules: against ROCO's modality CUIs, and on hand-checked samples.

1. ROCO gold: test/radiology (+ validation/radiology) captions whose cuis.txt has exactly one of the
   seven ROCOv2 modality CUIs (the gold never codes MRI, see the issue; PET/CT is coded
   as CT or PET). Accuracy per gold class.
2. Hand-checked samples of 100 random test/radiology captions each
   (benchmarks/data/roco_modality_hand_sample{1,...,6}.tsv, label = what the caption text
   names, ``none`` when it names no modality). Each sample was drawn fresh (earlier samples
   excluded) and labelled with the rules of that moment; the rules were then fixed on
   its errors. So only the "when labelled" column of the latest sample is a held-out
   number; the "now" column is fitted for samples the rules were fixed on. Sample 5 was
   drawn and labelled after the rules were frozen (commit fbfb5f4: foreign-language names and
   the implied-modality tier were developed on validation/radiology captions only); its five
   errors were then fixed (commit 7cce755) and sample 6 drawn and labelled after that freeze.
   A per-class table (correct / hand-labelled captions of each class) follows.

Run: .venv/bin/python benchmarks/curate_modality.py
"""

from __future__ import annotations

from collections import Counter

from medfig.concepts.manual import MODALITY_CUI, modality_from_caption
from medfig.concepts.roco import read_captions, read_roco_split

from harness import DATA, HAND_LABELS, format_table

ROCO = DATA / "roco_v1_text" / "data"
# accuracy of the rules as they were when each sample was labelled (from the labelling commits)
WHEN_LABELLED = {"sample1": 0.90, "sample2": 0.93, "sample3": 0.92, "sample4": 0.93, "sample5": 0.95, "sample6": 0.97}


def gold_table() -> None:
    inv = {v: k for k, v in MODALITY_CUI.items()}
    rows = []
    for split in ("test/radiology", "validation/radiology"):
        caps, cuis = read_roco_split(ROCO / split)
        n, ok = Counter(), Counter()
        for k, text in caps.items():
            g = [inv[c] for c in cuis.get(k, []) if c in inv]
            if len(g) != 1:
                continue
            n[g[0]] += 1
            ok[g[0]] += modality_from_caption(text) == g[0]
        rows += [[split, cls, n[cls], ok[cls], f"{ok[cls] / n[cls]:.3f}"] for cls in sorted(n)]
        rows.append([split, "**all**", sum(n.values()), sum(ok.values()), f"**{sum(ok.values()) / sum(n.values()):.3f}**"])
    print(format_table(["split", "gold class", "captions", "correct", "accuracy"], rows, markdown=True))


def hand_table() -> None:
    caps = read_captions(ROCO / "test" / "radiology" / "captions.txt")
    rows = []
    per_class: dict[str, tuple[Counter, Counter]] = {}
    for f in sorted(HAND_LABELS.glob("roco_modality_hand_sample*.tsv")):
        labels = dict(line.split("\t") for line in f.read_text().splitlines() if line and not line.startswith("#"))
        errors = []
        n, ok = Counter(), Counter()
        for k, lab in labels.items():
            pred = modality_from_caption(caps[k]) or "none"
            n[lab] += 1
            ok[lab] += pred == lab
            if pred != lab:
                errors.append(f"{k}:{lab}->{pred}")
        name = f.stem.rsplit("_", 1)[-1]
        per_class[name] = (n, ok)
        acc = 1 - len(errors) / len(labels)
        rows.append([name, len(labels), f"{WHEN_LABELLED.get(name, float('nan')):.2f}", f"{acc:.2f}",
                     ", ".join(errors[:6]) or "-"])
    print()
    print(format_table(["hand-checked sample", "captions", "accuracy when labelled (held-out)", "accuracy now",
                        "errors now"], rows, markdown=True))
    # per-class accuracy (recall of each hand label) of the current rules on every sample
    names = list(per_class)
    classes = sorted({c for n, _ in per_class.values() for c in n})
    print()
    print(format_table(["hand label", *names], [[c] + [f"{ok[c]}/{n[c]}" if n[c] else "-" for n, ok in
                                                 (per_class[x] for x in names)] for c in classes], markdown=True))


if __name__ == "__main__":
    gold_table()
    hand_table()
