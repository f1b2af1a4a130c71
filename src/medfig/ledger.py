"""The exclusion ledger: why an article or a figure is not in a dataset or a release.

Every place that loses something writes it here in one shape (``medfig.schema.EXCLUSIONS``):

- build, per article: a failed article (its error), a problem met on the way (PDF not
  readable, a crop that failed), an article removed (retracted, withdrawn, gone from the input);
- build, per figure: a figure kept as a row but without an image (``image_status`` is not
  ``ok``: the release will not have it);
- curate, per figure: every drop of a curate step (licence, caption, language, duplicate ...).

A release's ledger holds the build's rows and its own, so ``medfig why`` answers from one table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from medfig.dataset import DatasetFolder
from medfig.records import Exclusion

BUILD, CURATE = "build", "curate"


def build_exclusions(figures: list[dict], errors: list[dict], removed: list[dict]) -> list[dict]:
    """Ledger rows of one shard of a build, from its figure, error and removed rows.

    An image error that belongs to a figure without an image becomes that figure's row (the
    error names the file), not a second, article-level row."""
    unstored = [f for f in figures if f["image_status"] != "ok"]
    by_message = {(f["article_key"], f["image_error"]): f for f in unstored if f.get("image_error")}
    file_of: dict[tuple[str, str], str | None] = {}
    rows: list[Exclusion] = []
    for error in errors:
        figure = by_message.get((error["article_key"], error["message"])) if error["stage"] == "image" else None
        if figure is not None:
            file_of[(figure["article_key"], figure["figure_id"])] = error["file"]
            continue
        rows.append(Exclusion(error["article_key"], None, BUILD, error["stage"], f"{error['stage']}_error",
                              error["message"], error["file"]))
    for figure in unstored:
        key = (figure["article_key"], figure["figure_id"])
        rows.append(Exclusion(key[0], key[1], BUILD, "image", f"image_{figure['image_status']}",
                              figure.get("image_error") or "", file_of.get(key, figure.get("graphic_file"))))
    for gone in removed:
        rows.append(Exclusion(gone["article_key"], None, BUILD, "removed", gone["reason"].replace(" ", "_"),
                              gone.get("detail") or ""))
    return [asdict(row) for row in rows]


def curate_exclusions(drops: list[dict], figures_by_key: dict[tuple[str, str], dict]) -> list[dict]:
    """Ledger rows of curate's drops; ``file`` is the dropped figure's stored image."""
    return [asdict(Exclusion(d["article_key"], d["figure_id"], CURATE, d["step"], d["reason"], d.get("detail") or "",
                             (figures_by_key.get((d["article_key"], d["figure_id"])) or {}).get("image_path")))
            for d in drops]


@dataclass
class Answer:
    """What ``medfig why`` found for one article or figure."""

    article_key: str
    figure_id: str | None
    present: bool  # the article (or figure) has a row in the folder's figures table
    split: str | None  # its split when the folder is a release
    exclusions: list[dict]

    def text(self) -> str:
        name = self.article_key + (f"/{self.figure_id}" if self.figure_id else "")
        lines = []
        if self.present and not self.exclusions:
            where = f" (split {self.split})" if self.split else ""
            lines.append(f"{name}: present{where}; nothing excluded")
        elif self.present:
            lines.append(f"{name}: present, with these problems or exclusions:")
        elif self.exclusions:
            lines.append(f"{name}: not present, because:")
        else:
            lines.append(f"{name}: not present and not in the ledger: it was not in the input of this build")
        for row in self.exclusions:
            target = row["figure_id"] or "(article)"
            line = f"  [{row['phase']}/{row['step']}] {target}: {row['reason']}"
            if row.get("detail"):
                line += f": {row['detail']}"
            if row.get("file"):
                line += f" (file: {row['file']})"
            lines.append(line)
        return "\n".join(lines)


def why(folder: str, article_key: str, figure_id: str | None = None) -> Answer:
    """Why ``article_key`` (or its figure ``figure_id``) is or is not in the dataset or release ``folder``.

    Article-level rows (``figure_id`` null) explain every figure of the article."""
    store = DatasetFolder(folder)
    ledger = store.read_rows("exclusions")
    figures = [f for f in store.read_rows("figures") if f["article_key"] == article_key]
    if figure_id is not None:
        figures = [f for f in figures if f["figure_id"] == figure_id]
    rows = [r for r in ledger if r["article_key"] == article_key
            and (figure_id is None or r["figure_id"] in (None, figure_id))]
    split = figures[0].get("split") if len(figures) == 1 else None
    return Answer(article_key, figure_id, bool(figures), split, rows)
