"""Read a dataset that ``medfig build`` wrote, for notebooks and later stages.

>>> ds = load_dataset("demo-dataset")
>>> ds.figures.to_pandas()[["label", "caption"]]      # doctest: +SKIP
>>> ds.image(ds.figures.to_pylist()[0])                # PIL image of the first figure
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from medfig.records import MedfigError


@dataclass(frozen=True)
class Dataset:
    root: Path
    figures: pa.Table
    articles: pa.Table
    errors: pa.Table
    stats: dict

    def image_file(self, figure_row: dict) -> Path | None:
        """Absolute path of a figure row's stored image (None when the row has no image)."""
        relative = figure_row.get("image_path")
        return self.root / relative if relative else None

    def image(self, figure_row: dict):
        from PIL import Image

        path = self.image_file(figure_row)
        if path is None:
            raise MedfigError(f"{figure_row.get('article_key')}/{figure_row.get('figure_id')}: no stored image "
                              f"(image_status={figure_row.get('image_status')})")
        return Image.open(path)


def load_dataset(path: str | Path) -> Dataset:
    """Open the tables of a built dataset folder; raises MedfigError naming what is missing."""
    root = Path(path)
    tables = {}
    for name in ("figures", "articles", "errors"):
        file = root / f"{name}.parquet"
        if not file.is_file():
            raise MedfigError(f"{file}: not found (is {root} a folder written by `medfig build`?)")
        tables[name] = pq.read_table(file)
    stats_file = root / "stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.is_file() else {}
    return Dataset(root=root, stats=stats, **tables)
