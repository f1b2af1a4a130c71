"""``subfigures.parquet`` for a built demo dataset, from the demo corpus's exact ground truth.

The panel-level search benchmarks (search_retrieval.py's demo run, search_pageload.py) need
panels whose boxes, subcaptions and citing sentences are known exactly. This was
``medfig.search.demo_panels`` until the library dropped it (commit 4719c8f: search tests now
use a real build's panels); the benchmarks keep it here, unchanged in what it writes.

Boxes come from ``ground_truth.json`` (``box_px``: pixels of the figure file), rescaled when
the stored image has another size and rounded to whole pixels (the schema's int32; the crops
were always cut at the rounded box). Rows follow :data:`medfig.schema.SUBFIGURES` (label_source,
score and subcaption_spans left empty: the panels come from ground truth, not from a splitter)
plus ``modality``, which search uses when present.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from medfig.io import atomic_write_bytes, atomic_write_parquet
from medfig.schema import SUBFIGURES

DEMO_MODALITY = {"ct": "CT", "mri": "MRI", "ultrasound": "ultrasound", "xray": "X-ray", "histology": "histology",
                 "fluorescence": "fluorescence", "chart": "chart", "line": "chart", "bar": "chart",
                 "scatter": "chart", "survival": "chart"}

DEMO_SUBFIGURES = SUBFIGURES.append(pa.field("modality", pa.string()))


def _png_crop(image_file: Path, box: list[int]) -> bytes:
    from PIL import Image

    with Image.open(image_file) as image:
        crop = image.convert("RGB").crop(tuple(box))
        buffer = io.BytesIO()
        crop.save(buffer, format="PNG")
        return buffer.getvalue()


def write_demo_subfigures(demo_dir: str | Path, dataset: str | Path, *, crops: bool = True) -> int:
    """Write ``dataset/subfigures.parquet`` (and panel crops) from each demo article's ground truth;
    the number of panel rows. ``crops=False`` leaves ``crop_path`` empty."""
    demo_dir, dataset = Path(demo_dir), Path(dataset)
    figures = {(f["article_key"], f["figure_id"]): f for f in pq.read_table(dataset / "figures.parquet").to_pylist()}
    rows = []
    for truth_file in sorted(demo_dir.glob("*/ground_truth.json")):
        truth = json.loads(truth_file.read_text())
        article_key = truth_file.parent.name
        for fig in truth["figures"]:
            stored = figures.get((article_key, fig["figure_id"]))
            if stored is None:
                raise ValueError(f"{truth_file}: figure {fig['figure_id']} is not in {dataset / 'figures.parquet'}")
            if len(fig["panels"]) < 2 or not stored.get("image_path"):
                continue  # single-panel figures stay whole
            scale_x = (stored["width"] or fig["image_size"][0]) / fig["image_size"][0]
            scale_y = (stored["height"] or fig["image_size"][1]) / fig["image_size"][1]
            for panel in fig["panels"]:
                box = [int(round(v)) for v in (panel["box_px"][0] * scale_x, panel["box_px"][1] * scale_y,
                                               panel["box_px"][2] * scale_x, panel["box_px"][3] * scale_y)]
                label = panel["label"]
                crop_path = None
                if crops:
                    crop_path = f"subfigures/{article_key}/{fig['figure_id']}_{label}.png"
                    atomic_write_bytes(dataset / crop_path, _png_crop(dataset / stored["image_path"], box))
                refs = [
                    {"sentence": r["sentence"], "section": r.get("section"), "mention": r["mention"],
                     "panels": r["panels"], "paragraph_index": 0, "sentence_index": 0}
                    for r in truth["inline_refs"]
                    if r["figure_id"] == fig["figure_id"] and label.lower() in {p.lower() for p in r["panels"]}
                ]
                rows.append({
                    "article_key": article_key, "figure_id": fig["figure_id"], "label": label, "label_source": None,
                    "box_px": box, "score": None, "subcaption": panel["subcaption"], "subcaption_spans": None,
                    "crop_path": crop_path, "inline_refs": refs,
                    "modality": DEMO_MODALITY.get(panel["modality"], panel["modality"]),
                })
    atomic_write_parquet(dataset / "subfigures.parquet", pa.Table.from_pylist(rows, schema=DEMO_SUBFIGURES))
    return len(rows)
