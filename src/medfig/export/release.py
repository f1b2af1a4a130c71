"""Open a release folder written by ``medfig curate`` for the exporters."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from medfig.records import MedfigError

SPLITS = ("train", "valid", "test")


@dataclass
class Release:
    root: Path
    figures: list[dict]
    articles: dict[str, dict]
    drops: list[dict]
    summary: dict

    def by_split(self) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {s: [] for s in SPLITS}
        for r in self.figures:
            out.setdefault(r.get("split") or "train", []).append(r)
        return out

    def image_file(self, rec: dict) -> Path | None:
        rel = rec.get("image_path")
        if not rel:
            return None
        path = self.root / rel
        return path if path.is_file() else None


def load_release(path: str | Path, need_splits: bool = True) -> Release:
    root = Path(path)
    fig_file = root / "figures.parquet"
    if not fig_file.is_file():
        raise MedfigError(f"{fig_file}: not found (is {root} a release written by `medfig curate`?)")
    figures = pq.read_table(fig_file).to_pylist()
    if need_splits and figures and "split" not in figures[0]:
        raise MedfigError(f"{fig_file}: figures have no 'split' column; run `medfig curate` on the built dataset first")
    art_file, drops_file, summary_file = root / "articles.parquet", root / "drops.parquet", root / "summary.json"
    articles = {a["article_key"]: a for a in pq.read_table(art_file).to_pylist()} if art_file.exists() else {}
    drops = pq.read_table(drops_file).to_pylist() if drops_file.is_file() else []
    summary = json.loads(summary_file.read_text()) if summary_file.is_file() else {}
    return Release(root, figures, articles, drops, summary)
