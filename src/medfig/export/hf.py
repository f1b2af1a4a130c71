"""Hugging Face dataset folder: two configurations and a dataset card as ``README.md``.

::

    README.md                                   the Hub dataset card (YAML header: licence, tasks,
                                                size, configs; see medfig.export.hub_card)
    data/<split>-00000-of-00001.parquet         config ``figures`` (default): one row per figure
    panels/<split>-00000-of-00001.parquet       config ``panels``: one row per panel of a compound figure

``datasets.load_dataset(OUT)`` reads the figures, ``load_dataset(OUT, "panels")`` the panels
(the card's ``configs`` name the files); images are inside the parquet files and the schema
carries the ``huggingface`` metadata that marks ``image`` as an ``Image`` feature, so they come
back decoded as PIL images. A panel row's image is the panel cut from its figure's image;
``box_px`` is ``[x0, y0, x1, y1]`` in pixels of that figure image; ``parent_id`` is the
figure's ``id``; ``score`` the splitter's score and ``confidence`` the calibrated probability
that the panel is a true panel (null only when no confidence model is shipped).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from medfig.export.release import SPLITS, Release
from medfig.io import atomic_write_parquet

_IMAGE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
SCHEMA = pa.schema([
    ("image", _IMAGE),
    ("id", pa.string()),
    ("article_key", pa.string()),
    ("figure_id", pa.string()),
    ("pmcid", pa.string()),
    ("doi", pa.string()),
    ("label", pa.string()),
    ("caption", pa.string()),
    ("inline_refs", pa.list_(pa.string())),
    ("modality", pa.string()),
    ("concepts", pa.list_(pa.string())),
    ("concepts_manual", pa.list_(pa.string())),
    ("n_panels", pa.int32()),
    ("license", pa.string()),
    ("attribution", pa.string()),
])
PANEL_SCHEMA = pa.schema([
    ("image", _IMAGE),
    ("id", pa.string()),
    ("parent_id", pa.string()),
    ("article_key", pa.string()),
    ("figure_id", pa.string()),
    ("panel_index", pa.int32()),
    ("label", pa.string()),
    ("label_source", pa.string()),
    ("box_px", pa.list_(pa.int32())),
    ("subcaption", pa.string()),
    ("inline_refs", pa.list_(pa.string())),
    ("figure_caption", pa.string()),
    ("score", pa.float32()),
    ("confidence", pa.float32()),
    ("license", pa.string()),
    ("attribution", pa.string()),
])
_STRING = {"dtype": "string", "_type": "Value"}
_STRINGS = {"feature": _STRING, "_type": "Sequence"}
HF_FEATURES = {
    "image": {"_type": "Image"},
    **{name: _STRING for name in
       ("id", "article_key", "figure_id", "pmcid", "doi", "label", "caption", "modality", "license", "attribution")},
    **{name: _STRINGS for name in ("inline_refs", "concepts", "concepts_manual")},
    "n_panels": {"dtype": "int32", "_type": "Value"},
}
HF_PANEL_FEATURES = {
    "image": {"_type": "Image"},
    **{name: _STRING for name in ("id", "parent_id", "article_key", "figure_id", "label", "label_source",
                                  "subcaption", "figure_caption", "license", "attribution")},
    "panel_index": {"dtype": "int32", "_type": "Value"},
    "box_px": {"feature": {"dtype": "int32", "_type": "Value"}, "_type": "Sequence"},
    "inline_refs": _STRINGS,
    "score": {"dtype": "float32", "_type": "Value"},
    "confidence": {"dtype": "float32", "_type": "Value"},
}
FIGURES_DIR, PANELS_DIR = "data", "panels"


def _with_features(schema: pa.Schema, features: dict) -> pa.Schema:
    return schema.with_metadata({"huggingface": json.dumps({"info": {"features": features}})})


def figure_id(rec: dict) -> str:
    return f"{rec['article_key']}/{rec['figure_id']}"


def _licence(rec: dict) -> str | None:
    return rec.get("licence_effective") or rec.get("licence_spdx")


def _figure_row(rec: dict, src: Path, n_panels: int) -> dict:
    return {
        "image": {"bytes": src.read_bytes(), "path": src.name},
        "id": figure_id(rec), "article_key": rec["article_key"], "figure_id": rec["figure_id"],
        "pmcid": rec.get("pmcid"), "doi": rec.get("doi"), "label": rec.get("label"),
        "caption": rec.get("caption_clean") or rec.get("caption"),
        "inline_refs": [r.get("sentence") for r in rec.get("inline_refs") or []],
        "modality": rec.get("modality"), "concepts": list(rec.get("concepts") or []),
        "concepts_manual": list(rec.get("concepts_manual") or []), "n_panels": n_panels,
        "license": _licence(rec), "attribution": rec.get("attribution"),
    }


def _panel_row(release: Release, rec: dict, index: int, panel: dict) -> dict:
    parent = figure_id(rec)
    return {
        "image": {"bytes": release.panel_png(rec, panel), "path": f"{rec['figure_id']}-panel{index}.png"},
        "id": f"{parent}/panel{index}", "parent_id": parent, "article_key": rec["article_key"],
        "figure_id": rec["figure_id"], "panel_index": index, "label": panel.get("label"),
        "label_source": panel.get("label_source"), "box_px": [int(v) for v in panel["box_px"]],
        "subcaption": panel.get("subcaption"),
        "inline_refs": [r.get("sentence") for r in panel.get("inline_refs") or []],
        "figure_caption": rec.get("caption_clean") or rec.get("caption"),
        "score": panel.get("score"), "confidence": panel.get("confidence"),
        "license": _licence(rec), "attribution": rec.get("attribution"),
    }


def _remove_stale_splits(out: Path, counts: dict[str, int], panel_counts: dict[str, int]) -> None:
    """Drop split files a previous export into ``out`` wrote and this one did not (a re-curated
    release with an empty test split): the card would not name them, but a plain
    ``load_dataset("parquet", data_dir=OUT)`` would still read them."""
    for folder, written in ((FIGURES_DIR, counts), (PANELS_DIR, panel_counts)):
        for split in SPLITS:
            stale = out / folder / f"{split}-00000-of-00001.parquet"
            if split not in written and stale.is_file():
                stale.unlink()


def export_hf(release: Release, out: str | Path, *, card: bool = True, pretty_name: str | None = None,
              command: str | None = None) -> dict[str, int]:
    """Write both configurations (and ``README.md`` unless ``card`` is False). Returns figures per
    split and ``panels`` (panel rows over all splits)."""
    out = Path(out)
    figure_schema = _with_features(SCHEMA, HF_FEATURES)
    panel_schema = _with_features(PANEL_SCHEMA, HF_PANEL_FEATURES)
    counts: dict[str, int] = {}
    panel_counts: dict[str, int] = {}
    for split, recs in release.by_split().items():
        if split not in SPLITS or not recs:
            continue
        rows, panel_rows = [], []
        for rec in recs:
            src = release.image_file(rec)
            if src is None:
                continue
            panels = release.panels_of(rec)
            rows.append(_figure_row(rec, src, len(panels)))
            panel_rows += [_panel_row(release, rec, i, p) for i, p in enumerate(panels, 1)]
        if not rows:
            continue
        atomic_write_parquet(out / FIGURES_DIR / f"{split}-00000-of-00001.parquet",
                             pa.Table.from_pylist(rows, schema=figure_schema))
        counts[split] = len(rows)
        if panel_rows:
            atomic_write_parquet(out / PANELS_DIR / f"{split}-00000-of-00001.parquet",
                                 pa.Table.from_pylist(panel_rows, schema=panel_schema))
            panel_counts[split] = len(panel_rows)
    _remove_stale_splits(out, counts, panel_counts)
    if card:
        from medfig.export.hub_card import write_hub_card

        write_hub_card(release, out, counts, panel_counts, pretty_name=pretty_name, command=command)
    return {**counts, "panels": sum(panel_counts.values())}
