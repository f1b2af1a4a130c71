"""``medfig curate --min-panel-confidence X``: drop figures whose split is not trusted.

The confidence is medfig.compound.confidence's calibrated probability (Platt scaling fitted
on annotated figures), recomputed here from what the build stored, so datasets built before
it existed are judged too:

- a compound figure (``n_subfigures`` > 0): each panel's probability of being a true panel,
  from its ``subfigures.parquet`` row (score, letter read or not, box) and the figure's
  caption and size; the figure's confidence is the mean over its panels;
- a figure kept whole: the probability that it really is single-panel, from whether its
  caption names two or more panel letters (the XY-cut piece count is not stored; taken as
  one piece, which is what "kept whole" usually means).

A figure below the threshold is dropped with reason ``low_panel_confidence`` and the
confidence, the panel count and the weakest panel in the ledger detail. Curated releases
keep figures, not panels, so a split that is not trusted drops its figure.
"""

from __future__ import annotations

from pathlib import Path

from medfig.compound.confidence import figure_features, single_confidence, stored_panel_confidences
from medfig.pipeline.steps import KEEP, Filter, Record, Verdict, drop, note_skip
from medfig.records import MedfigError
from medfig.text.subcaptions import parse_subcaptions


class PanelConfidenceFilter(Filter):
    name = "panel_confidence"

    def __init__(self, dataset: str | Path, threshold: float):
        if not 0.0 <= threshold <= 1.0:
            raise MedfigError(f"--min-panel-confidence must be between 0 and 1, not {threshold}")
        self.dataset = Path(dataset)
        self.threshold = threshold
        self._panels: dict[tuple[str, str], list[dict]] | None = None

    def describe(self) -> str:
        return f"{self.name} >= {self.threshold:g}"

    def _load(self) -> dict[tuple[str, str], list[dict]]:
        if self._panels is None:
            from medfig.dataset import DatasetFolder

            self._panels = {}
            table = DatasetFolder(self.dataset).read_table("subfigures", required=False)
            if table is not None:
                for row in table.to_pylist():
                    self._panels.setdefault((row["article_key"], row["figure_id"]), []).append(row)
        return self._panels

    def confidence(self, record: Record) -> tuple[float | None, str]:
        """(figure confidence, ledger detail) from the stored split."""
        panels = self._load().get((record.get("article_key"), record.get("figure_id")), [])
        if not int(record.get("n_subfigures") or 0) or not panels:
            letters = len([l for l in parse_subcaptions(record.get("caption") or "").labels if len(l) == 1])
            c = single_confidence(figure_features(letters, 1))
            return c, f"kept whole, confidence {c}"
        cs = stored_panel_confidences(record.get("caption") or "", int(record.get("width") or 0),
                                      int(record.get("height") or 0), panels)
        if any(c is None for c in cs):
            return None, "no confidence model"
        mean = round(sum(cs) / len(cs), 4)
        return mean, f"{len(cs)} panels, confidence {mean} (weakest {min(cs)})"

    def filter(self, record: Record) -> Verdict:
        c, detail = self.confidence(record)
        if c is None:
            note_skip(record, self.name, "no_confidence_model")
            return KEEP
        return KEEP if c >= self.threshold else drop("low_panel_confidence", f"{detail} < {self.threshold:g}")
