"""Hugging Face-ready parquet: ``data/<split>-00000-of-00001.parquet`` with the image bytes inside.

``datasets.load_dataset("parquet", data_dir=OUT)`` (or ``data_files={"train": ...}``)
reads it; the schema carries the ``huggingface`` metadata that marks ``image`` as an
``Image`` feature, so images come back decoded as PIL images.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from medfig.export.release import SPLITS, Release
from medfig.io import atomic_write_parquet

SCHEMA = pa.schema([
    ("image", pa.struct([("bytes", pa.binary()), ("path", pa.string())])),
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
    ("license", pa.string()),
    ("attribution", pa.string()),
])
HF_FEATURES = {
    "image": {"_type": "Image"},
    **{name: {"dtype": "string", "_type": "Value"} for name in
       ("id", "article_key", "figure_id", "pmcid", "doi", "label", "caption", "modality", "license", "attribution")},
    **{name: {"feature": {"dtype": "string", "_type": "Value"}, "_type": "Sequence"} for name in
       ("inline_refs", "concepts", "concepts_manual")},
}


def export_hf(release: Release, out: str | Path) -> dict[str, int]:
    out = Path(out)
    schema = SCHEMA.with_metadata({"huggingface": json.dumps({"info": {"features": HF_FEATURES}})})
    counts = {}
    for split, recs in release.by_split().items():
        if split not in SPLITS or not recs:
            continue
        rows = []
        for rec in recs:
            src = release.image_file(rec)
            if src is None:
                continue
            rows.append({
                "image": {"bytes": src.read_bytes(), "path": src.name},
                "id": f"{rec['article_key']}/{rec['figure_id']}",
                "article_key": rec["article_key"], "figure_id": rec["figure_id"],
                "pmcid": rec.get("pmcid"), "doi": rec.get("doi"), "label": rec.get("label"),
                "caption": rec.get("caption_clean") or rec.get("caption"),
                "inline_refs": [r.get("sentence") for r in rec.get("inline_refs") or []],
                "modality": rec.get("modality"), "concepts": list(rec.get("concepts") or []),
                "concepts_manual": list(rec.get("concepts_manual") or []),
                "license": rec.get("licence_effective") or rec.get("licence_spdx"),
                "attribution": rec.get("attribution"),
            })
        atomic_write_parquet(out / "data" / f"{split}-00000-of-00001.parquet", pa.Table.from_pylist(rows, schema=schema))
        counts[split] = len(rows)
    return counts
