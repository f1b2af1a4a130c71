"""Concept detection on a release, ROCOv2's Table 1 analogue, next to a frequency baseline.

A multi-label classifier over the CUIs seen in the train split: EfficientNet-Lite0 (or Lite2)
with a linear head, ROCOv2's recipe: images resized to 1.25x the input size and cropped back
(random crop and horizontal/vertical flips in training, centre crop otherwise),
``MultiLabelSoftMarginLoss``, a sigmoid threshold starting at 0.5 and tuned on the valid split.
``frozen`` (CPU default): backbone features of the centre crop and of its mirror image are
computed once (the mirror is the augmentation) and only the head trains.

The frequency baseline predicts the k most frequent training CUIs for every image, k tuned on
valid (k = 0 predicts nothing). Scores: ImageCLEF's sample-averaged F1
(``medfig.evaluate.concept_metrics``) on the test split, and its secondary F1 on the manual
(caption-rule) concepts. Test predictions and gold go to ``test_concepts.csv`` and
``test_concepts_gold.csv`` (ROCOv2 form: ``ID,CUIs``), so ``medfig evaluate concepts`` re-scores them.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medfig.records import MedfigError
from medfig.train.backbones import image_features, load_image_backbone, load_rgb, pooled_features, preprocess
from medfig.train.common import (cached_array, prepare_model_dir, progress_bar, resolve_device, save_weights,
                                 seed_everything, single_thread)
from medfig.train.data import TrainItem, load_items, require_splits, write_config

THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.05, 0.96, 0.05))


@dataclass
class ConceptOptions:
    backbone: str = "lite0"
    frozen: bool = True
    device: str = "cpu"
    epochs: int = 40
    batch_size: int = 32
    lr: float = 1e-3
    seed: int = 0
    cache_dir: Path | None = None
    quiet: bool = False


@dataclass
class ConceptResult:
    model_dir: Path
    model: dict  # {"f1", "f1_manual", "images", "threshold"}
    baseline: dict  # {"f1", "f1_manual", "images", "k"}
    labels: int
    items: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def gold_of(items: list[TrainItem]) -> dict[str, set[str]]:
    return {it.item_id: set(it.cuis) for it in items}


def frequency_ranking(train: list[TrainItem]) -> list[str]:
    """Training CUIs, most frequent first (ties by CUI, so the ranking is reproducible)."""
    counts = Counter(c for it in train for c in set(it.cuis))
    return sorted(counts, key=lambda c: (-counts[c], c))


def frequency_baseline(train: list[TrainItem], valid: list[TrainItem], max_k: int = 20) -> tuple[int, list[str]]:
    """(k, the k CUIs): the k most frequent training CUIs, k in 0..max_k chosen by valid F1."""
    from medfig.evaluate.concept_metrics import concept_f1

    ranking = frequency_ranking(train)
    gold = gold_of(valid)
    best_k, best_f1 = 0, -1.0
    for k in range(0, min(max_k, len(ranking)) + 1):
        top = set(ranking[:k])
        f1 = concept_f1({i: top for i in gold}, gold)
        if f1 > best_f1:  # strict: the smallest k among equals
            best_k, best_f1 = k, f1
    return best_k, ranking[:best_k]


def _scores(pred: dict[str, set[str]], items: list[TrainItem]) -> dict:
    from medfig.evaluate.concept_metrics import concept_scores

    manual = {it.item_id: set(it.manual_cuis) for it in items}
    return concept_scores(pred, gold_of(items), manual if any(manual.values()) else None)


def _predict(probs: np.ndarray, labels: list[str], items: list[TrainItem], threshold: float) -> dict[str, set[str]]:
    return {it.item_id: {labels[j] for j in np.flatnonzero(p >= threshold)} for it, p in zip(items, probs)}


def train_concepts(release: str | Path, model_dir: str | Path, opts: ConceptOptions) -> ConceptResult:
    from medfig.evaluate.concept_metrics import concept_f1, write_concepts_csv

    t0 = time.perf_counter()
    device = resolve_device(opts.device)
    data = load_items(release, need_cuis=True)
    require_splits(data)
    train, valid, test = data.split("train"), data.split("valid"), data.split("test")
    labels = frequency_ranking(train)
    if not labels:
        raise MedfigError(f"{data.release}: no training figure has a concept (CUI); curate with --vocabulary "
                          "and a --min-concept-frequency the release can meet")
    out = prepare_model_dir(model_dir)
    rng = seed_everything(opts.seed)
    k, top = frequency_baseline(train, valid)
    baseline = {**_scores({it.item_id: set(top) for it in test}, test), "k": k}
    targets = np.array([[c in set(it.cuis) for c in labels] for it in train], dtype=np.float32)
    if opts.frozen:
        model, valid_probs, test_probs = _fit_frozen(data, targets, len(labels), rng, opts, device)
    else:
        model, valid_probs, test_probs = _fit_end_to_end(train, valid, test, targets, len(labels), rng, opts, device)
    valid_gold = gold_of(valid)
    threshold = max(THRESHOLDS, key=lambda t: (concept_f1(_predict(valid_probs, labels, valid, t), valid_gold),
                                                -abs(t - 0.5)))  # ties: the one nearest ROCOv2's 0.5
    pred = _predict(test_probs, labels, test, threshold)
    scores = {**_scores(pred, test), "threshold": threshold}
    write_concepts_csv(out / "test_concepts.csv", pred)
    write_concepts_csv(out / "test_concepts_gold.csv", gold_of(test))
    write_concepts_csv(out / "test_concepts_baseline.csv", {it.item_id: set(top) for it in test})
    save_weights(out / "weights.pt", {"labels": labels, "state": model})
    result = ConceptResult(out, scores, baseline, len(labels), {s: len(data.split(s)) for s in ("train", "valid", "test")},
                           time.perf_counter() - t0)
    write_config(out, "concepts", vars(opts), data, {"model": scores, "frequency_baseline": baseline,
                                                     "labels": len(labels), "seconds": result.seconds,
                                                     "dropped": data.dropped})
    return result


def _head(n_labels: int):
    import torch

    return torch.nn.Sequential(torch.nn.Dropout(0.2), torch.nn.Linear(1280, n_labels))


def _fit_frozen(data, targets: np.ndarray, n_labels: int, rng, opts: ConceptOptions, device: str):
    import torch

    splits = {s: [it.image for it in data.split(s)] for s in ("train", "valid", "test")}
    bar = progress_bar(sum(len(v) for v in splits.values()) + len(splits["train"]), f"{opts.backbone} features", opts.quiet)
    feats = {s: cached_array(opts.cache_dir, ["concepts", opts.backbone, "crop", *paths],
                             lambda: image_features(paths, opts.backbone, "crop", device, progress=bar))
             for s, paths in splits.items()}
    mirrored = cached_array(opts.cache_dir, ["concepts", opts.backbone, "crop-flip", *splits["train"]],
                            lambda: image_features(splits["train"], opts.backbone, "crop", device, progress=bar, flipped=True))
    bar.close()
    x = torch.from_numpy(np.concatenate([feats["train"], mirrored])).to(device)
    y = torch.from_numpy(np.concatenate([targets, targets])).to(device)
    with single_thread():
        return _fit_head(feats, x, y, n_labels, rng, opts, device)


def _fit_head(feats: dict, x, y, n_labels: int, rng, opts: ConceptOptions, device: str):
    import torch

    head = _head(n_labels).to(device)
    optimiser = torch.optim.AdamW(head.parameters(), lr=opts.lr, weight_decay=1e-4)
    loss_fn = torch.nn.MultiLabelSoftMarginLoss()
    bar = progress_bar(opts.epochs, "concept head", opts.quiet)
    for _ in range(opts.epochs):
        head.train()
        order = torch.from_numpy(rng.permutation(len(x))).to(device)
        for start in range(0, len(order), opts.batch_size):
            idx = order[start:start + opts.batch_size]
            loss = loss_fn(head(x[idx]), y[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        bar.update(1)
        bar.set_postfix(loss=f"{loss.item():.4f}")
    bar.close()
    head.eval()
    with torch.no_grad():
        probs = {s: torch.sigmoid(head(torch.from_numpy(feats[s]).to(device))).cpu().numpy() for s in ("valid", "test")}
    return {k: v.cpu() for k, v in head.state_dict().items()}, probs["valid"], probs["test"]


def _fit_end_to_end(train, valid, test, targets: np.ndarray, n_labels: int, rng, opts: ConceptOptions, device: str):
    import torch

    trunk, size = load_image_backbone(opts.backbone)
    model = torch.nn.ModuleDict({"trunk": trunk, "head": _head(n_labels)}).to(device)
    optimiser = torch.optim.AdamW([{"params": model["trunk"].parameters(), "lr": opts.lr / 10},
                                   {"params": model["head"].parameters(), "lr": opts.lr}], weight_decay=1e-4)
    loss_fn = torch.nn.MultiLabelSoftMarginLoss()
    images = {id(it): load_rgb(it.image) for it in [*train, *valid, *test]}  # a small release fits in memory
    y = torch.from_numpy(targets)
    bar = progress_bar(opts.epochs * len(train), f"concepts {opts.backbone} (end to end)", opts.quiet)
    for _ in range(opts.epochs):
        model.train()
        order = rng.permutation(len(train))
        for start in range(0, len(order), opts.batch_size):
            idx = order[start:start + opts.batch_size]
            if len(idx) < 2:  # batch norm needs two
                continue
            batch = torch.from_numpy(np.stack([preprocess(images[id(train[i])], size, "train", rng) for i in idx])).to(device)
            loss = loss_fn(model["head"](pooled_features(model["trunk"], batch)), y[idx].to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            bar.update(len(idx))
            bar.set_postfix(loss=f"{loss.item():.4f}")
    bar.close()
    model.eval()

    def probs(items):
        out = []
        with torch.no_grad():
            for start in range(0, len(items), 64):
                batch = np.stack([preprocess(images[id(it)], size, "crop") for it in items[start:start + 64]])
                logits = model["head"](pooled_features(model["trunk"], torch.from_numpy(batch).to(device)))
                out.append(torch.sigmoid(logits).cpu().numpy())
        return np.concatenate(out)

    return {k: v.cpu() for k, v in model.state_dict().items()}, probs(valid), probs(test)
