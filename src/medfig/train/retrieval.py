"""Image-text retrieval on a release, MedICaT's Table 3 analogue.

Two towers, EfficientNet-Lite0 for images and MiniLM-L6 for text, each with a linear projection
into a shared space, trained with the symmetric InfoNCE loss (CLIP's: cross-entropy over the
in-batch similarity matrix, image->text and text->image, learned temperature). Text is either the
caption alone (``captions``) or caption + inline references, the references as the second segment
(token type 1, ``captions+references``), as MedICaT. Evaluation is always on captions alone, on
the test split: every test caption ranks every test image (and the reverse); Recall@1/5/10/20 from
``medfig.evaluate.retrieval_metrics.recall_at_k``. Each seed trains from scratch; the mean and the
standard error over seeds are reported.

``frozen`` (the CPU default): backbone features are computed once and only the projections train,
so a release of a few hundred figures trains in minutes; otherwise both towers train end to end
(``--device cuda``). The epoch kept is the one with the best mean recall on the valid split.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medfig.train.backbones import (IMAGE_FEATURES, TEXT_FEATURES, encode_texts, image_features, load_image_backbone,
                                    load_rgb, load_text_tower, preprocess, references_segment, text_features)
from medfig.train.common import (cached_array, prepare_model_dir, progress_bar, resolve_device, save_weights,
                                 seed_everything, single_thread)
from medfig.train.data import TrainData, load_items, mean_and_standard_error, require_splits, write_config

KS = (1, 5, 10, 20)
TEXT_MODES = ("captions", "captions+references")


@dataclass
class RetrievalOptions:
    text: str = "captions"
    seeds: int = 5
    frozen: bool = True
    device: str = "cpu"
    epochs: int = 30
    batch_size: int = 32
    lr: float = 1e-3
    dim: int = 256
    panels: bool = False
    cache_dir: Path | None = None
    quiet: bool = False


@dataclass
class RetrievalResult:
    model_dir: Path
    recall: dict[str, dict[int, tuple[float, float]]]  # direction -> K -> (mean, standard error)
    per_seed: list[dict] = field(default_factory=list)
    items: dict[str, int] = field(default_factory=dict)
    references_used: int = 0  # training items whose text got a references segment
    seconds: float = 0.0


def _recalls(text_emb: np.ndarray, image_emb: np.ndarray) -> dict[str, dict[int, float]]:
    from medfig.evaluate.retrieval_metrics import recall_at_k

    sim = text_emb @ image_emb.T
    ks = tuple(k for k in KS if k <= sim.shape[0]) or (1,)
    return {"text_to_image": recall_at_k(sim, ks), "image_to_text": recall_at_k(sim.T, ks)}


def _mean_recall(r: dict[str, dict[int, float]]) -> float:
    return float(np.mean([v for d in r.values() for v in d.values()]))


class _Heads:
    """Projections + temperature (and, end to end, the towers), as one torch module."""

    def __init__(self, dim: int, towers: tuple | None = None):
        import torch

        class Module(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.image_proj = torch.nn.Linear(IMAGE_FEATURES, dim)
                self.text_proj = torch.nn.Linear(TEXT_FEATURES, dim)
                self.log_scale = torch.nn.Parameter(torch.tensor(float(np.log(1 / 0.07))))
                if towers is not None:
                    self.image_tower, self.text_tower, self.tokenizer = towers

        self.module = Module()


def _info_nce(image_emb, text_emb, log_scale):
    import torch
    import torch.nn.functional as F

    image_emb, text_emb = F.normalize(image_emb, dim=-1), F.normalize(text_emb, dim=-1)
    logits = log_scale.clamp(max=np.log(100)).exp() * image_emb @ text_emb.T
    target = torch.arange(len(logits), device=logits.device)
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2


def _training_texts(data: TrainData, mode: str) -> tuple[list[str], list[str] | None, int]:
    train = data.split("train")
    captions = [it.caption for it in train]
    if mode == "captions":
        return captions, None, 0
    refs = [references_segment(it.references) for it in train]
    return captions, refs, sum(1 for r in refs if r)


def train_retrieval(release: str | Path, model_dir: str | Path, opts: RetrievalOptions) -> RetrievalResult:
    t0 = time.perf_counter()
    device = resolve_device(opts.device)
    data = load_items(release, panels=opts.panels)
    require_splits(data)
    out = prepare_model_dir(model_dir)
    captions, references, with_refs = _training_texts(data, opts.text)
    test = data.split("test")
    per_seed = []
    if opts.frozen:
        feats = _frozen_features(data, captions, references, opts, device)
    for seed in range(opts.seeds):
        rng = seed_everything(seed)
        if opts.frozen:
            heads = _Heads(opts.dim).module.to(device)
            with single_thread():
                best = _fit_frozen(heads, feats, rng, opts, device, seed)
        else:
            heads = _Heads(opts.dim, _towers()).module.to(device)
            best = _fit_end_to_end(heads, data, captions, references, rng, opts, device, seed)
        heads.load_state_dict(best["state"])
        test_recall = (_eval_frozen(heads, feats["test_image"], feats["test_text"], device) if opts.frozen
                       else _eval_end_to_end(heads, test, device))
        save_weights(out / f"weights-seed{seed}.pt", best["state"])
        per_seed.append({"seed": seed, "best_epoch": best["epoch"], "valid_mean_recall": best["score"],
                         "test": {d: {str(k): v for k, v in r.items()} for d, r in test_recall.items()}})
    recall = {d: {int(k): mean_and_standard_error([s["test"][d][k] for s in per_seed])
                  for k in per_seed[0]["test"][d]} for d in per_seed[0]["test"]}
    result = RetrievalResult(out, recall, per_seed, {s: len(data.split(s)) for s in ("train", "valid", "test")},
                             with_refs, time.perf_counter() - t0)
    args = {k: v for k, v in vars(opts).items()}
    write_config(out, "retrieval", args, data, {
        "recall": {d: {str(k): {"mean": m, "se": se} for k, (m, se) in r.items()} for d, r in recall.items()},
        "per_seed": per_seed, "train_items_with_references": with_refs, "seconds": result.seconds,
        "dropped": data.dropped})
    return result


def _frozen_features(data: TrainData, captions, references, opts: RetrievalOptions, device: str) -> dict:
    splits = {s: data.split(s) for s in ("train", "valid", "test")}
    n_images = sum(len(v) for v in splits.values())
    bar = progress_bar(n_images, "image features", opts.quiet)
    feats = {}
    for s, items in splits.items():
        paths = [it.image for it in items]
        feats[f"{s}_image"] = cached_array(opts.cache_dir, ["image", "lite0", *paths],
                                           lambda: image_features(paths, "lite0", device=device, progress=bar))
    bar.close()
    bar = progress_bar(len(captions) * 2 + len(splits["valid"]) + len(splits["test"]), "text features", opts.quiet)
    feats["train_text"] = cached_array(opts.cache_dir, ["text", captions, references],
                                       lambda: text_features(captions, references, device=device, progress=bar))
    for s in ("valid", "test"):
        texts = [it.caption for it in splits[s]]
        feats[f"{s}_text"] = cached_array(opts.cache_dir, ["text", texts, None],
                                          lambda: text_features(texts, device=device, progress=bar))
    bar.close()
    return feats


def _fit_frozen(heads, feats: dict, rng: np.random.Generator, opts: RetrievalOptions, device: str, seed: int) -> dict:
    import torch

    optimiser = torch.optim.AdamW(heads.parameters(), lr=opts.lr, weight_decay=0.01)
    images = torch.from_numpy(feats["train_image"]).to(device)
    texts = torch.from_numpy(feats["train_text"]).to(device)
    best = {"score": -1.0, "epoch": 0, "state": None}
    bar = progress_bar(opts.epochs, f"retrieval seed {seed}", opts.quiet)
    for epoch in range(1, opts.epochs + 1):
        heads.train()
        order = rng.permutation(len(images))
        for start in range(0, len(order), opts.batch_size):
            idx = torch.from_numpy(order[start:start + opts.batch_size]).to(device)
            if len(idx) < 2:
                continue
            loss = _info_nce(heads.image_proj(images[idx]), heads.text_proj(texts[idx]), heads.log_scale)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        score = _mean_recall(_eval_frozen(heads, feats["valid_image"], feats["valid_text"], device))
        if score > best["score"]:
            best = {"score": score, "epoch": epoch, "state": {k: v.detach().cpu().clone() for k, v in heads.state_dict().items()}}
        bar.update(1)
        bar.set_postfix(loss=f"{loss.item():.3f}", valid=f"{score:.3f}")
    bar.close()
    return best


def _eval_frozen(heads, image_feats: np.ndarray, text_feats: np.ndarray, device: str) -> dict[str, dict[int, float]]:
    import torch
    import torch.nn.functional as F

    heads.eval()
    with torch.no_grad():
        img = F.normalize(heads.image_proj(torch.from_numpy(image_feats).to(device)), dim=-1).cpu().numpy()
        txt = F.normalize(heads.text_proj(torch.from_numpy(text_feats).to(device)), dim=-1).cpu().numpy()
    return _recalls(txt, img)


def _towers() -> tuple:
    image_model, _ = load_image_backbone("lite0")
    tokenizer, text_model = load_text_tower()
    return image_model, text_model, tokenizer


def _embed_end_to_end(heads, paths, texts, second, device: str, train: bool, rng=None):
    import torch

    from medfig.train.backbones import pooled_features

    size = 224
    batch = torch.from_numpy(np.stack([preprocess(load_rgb(p), size, "train" if train else "eval", rng)
                                       for p in paths])).to(device)
    img = heads.image_proj(pooled_features(heads.image_tower, batch))
    txt = heads.text_proj(encode_texts(heads.tokenizer, heads.text_tower, texts, second, device))
    return img, txt


def _fit_end_to_end(heads, data: TrainData, captions, references, rng, opts: RetrievalOptions, device: str, seed: int) -> dict:
    import torch

    towers = list(heads.image_tower.parameters()) + list(heads.text_tower.parameters())
    own = [p for n, p in heads.named_parameters() if not n.startswith(("image_tower.", "text_tower."))]
    optimiser = torch.optim.AdamW([{"params": towers, "lr": opts.lr / 10}, {"params": own, "lr": opts.lr}],
                                  weight_decay=0.01)
    train = data.split("train")
    best = {"score": -1.0, "epoch": 0, "state": None}
    bar = progress_bar(opts.epochs * len(train), f"retrieval seed {seed} (end to end)", opts.quiet)
    for epoch in range(1, opts.epochs + 1):
        heads.train()
        order = rng.permutation(len(train))
        for start in range(0, len(order), opts.batch_size):
            idx = order[start:start + opts.batch_size]
            if len(idx) < 2:
                continue
            img, txt = _embed_end_to_end(heads, [train[i].image for i in idx], [captions[i] for i in idx],
                                         [references[i] for i in idx] if references is not None else None,
                                         device, True, rng)
            loss = _info_nce(img, txt, heads.log_scale)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            bar.update(len(idx))
            bar.set_postfix(loss=f"{loss.item():.3f}")
        score = _mean_recall(_eval_end_to_end(heads, data.split("valid"), device))
        if score > best["score"]:
            best = {"score": score, "epoch": epoch, "state": {k: v.detach().cpu().clone() for k, v in heads.state_dict().items()}}
    bar.close()
    return best


def _eval_end_to_end(heads, items, device: str, batch_size: int = 64) -> dict[str, dict[int, float]]:
    import torch
    import torch.nn.functional as F

    heads.eval()
    imgs, txts = [], []
    with torch.no_grad():
        for start in range(0, len(items), batch_size):
            chunk = items[start:start + batch_size]
            img, txt = _embed_end_to_end(heads, [it.image for it in chunk], [it.caption for it in chunk], None, device, False)
            imgs.append(F.normalize(img, dim=-1).cpu().numpy())
            txts.append(F.normalize(txt, dim=-1).cpu().numpy())
    return _recalls(np.concatenate(txts), np.concatenate(imgs))
