"""Open a release folder written by ``medfig curate`` for the exporters."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from medfig.dataset import DatasetFolder
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
    folder = DatasetFolder(path)
    figures = folder.read_rows("figures")
    if need_splits and figures and "split" not in figures[0]:
        raise MedfigError(f"{folder.table_location('figures')}: figures have no 'split' column; "
                          "run `medfig curate` on the built dataset first")
    articles = {a["article_key"]: a for a in folder.read_rows("articles", required=False)}
    drops = [row for row in folder.read_rows("exclusions", required=False) if row["phase"] == "curate"]
    return Release(folder.root, figures, articles, drops, folder.read_json("summary.json"))
