"""Medical filter: precision and recall of MedICaT's keywords alone, the image classifier alone, and both
(keywords, then the classifier as a second chance for keyword misses), per publisher, on hand labels.

Gold: benchmarks/data/medical_filter_labels.json: every figure with an image that medfig builds from
pmc_dev_corpus, each labelled medical / not medical by looking at its image and caption (who, when,
how and the definition are in the file). The development publishers hold almost no medical image, so
the held-out publishers (benchmarks/heldout_publishers.json) are labelled too and reported apart
(marked *); nothing is tuned on any label (the head's threshold is its own 0.5).

The figures are what medfig builds (PDF crops where the package has no figure file):
``--work`` holds the builds (made when missing). ``--train`` first rebuilds the shipped head
(src/medfig/curate/models/medical_image_head.json) from weak caption labels
(medfig.curate.medical_filter.weak_medical_label) over pmc_hindawi_xml_pdf, elife_xml_pdf_pairs and
the pmc_dev_corpus articles that have no hand-labelled figure; the labelled articles never train it, nor
the two Hindawi articles tests/test_curate_medical_filter.py checks (a coronary angiogram, a clinical
photograph).

Run: .venv/bin/python benchmarks/curate_medical_filter.py [--work /tmp/medfig-bench-medfilter] [--train]
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections import defaultdict
from pathlib import Path

from harness import DATA, HAND_LABELS, format_table

LABELS = HAND_LABELS / "medical_filter_labels.json"
HELDOUT = Path(__file__).resolve().parent / "heldout_publishers.json"
TEST_ARTICLES = {"PMC4738934", "PMC4739213"}  # checked by tests/test_curate_medical_filter.py: never trained on


def publisher(article_key: str) -> str:
    return article_key.split("_", 1)[0]


def built(work: Path, name: str, folders: list[Path]) -> Path:
    """A medfig build of ``folders`` under ``work/name`` (copied: discovery does not follow symlinks)."""
    from medfig.pipeline.build import build

    inputs, out = work / f"{name}-in", work / name
    if not (out / "figures.parquet").exists():
        inputs.mkdir(parents=True, exist_ok=True)
        for folder in folders:
            if not (inputs / folder.name).exists():
                shutil.copytree(folder, inputs / folder.name)
        build(inputs, out, workers=2, progress=True, subfigures=False)
    return out


def figures_with_images(dataset: Path) -> dict[tuple[str, str], tuple[dict, Path]]:
    from medfig.vision.image_filter import dataset_images

    return {(r["article_key"], r["figure_id"]): (r, p) for r, p in dataset_images(dataset)}


def train(work: Path, dev: dict, labelled_articles: set[str]) -> None:
    from medfig.curate.medical_filter import DEFAULT_HEAD, weak_medical_label
    from medfig.vision.image_filter import FeatureExtractor, train_head

    hindawi = figures_with_images(built(work, "hindawi", sorted((DATA / "pmc_hindawi_xml_pdf").glob("PMC*"))))
    elife = figures_with_images(built(work, "elife", sorted(p for p in (DATA / "elife_xml_pdf_pairs").iterdir()
                                                             if p.is_dir())))
    pool = [v for k, v in hindawi.items() if k[0] not in TEST_ARTICLES] + list(elife.values())
    pool += [v for k, v in dev.items() if k[0] not in labelled_articles]
    labels = ["medical" if weak_medical_label(r) else "other" for r, _ in pool]
    feats = FeatureExtractor().features_of_files([p for _, p in pool])
    head = train_head(feats, labels, positive="medical", trained_on={
        "figures": len(pool), "medical": labels.count("medical"), "other": labels.count("other"),
        "sources": "pmc_hindawi_xml_pdf (28 of 30 articles: not the two the tests check) + elife_xml_pdf_pairs + "
                   "pmc_dev_corpus articles without a hand-labelled figure", "labels": "weak: medfig.curate.medical_filter.weak_medical_label (caption)",
        "script": "benchmarks/curate_medical_filter.py --train"})
    DEFAULT_HEAD.parent.mkdir(parents=True, exist_ok=True)
    head.save(DEFAULT_HEAD)
    print(f"trained {DEFAULT_HEAD} on {len(pool)} figures ({labels.count('medical')} weakly medical)\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, default=Path("/tmp/medfig-bench-medfilter"))
    ap.add_argument("--train", action="store_true", help="rebuild the shipped head first")
    args = ap.parse_args()
    gold_file = json.loads(LABELS.read_text(encoding="utf-8"))
    gold = {(g["article_key"], g["figure_id"]): g["medical"] for g in gold_file["labels"]}
    split = json.loads(HELDOUT.read_text())
    corpus = sorted(p for p in (DATA / "pmc_dev_corpus").iterdir() if p.is_dir())
    dev = figures_with_images(built(args.work, "dev", [p for p in corpus if publisher(p.name) in split["development"]]))
    dev.update(figures_with_images(built(args.work, "heldout", [p for p in corpus
                                                                  if publisher(p.name) in split["heldout"]])))
    if args.train:
        train(args.work, dev, {k[0] for k in gold})

    from medfig.curate.keywords import medicat_matcher
    from medfig.curate.medical_filter import DEFAULT_HEAD, _texts, names_a_medical_image
    from medfig.vision.image_filter import FeatureExtractor, ImageFilterHead

    keys = [k for k in gold if k in dev]
    missing = [k for k in gold if k not in dev]
    matcher, head = medicat_matcher(), ImageFilterHead.load(DEFAULT_HEAD)
    probs = head.probability(FeatureExtractor().features_of_files([dev[k][1] for k in keys]))
    pred = {"keywords": {}, "image terms": {}, "classifier": {}, "filter": {}}
    for k, p in zip(keys, probs):
        record = dev[k][0]
        kw = bool(matcher.find(_texts(record)))
        terms = bool(names_a_medical_image(record.get("caption") or ""))
        clf = bool(p >= head.threshold)
        pred["keywords"][k], pred["image terms"][k], pred["classifier"][k] = kw, terms, clf
        pred["filter"][k] = kw or terms or clf  # what `medfig curate` keeps: keywords, then the second chance

    groups = defaultdict(list)
    for k in keys:
        name = publisher(k[0])
        groups[name + ("*" if name in split["heldout"] else "")].append(k)
        groups["all development" if name in split["development"] else "all held-out*"].append(k)
    groups["all"] = keys
    rows = []
    for name in [*sorted(g for g in groups if not g.startswith("all")), "all development", "all held-out*", "all"]:
        ks = groups[name]
        row = [name, str(len(ks)), str(sum(gold[k] for k in ks))]
        for method in pred:
            tp = sum(pred[method][k] and gold[k] for k in ks)
            fp = sum(pred[method][k] and not gold[k] for k in ks)
            fn = sum(gold[k] and not pred[method][k] for k in ks)
            row += [f"{tp / (tp + fp):.2f}" if tp + fp else "-", f"{tp / (tp + fn):.2f}" if tp + fn else "-"]
        rows.append(row)
    print(f"hand-labelled figures: {len(gold)} ({len(missing)} without an image in the build, not scored); "
          f"head threshold {head.threshold}\n")
    print("kw: MedICaT's keywords alone; terms: medfig's image-type caption terms alone; clf: the image classifier "
          "alone; filter: keywords, then terms or classifier for misses (what curate keeps)\n")
    print(format_table(["publisher", "figures", "medical", "kw P", "kw R", "terms P", "terms R", "clf P", "clf R",
                        "filter P", "filter R"], rows, markdown=True))


if __name__ == "__main__":
    main()
