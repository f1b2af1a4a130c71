"""Panels of ``subfigures.parquet`` (schema :data:`medfig.schema.SUBFIGURES`) as search reads them.

The table is read through :class:`medfig.dataset.DatasetFolder`, so a sharded build's
``subfigures.parquet/`` folder of parts reads like a single file. Optional columns
``modality`` (string) and ``concepts`` (list of strings or of ``{cui, name}``) are used when
a later stage adds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medfig.dataset import DatasetFolder


@dataclass(slots=True)
class PanelRow:
    """One panel of a compound figure. ``box_px``: [x0, y0, x1, y1], pixels of the stored figure image."""

    article_key: str | None
    figure_id: str
    label: str | None
    box_px: list[float] | None
    subcaption: str | None = None
    crop_path: str | None = None
    inline_refs: list[dict] = field(default_factory=list)
    modality: str | None = None
    concepts: list[str] = field(default_factory=list)


def read_subfigures(dataset_root: Path) -> list[PanelRow] | None:
    """Panels of the dataset at ``dataset_root``; None when it has no subfigures table.

    A table without the SUBFIGURES columns raises MedfigError naming the file."""
    folder = DatasetFolder(dataset_root)
    if not folder.has_table("subfigures"):
        return None
    panels = []
    for row in folder.read_rows("subfigures"):
        box = row["box_px"]
        concepts = row.get("concepts") or []
        panels.append(
            PanelRow(
                article_key=row["article_key"],
                figure_id=row["figure_id"],
                label=row["label"],
                box_px=[float(v) for v in box] if box is not None else None,
                subcaption=row["subcaption"],
                crop_path=row["crop_path"],
                inline_refs=list(row["inline_refs"] or []),
                modality=row.get("modality"),
                concepts=[c if isinstance(c, str) else (c.get("name") or c.get("cui")) for c in concepts],
            )
        )
    return panels
