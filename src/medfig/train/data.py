"""A curated release as training items: image file, caption, inline references, CUIs, split, article.

A release (``medfig curate``) keeps figure rows with ``split`` and, when curated with
``--vocabulary``, ``concepts`` (CUI lists). Panel items come from the build dataset the release
was curated from (``summary.json`` names it): each panel crop with its subcaption, in its
figure's split. The release fingerprint (sha256 of its figures table and summary) goes into every
model's ``config.json`` so a number can be traced to the data it was measured on.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from medfig.dataset import DatasetFolder
from medfig.records import MedfigError

SPLITS = ("train", "valid", "test")


@dataclass
class TrainItem:
    item_id: str  # article_key/figure_id (panels: .../label)
    image: Path
    caption: str
    references: list[str]  # inline-reference sentences citing the figure (or panel)
    cuis: list[str]
    split: str
    article: str
    manual_cuis: list[str] = field(default_factory=list)  # ROCOv2's caption-rule concepts (modality, ...)


@dataclass
class TrainData:
    release: Path
    items: list[TrainItem]
    fingerprint: str
    dropped: dict[str, int] = field(default_factory=dict)  # reason -> figures left out

    def split(self, name: str) -> list[TrainItem]:
        return [it for it in self.items if it.split == name]


@dataclass
class _Release:
    """The parts of a release folder training reads: figure rows and summary.json. (Read here rather
    than through medfig.export's loader, which also opens the build's panels: a task that needs no
    panels keeps working when the build it came from is gone or from another medfig version.)"""

    root: Path
    figures: list[dict]
    summary: dict

    def image_file(self, rec: dict) -> Path | None:
        rel = rec.get("image_path")
        path = self.root / rel if rel else None
        return path if path is not None and path.is_file() else None


def _read_release(path: Path) -> _Release:
    folder = DatasetFolder(path)
    figures = folder.read_rows("figures")
    if figures and "split" not in figures[0]:
        raise MedfigError(f"{folder.table_location('figures')}: figures have no 'split' column; "
                          "run `medfig curate` on the built dataset first")
    summary = folder.read_json("summary.json")
    return _Release(path, figures, summary)


def release_fingerprint(release: _Release) -> str:
    """sha256 of the figures table file(s) and summary.json: changes whenever the release does."""
    folder = DatasetFolder(release.root)
    digest = hashlib.sha256()
    location = Path(folder.table_location("figures"))
    files = sorted(location.rglob("*.parquet")) if location.is_dir() else [location]
    for f in files + [release.root / "summary.json"]:
        if f.is_file():
            digest.update(f.name.encode())
            digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def _sentences(refs) -> list[str]:
    return [r["sentence"].strip() for r in (refs or []) if r and (r.get("sentence") or "").strip()]


def _cuis(rec: dict) -> list[str]:
    """The figure's concepts: vocabulary CUIs plus the caption-rule (manual) ones, as ROCOv2's concept
    files list modality and the rest together; order kept, duplicates dropped."""
    return list(dict.fromkeys([*(rec.get("concepts") or []), *(rec.get("concepts_manual") or [])]))


def load_items(release_path: str | Path, need_cuis: bool = False, panels: bool = False) -> TrainData:
    """Items with an image file and a caption, per split. ``need_cuis``: the release must carry concepts."""
    path = Path(release_path)
    if not path.is_dir():
        raise MedfigError(f"{path}: not found (expected a release folder written by `medfig curate`)")
    release = _read_release(path)
    if not release.figures:
        raise MedfigError(f"{path}: the release has no figures")
    if need_cuis and "concepts" not in release.figures[0]:
        raise MedfigError(f"{path}: the release has no concepts (CUIs); run medfig curate with --vocabulary "
                          "(e.g. ROCOv2's cui_mapping.csv)")
    dropped: dict[str, int] = {}
    items: list[TrainItem] = []
    by_figure: dict[tuple[str, str], dict] = {}
    for rec in release.figures:
        caption = (rec.get("caption_clean") or rec.get("caption") or "").strip()
        image = release.image_file(rec)
        reason = "no_image" if image is None else "empty_caption" if not caption else None
        if reason:
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        by_figure[(rec["article_key"], rec["figure_id"])] = rec
        items.append(TrainItem(f"{rec['article_key']}/{rec['figure_id']}", image, caption,
                               _sentences(rec.get("inline_refs")), _cuis(rec), rec.get("split") or "train",
                               rec["article_key"], list(rec.get("concepts_manual") or [])))
    if panels:
        items = _panel_items(release, by_figure, dropped)
    if not items:
        raise MedfigError(f"{path}: no figure has both an image file and a caption")
    return TrainData(path, items, release_fingerprint(release), dropped)


def _panel_items(release: _Release, by_figure: dict[tuple[str, str], dict], dropped: dict[str, int]) -> list[TrainItem]:
    """Panel crops with subcaptions from the build dataset the release came from; figures without
    panels (single-panel figures) stay as whole figures."""
    dataset = Path(release.summary.get("dataset") or "")
    folder = DatasetFolder(dataset)
    if not dataset.is_dir():
        raise MedfigError(f"{release.root}: --panels needs the build dataset the release was curated from, "
                          f"and {dataset or '(none named in summary.json)'} is not there")
    panels: dict[tuple[str, str], list[dict]] = {}
    for row in folder.read_rows("subfigures", required=False):
        panels.setdefault((row["article_key"], row["figure_id"]), []).append(row)
    items = []
    for key, rec in by_figure.items():
        caption = (rec.get("caption_clean") or rec.get("caption") or "").strip()
        usable = [p for p in panels.get(key, []) if (p.get("subcaption") or "").strip() and p.get("crop_path")
                  and (dataset / p["crop_path"]).is_file()]
        if not usable:
            image = release.image_file(rec)
            items.append(TrainItem(f"{key[0]}/{key[1]}", image, caption, _sentences(rec.get("inline_refs")),
                                   _cuis(rec), rec.get("split") or "train", key[0], list(rec.get("concepts_manual") or [])))
            continue
        dropped["panel_without_subcaption"] = dropped.get("panel_without_subcaption", 0) + len(panels[key]) - len(usable)
        for p in usable:
            items.append(TrainItem(f"{key[0]}/{key[1]}/{p.get('label') or '?'}", dataset / p["crop_path"],
                                   p["subcaption"].strip(), _sentences(p.get("inline_refs")),
                                   _cuis(rec), rec.get("split") or "train", key[0], list(rec.get("concepts_manual") or [])))
    return items


def require_splits(data: TrainData, splits=SPLITS) -> None:
    for s in splits:
        if not data.split(s):
            raise MedfigError(f"{data.release}: the {s} split is empty ({len(data.items)} items); "
                              "a release needs train, valid and test figures (medfig curate --splits)")


def write_config(model_dir: Path, task: str, args: dict, data: TrainData, results: dict) -> Path:
    """``config.json`` next to the weights: task, arguments, release fingerprint, medfig version, results."""
    from medfig import __version__
    from medfig.io import atomic_write_json

    clean = {k: (str(v) if isinstance(v, Path) else v) for k, v in args.items() if not callable(v)}
    config = {"task": task, "args": clean, "release": str(data.release), "release_fingerprint": data.fingerprint,
              "medfig_version": __version__, "items": {s: len(data.split(s)) for s in SPLITS},
              "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "results": results}
    path = model_dir / "config.json"
    atomic_write_json(path, json.loads(json.dumps(config, default=float)))
    return path


def mean_and_standard_error(values: list[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (sample std / sqrt(n)); 0 error for one value."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)
