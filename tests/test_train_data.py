"""medfig.train.data and the frequency baseline on hand fixtures; the tiny release the train tests share.

The release is made here: coloured-shape images, captions, inline references, CUIs. Three kinds of
figure, each with its own picture, caption words and CUIs, so a model can learn them from a dozen
images: red squares (CT), blue discs (MRI), green bars (ultrasound). Splits are by article.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
from PIL import Image, ImageDraw

from medfig.dataset import DatasetFolder
from medfig.schema import ARTICLES as ARTICLE_SCHEMA
from medfig.schema import FIGURES

KINDS = {
    "ct": ("red", "Axial CT of the chest shows a nodule in the right lung.", ["C0040405", "C0817096"]),
    "mri": ("blue", "MRI of the brain shows a lesion in the left temporal lobe.", ["C0024485", "C0006104"]),
    "us": ("green", "Ultrasound of the abdomen shows a cyst in the liver.", ["C0041618"]),
}
# article -> split; four figures per article (kinds in turn), so every split holds every kind
ARTICLES = {"A1": "train", "A2": "train", "A3": "train", "A4": "train", "A5": "valid", "A6": "test"}
MANUAL = {"ct": ["C0040405"], "mri": ["C0024485"], "us": ["C0041618"]}


def _image(kind: str, variant: int, path: Path) -> None:
    colour = KINDS[kind][0]
    img = Image.new("RGB", (96, 80), "white")
    draw = ImageDraw.Draw(img)
    o = 4 * variant
    if kind == "ct":
        draw.rectangle([10 + o, 10, 60 + o, 60], fill=colour)
    elif kind == "mri":
        draw.ellipse([12 + o, 8, 70 + o, 66], fill=colour)
    else:
        draw.rectangle([5, 30 + o // 2, 90, 44 + o // 2], fill=colour)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def make_release(root: Path, with_concepts: bool = True, with_references: bool = True) -> Path:
    """Write the release folder; returns its path. Train figures of article A1 carry no inline reference."""
    rows = []
    kinds = list(KINDS)
    for article, split in ARTICLES.items():
        for n in range(4):
            kind = kinds[n % 3]
            rel = f"images/{article}/fig{n + 1}.png"
            _image(kind, n, root / rel)
            row = {f.name: None for f in FIGURES}
            row |= {"article_key": article, "figure_id": f"F{n + 1}", "caption": f"Figure {n + 1}. {KINDS[kind][1]}",
                   "image_path": rel, "image_status": "ok", "split": split,
                   "inline_refs": ([{"sentence": f"The {kind} image (Figure {n + 1}) was read by two radiologists.",
                                     "section": "Results", "mention": f"Figure {n + 1}", "panels": [],
                                     "paragraph_index": 0, "sentence_index": n}]
                                   if with_references and article != "A1" else [])}
            if with_concepts:
                row["concepts"] = [c for c in KINDS[kind][2] if c not in MANUAL[kind]]
                row["concepts_manual"] = MANUAL[kind]
            rows.append(row)
    folder = DatasetFolder(root)
    folder.write_table("figures", pa.Table.from_pylist(rows))
    folder.write_table("articles", pa.Table.from_pylist([{f.name: (a if f.name == "article_key" else None) for f in ARTICLE_SCHEMA}
                                                                 for a in ARTICLES]))
    (root / "summary.json").write_text(json.dumps({"dataset": str(root / "no-build"), "figures_kept": len(rows)}))
    return root


# ------------------------------------------------------------------ tests

import math  # noqa: E402

import pytest  # noqa: E402

from medfig.records import MedfigError  # noqa: E402
from medfig.train.data import TrainItem, load_items, mean_and_standard_error  # noqa: E402


def test_items_carry_caption_references_cuis_split(tmp_path):
    data = load_items(make_release(tmp_path / "rel"))
    assert len(data.items) == 24
    assert [len(data.split(s)) for s in ("train", "valid", "test")] == [16, 4, 4]
    first = next(it for it in data.items if it.item_id == "A2/F1")
    assert first.caption == "Figure 1. Axial CT of the chest shows a nodule in the right lung."
    assert first.references == ["The ct image (Figure 1) was read by two radiologists."]
    assert first.cuis == ["C0817096", "C0040405"]  # vocabulary concepts, then the manual ones
    assert first.manual_cuis == ["C0040405"]
    assert first.image.is_file() and first.article == "A2"
    assert next(it for it in data.items if it.item_id == "A1/F1").references == []


def test_fingerprint_follows_the_release(tmp_path):
    root = make_release(tmp_path / "rel")
    before = load_items(root).fingerprint
    assert len(before) == 16 and int(before, 16) >= 0
    assert load_items(root).fingerprint == before
    (root / "summary.json").write_text('{"figures_kept": 23}')
    assert load_items(root).fingerprint != before


def test_release_without_cuis_says_run_curate_with_vocabulary(tmp_path):
    root = make_release(tmp_path / "rel", with_concepts=False)
    with pytest.raises(MedfigError, match="run medfig curate with --vocabulary"):
        load_items(root, need_cuis=True)
    assert len(load_items(root).items) == 24  # retrieval and captions need no CUIs


def test_not_a_release(tmp_path):
    with pytest.raises(MedfigError, match="not found"):
        load_items(tmp_path / "missing")


def test_mean_and_standard_error_by_hand():
    mean, se = mean_and_standard_error([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert se == pytest.approx(1 / math.sqrt(3))  # sample std 1, over sqrt(3)
    assert mean_and_standard_error([0.25]) == (0.25, 0.0)


def _item(i: str, cuis: list[str], split: str) -> TrainItem:
    from pathlib import Path
    return TrainItem(i, Path("x.png"), "c", [], cuis, split, "a")


def test_frequency_baseline_by_hand():
    pytest.importorskip("medfig.evaluate.concept_metrics")
    from medfig.train.concepts import frequency_baseline, frequency_ranking

    train = [_item("t1", ["A", "B"], "train"), _item("t2", ["A", "C"], "train"), _item("t3", ["A", "B"], "train")]
    valid = [_item("v1", ["A"], "valid"), _item("v2", ["A"], "valid"), _item("v3", ["A", "B"], "valid")]
    assert frequency_ranking(train) == ["A", "B", "C"]  # counts 3, 2, 1
    # valid F1: k=0 -> 0; k=1 {A} -> (1 + 1 + 2/3) / 3 = 0.889; k=2 {A,B} -> (2/3 + 2/3 + 1) / 3 = 0.778; k=3 lower
    assert frequency_baseline(train, valid) == (1, ["A"])
    valid_b = [_item("v1", ["A", "B"], "valid"), _item("v2", ["A", "B"], "valid")]
    assert frequency_baseline(train, valid_b) == (2, ["A", "B"])
