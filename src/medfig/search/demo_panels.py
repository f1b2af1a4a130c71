"""``subfigures.parquet`` for a demo dataset, from the demo corpus's exact ground truth.

Until the compound-figure stage lands, this gives a demo dataset real panels (boxes,
subcaptions, crops, panel-citing sentences) so panel search and the figure page can
be tried and tested::

    medfig demo demo-articles --n 5 && medfig build demo-articles -o demo-ds
    python -c "from medfig.search.demo_panels import write_demo_subfigures as w; w('demo-articles', 'demo-ds')"

Boxes are taken from ``ground_truth.json`` (``box_px``: pixels of the figure file) and
rescaled when the stored image has another size. Rows follow the schema that
:mod:`medfig.search.subfigures` reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from medfig.pipeline.atomic import atomic_write_bytes, atomic_write_parquet
from medfig.pipeline.rows import INLINE_REF
from medfig.records import MedfigError

DEMO_MODALITY = {"ct": "CT", "mri": "MRI", "ultrasound": "ultrasound", "xray": "X-ray", "histology": "histology",
                 "fluorescence": "fluorescence", "chart": "chart", "line": "chart", "bar": "chart",
                 "scatter": "chart", "survival": "chart"}

SUBFIGURES = pa.schema([
    ("article_key", pa.string()),
    ("figure_id", pa.string()),
    ("label", pa.string()),
    ("box_px", pa.list_(pa.float64())),  # [x0, y0, x1, y1], pixels of the stored figure image
    ("subcaption", pa.string()),
    ("crop_path", pa.string()),  # relative to the dataset folder
    ("inline_refs", pa.list_(INLINE_REF)),
    ("modality", pa.string()),
])


def _png_crop(image_file: Path, box: list[float]) -> bytes:
    import io

    from PIL import Image

    with Image.open(image_file) as image:
        crop = image.convert("RGB").crop(tuple(int(round(v)) for v in box))
        buffer = io.BytesIO()
        crop.save(buffer, format="PNG")
        return buffer.getvalue()


def write_demo_subfigures(demo_dir: str | Path, dataset: str | Path, *, crops: bool = True) -> int:
    """Write ``dataset/subfigures.parquet`` (and panel crops) from each demo article's ground truth.

    Returns the number of panel rows. ``crops=False`` leaves ``crop_path`` empty (the web app
    then crops on the fly from the figure image and the box).
    """
    demo_dir, dataset = Path(demo_dir), Path(dataset)
    figures = {(f["article_key"], f["figure_id"]): f for f in pq.read_table(dataset / "figures.parquet").to_pylist()}
    rows = []
    for truth_file in sorted(demo_dir.glob("*/ground_truth.json")):
        truth = json.loads(truth_file.read_text())
        article_key = truth_file.parent.name
        for fig in truth["figures"]:
            stored = figures.get((article_key, fig["figure_id"]))
            if stored is None:
                raise MedfigError(f"{truth_file}: figure {fig['figure_id']} is not in {dataset / 'figures.parquet'}")
            if len(fig["panels"]) < 2 or not stored.get("image_path"):
                continue  # single-panel figures stay whole
            scale_x = (stored["width"] or fig["image_size"][0]) / fig["image_size"][0]
            scale_y = (stored["height"] or fig["image_size"][1]) / fig["image_size"][1]
            for panel in fig["panels"]:
                box = [panel["box_px"][0] * scale_x, panel["box_px"][1] * scale_y,
                       panel["box_px"][2] * scale_x, panel["box_px"][3] * scale_y]
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
                    "article_key": article_key, "figure_id": fig["figure_id"], "label": label, "box_px": box,
                    "subcaption": panel["subcaption"], "crop_path": crop_path, "inline_refs": refs,
                    "modality": DEMO_MODALITY.get(panel["modality"], panel["modality"]),
                })
    atomic_write_parquet(dataset / "subfigures.parquet", pa.Table.from_pylist(rows, schema=SUBFIGURES))
    return len(rows)
