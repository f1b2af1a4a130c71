"""Reader for ``subfigures.parquet``, the compound-figure stage's output.

Expected schema (one row per panel; written by the compound-figure step)::

    article_key   string
    figure_id     string            the parent <fig> id (figures.parquet figure_id)
    label         string | null     panel letter as printed without brackets ("a", "B"); null for unlabelled
    box_px        list<float>[4]    [x0, y0, x1, y1] in pixels of the stored figure image, origin top-left
    subcaption    string | null     the panel's description taken from the caption
    crop_path     string | null     the panel crop, relative to the dataset folder
    inline_refs   list<struct>      citing sentences (same struct as figures.parquet inline_refs)

Column aliases accepted, so the reader survives small naming differences:
``box`` / ``bbox_px`` for ``box_px`` and ``crop_file`` / ``image_path`` for ``crop_path`` (the
names of medfig.records.Subfigure). Optional
columns ``modality`` (string) and ``concepts`` (list<string>) are used when present.
A file that lacks a required column raises :class:`MedfigError` naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from medfig.records import MedfigError

SUBFIGURES_FILE = "subfigures.parquet"
REQUIRED = ("figure_id", "label")
ALIASES = {"box_px": ("box_px", "box", "bbox_px"), "crop_path": ("crop_path", "crop_file", "image_path")}


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


def _pick(columns: list[str], name: str) -> str | None:
    for candidate in ALIASES.get(name, (name,)):
        if candidate in columns:
            return candidate
    return None


def read_subfigures(dataset_root: Path) -> list[PanelRow] | None:
    """Panels of ``dataset_root/subfigures.parquet``; None when the file does not exist."""
    path = Path(dataset_root) / SUBFIGURES_FILE
    if not path.is_file():
        return None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several types for a corrupt file
        raise MedfigError(f"{path}: cannot read parquet ({exc})") from exc
    columns = table.column_names
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise MedfigError(f"{path}: missing column(s) {', '.join(missing)} (have: {', '.join(columns)})")
    box_col, crop_col = _pick(columns, "box_px"), _pick(columns, "crop_path")
    panels = []
    for row in table.to_pylist():
        box = row.get(box_col) if box_col else None
        if box is not None and len(box) != 4:
            raise MedfigError(f"{path}: {row['figure_id']} panel {row['label']!r}: box must be [x0, y0, x1, y1]")
        concepts = row.get("concepts") or []
        panels.append(
            PanelRow(
                article_key=row.get("article_key"),
                figure_id=row["figure_id"],
                label=row["label"],
                box_px=[float(v) for v in box] if box is not None else None,
                subcaption=row.get("subcaption"),
                crop_path=row.get(crop_col) if crop_col else None,
                inline_refs=list(row.get("inline_refs") or []),
                modality=row.get("modality"),
                concepts=[c if isinstance(c, str) else (c.get("name") or c.get("cui")) for c in concepts],
            )
        )
    return panels
