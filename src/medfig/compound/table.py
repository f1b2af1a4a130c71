"""``subfigures.parquet``: one row per panel of a compound figure.

Columns (boxes in pixels of the stored figure image, origin top-left, ``[x0, y0, x1, y1]``;
subcaption spans are ``[start, end)`` character offsets into the figure's caption):
article_key, figure_id, label, label_source, box_px, score, subcaption, subcaption_spans,
crop_path (relative to the dataset folder), inline_refs (the sentences citing this panel,
same struct as figures.parquet's inline_refs), confidence (calibrated probability that the
panel is right, :mod:`medfig.compound.confidence`).
"""

from __future__ import annotations

import pyarrow as pa

from medfig.records import Subfigure
from medfig.schema import SUBFIGURES


def subfigure_rows(article_key: str, subfigures: list[Subfigure]) -> list[dict]:
    """Rows of SUBFIGURES for the subfigures of one article."""
    return [
        {
            "article_key": article_key,
            "figure_id": s.figure_id,
            "label": s.label,
            "label_source": s.label_source,
            "box_px": [int(v) for v in s.box_px],
            "score": float(s.score),
            "subcaption": s.subcaption,
            "subcaption_spans": [[int(a), int(b)] for a, b in s.subcaption_spans],
            "crop_path": s.crop_file,
            "confidence": None if s.confidence is None else float(s.confidence),
            "inline_refs": [
                {
                    "sentence": r.sentence,
                    "section": r.section,
                    "mention": r.mention,
                    "panels": list(r.panels),
                    "paragraph_index": r.paragraph_index,
                    "sentence_index": r.sentence_index,
                }
                for r in s.inline_refs
            ],
        }
        for s in subfigures
    ]


def subfigures_table(rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=SUBFIGURES)
