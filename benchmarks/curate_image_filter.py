"""Radiology image filter: trained on weak caption labels, scored on hand-checked held-out figures.

Figures: what medfig extracts from ../shared/data (Hindawi figures cropped from the PDFs,
eLife figure files, the JATS+PDF packages). Ten Hindawi articles (seed 0) are held out;
the head is trained on every other figure with weak labels from captions
(radiology = the caption names one of ROCO's seven modalities). Held-out figures were
labelled by hand by looking at each image (benchmarks/data/image_filter_hand_labels.tsv).
Also scored: the same held-out figures against their weak caption labels, and the ten
MedICaT sample figures against MedICaT's own ``radiology`` flag.
MedICaT's filter for reference: precision 0.96, recall 0.67.

Run: .venv/bin/python benchmarks/curate_image_filter.py [--work /tmp/medfig-bench-imgfilter]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from medfig.vision.image_filter import (FeatureExtractor, dataset_images, precision_recall, read_hand_labels,
                                        train_head, weak_label)

from harness import DATA, HAND_LABELS, format_table

SOURCES = {"hindawi": DATA / "pmc_hindawi_xml_pdf", "elife": DATA / "elife_xml_pdf_pairs",
           "packages": DATA / "jats_pdf_figure_packages"}


def main() -> None:
    from medfig.pipeline.build import build

    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/medfig-bench-imgfilter")
    args = ap.parse_args()
    work = Path(args.work)
    items = []
    for name, src in SOURCES.items():
        out = work / name
        if not (out / "figures.parquet").is_file():
            build(src, out, workers=1, progress=False)
        items += [(name, r, p) for r, p in dataset_images(out)]
    hindawi = sorted({r["article_key"] for n, r, _ in items if n == "hindawi"})
    random.Random(0).shuffle(hindawi)
    held = set(hindawi[:10])
    train = [(r, p) for n, r, p in items if r["article_key"] not in held]
    test = [(r, p) for n, r, p in items if r["article_key"] in held]

    fx = FeatureExtractor()
    t0 = time.perf_counter()
    f_train = fx.features_of_files([p for _, p in train])
    f_test = fx.features_of_files([p for _, p in test])
    t_feat = time.perf_counter() - t0
    labels = [weak_label(r) for r, _ in train]
    head = train_head(f_train, labels)
    pred = head.predict(f_test)

    hand = read_hand_labels(HAND_LABELS / "image_filter_hand_labels.tsv")
    gold_hand = [hand[(r["article_key"], r["figure_id"])] for r, _ in test]
    gold_weak = [weak_label(r) == "radiology" for r, _ in test]
    caption_rule = gold_weak  # the caption rule itself, as a filter, scored against the hand labels

    medicat = [json.loads(x) for x in (DATA / "medicat_sample" / "sample.jsonl").read_text().splitlines()]
    f_med = fx.features_of_files([DATA / "medicat_sample" / "figures" / f"{m['pdf_hash']}_{m['fig_uri']}"
                                  for m in medicat])
    pred_med = head.predict(f_med)

    print(f"train: {len(train)} figures ({labels.count('radiology')} radiology by weak label); "
          f"held out: {len(test)} figures of 10 Hindawi articles; features {t_feat:.1f} s "
          f"({(len(train) + len(test)) / t_feat:.1f} images/s)\n")
    rows = []
    for name, p, g in (("image filter (EfficientNet-Lite0 + logistic head)", pred, gold_hand),
                       ("image filter", pred, gold_weak),
                       ("caption modality rule (no image)", caption_rule, gold_hand),
                       ("image filter", pred_med, [m["radiology"] for m in medicat])):
        gold_name = ("hand labels" if g is gold_hand else "weak caption labels" if g is gold_weak
                     else "MedICaT sample `radiology` flag")
        prec, rec, *_ = precision_recall(p, g)
        rows.append([name, gold_name, len(g), sum(g), f"{prec:.3f}", f"{rec:.3f}"])
    rows.append(["MedICaT's filter (paper)", "their hand check", "-", "-", "0.96", "0.67"])
    print(format_table(["classifier", "gold", "figures", "positives", "precision", "recall"], rows, markdown=True))
    wrong = [f"{r['article_key']}/{r['figure_id']}:{'FP' if p else 'FN'}"
             for (r, _), p, g in zip(test, pred, gold_hand) if p != g]
    print(f"\nimage filter errors on the hand-labelled figures: {', '.join(wrong) or 'none'}")


if __name__ == "__main__":
    main()
