"""Open a release folder written by ``medfig curate`` for the exporters.

Panels: ``medfig curate`` writes the release's own ``subfigures.parquet``: the kept panels of the
kept figures, with their confidence, so panels ``--min-panel-confidence`` dropped reach no export.
A release curated before it did has none; its panels are then read from the dataset it was
curated from (``summary.json`` ``dataset``). Panel images are cut from the released figure
image with the panel's ``box_px`` (pixels of that same stored image), so exports never
depend on the dataset's crop files. When figures have panels (``n_subfigures`` > 0) but no
subfigures table can be found, ``panels_missing`` says why and the CLI prints it. A panel's
``confidence`` is the calibrated probability that it is a true panel (the stored one, else
recomputed from the stored split: score, letter read, box, caption letters), the number
``medfig curate --min-panel-confidence`` judges by.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from medfig.curate.panel_confidence import panel_confidences
from medfig.dataset import DatasetFolder
from medfig.geometry import PixelBox, pixel_box
from medfig.images import open_image
from medfig.records import MedfigError

SPLITS = ("train", "valid", "test")


@dataclass
class Release:
    root: Path
    figures: list[dict]
    articles: dict[str, dict]
    drops: list[dict]
    summary: dict
    panels: list[dict] = field(default_factory=list)  # subfigures rows of kept figures, in table order
    panels_missing: str | None = None  # why figures with panels have none here (None: nothing missing)
    _panel_index: dict | None = field(default=None, init=False, repr=False)

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

    def panels_of(self, rec: dict) -> list[dict]:
        """The figure's panels (subfigures rows), in the order the splitter wrote them."""
        if self._panel_index is None:
            index: dict[tuple[str, str], list[dict]] = {}
            for panel in self.panels:
                index.setdefault((panel["article_key"], panel["figure_id"]), []).append(panel)
            for figure in self.figures:
                panels = index.get((figure["article_key"], figure["figure_id"]))
                # stored (float32 in Parquet: 4 digits, as the score), or recomputed for a dataset built
                # before subfigures.parquet stored confidence (schema < 3)
                for panel, confidence in zip(panels or [], panel_confidences(figure, panels or [])):
                    panel["confidence"] = confidence
            self._panel_index = index
        return self._panel_index.get((rec["article_key"], rec["figure_id"]), [])

    def panel_png(self, rec: dict, panel: dict) -> bytes | None:
        """The panel cut from the released figure image as PNG bytes; None when the figure has no image."""
        src = self.image_file(rec)
        if src is None:
            return None
        box = panel_box(panel)
        with open_image(src) as im:
            if box[2] > im.width or box[3] > im.height:
                raise MedfigError(f"{src}: panel {panel.get('label')!r} box {list(box)} lies outside the "
                                  f"{im.width}x{im.height} image (the release and its dataset disagree)")
            crop = im.crop(box)
            if crop.mode not in ("RGB", "RGBA", "L"):
                crop = crop.convert("RGB")
            buf = io.BytesIO()
            crop.save(buf, "PNG")
        return buf.getvalue()


def panel_box(panel: dict) -> PixelBox:
    x0, y0, x1, y1 = panel["box_px"]
    return pixel_box(x0, y0, x1, y1)


def _load_panels(release: DatasetFolder, summary: dict, figures: list[dict]) -> tuple[list[dict], str | None]:
    kept = {(r["article_key"], r["figure_id"]) for r in figures}
    with_panels = sum(1 for r in figures if r.get("n_subfigures"))
    source = release
    if not release.has_table("subfigures"):
        dataset = summary.get("dataset")
        source = DatasetFolder(dataset) if dataset else None
        if source is None or not source.has_table("subfigures"):
            if not with_panels:
                return [], None
            where = f"the dataset it was curated from ({dataset})" if dataset else "its summary.json (no 'dataset')"
            return [], (f"{with_panels} figure(s) have panels, but neither {release.root} nor {where} "
                        "holds subfigures.parquet: panels are not exported")
    rows = source.read_rows("subfigures", required=False)
    return [p for p in rows if (p["article_key"], p["figure_id"]) in kept and p.get("box_px")], None


def load_release(path: str | Path, need_splits: bool = True) -> Release:
    folder = DatasetFolder(path)
    figures = folder.read_rows("figures")
    if need_splits and figures and "split" not in figures[0]:
        raise MedfigError(f"{folder.table_location('figures')}: figures have no 'split' column; "
                          "run `medfig curate` on the built dataset first")
    articles = {a["article_key"]: a for a in folder.read_rows("articles", required=False)}
    drops = [row for row in folder.read_rows("exclusions", required=False) if row["phase"] == "curate"]
    summary = folder.read_json("summary.json")
    panels, missing = _load_panels(folder, summary, figures)
    return Release(folder.root, figures, articles, drops, summary, panels, missing)
