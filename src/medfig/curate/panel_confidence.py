"""Curation by split confidence: drop untrusted panels (``--min-panel-confidence``) or whole figures
(``--min-figure-split-confidence``).

The confidence is medfig.compound.confidence's calibrated probability (Platt scaling fitted on
annotated figures): for a panel, the probability that it matches a true panel; it is read from
``subfigures.parquet`` (``confidence``), or recomputed from the stored split (score, letter read or
not, box, caption letters, figure size) for datasets built before that column existed.

Panels (:func:`curate_panels`, run by ``medfig curate`` after the figure steps, on the kept
figures only). A figure whose split is not trusted is still a good image-caption pair; what is
not trusted is its panels. So the figure stays, and its panels are judged:

- a panel below X is dropped with reason ``low_panel_confidence``;
- when some but not all panels of a figure are below X, the others are dropped too, with
  reason ``partial_split``: a figure whose panel set is incomplete gives MedICaT's subfigure
  task a wrong answer (the missing panels' subcaptions would align to nothing) and ``rocov2
  --panels`` a compound figure that looks half-split. ``keep_confident`` (``--keep-confident-panels``)
  keeps them, for users who use panels one by one (panel search, single-panel images).

The release's ``subfigures.parquet`` holds the kept panels (with their confidence) and the
exports read it; every dropped panel is one ledger row (step ``panel_confidence``, the figure's
``article_key``/``figure_id``, the panel and its confidence in ``detail``). A kept figure gets
``panels_dropped`` (how many of its panels curate dropped), so exports can tell "the split was
dropped" from "never split".

Whole figures (:class:`SplitConfidenceFilter`, a figure step): the figure's split confidence is
the mean over its panels, or, for a figure kept whole, the probability that it really is
single-panel (from whether its caption names two or more panel letters; the XY-cut piece count is
not stored and taken as one). A figure below the threshold is dropped with reason
``low_split_confidence``, for datasets that want only figures whose split is trusted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from medfig.compound.confidence import figure_features, single_confidence, stored_panel_confidences
from medfig.pipeline.steps import KEEP, Filter, Record, Verdict, drop, note_skip
from medfig.records import MedfigError
from medfig.text.subcaptions import parse_subcaptions

PANEL_STEP = "panel_confidence"
LOW, PARTIAL = "low_panel_confidence", "partial_split"


def check_threshold(value: float, flag: str) -> float:
    if not 0.0 <= value <= 1.0:
        raise MedfigError(f"{flag} must be between 0 and 1, not {value}")
    return value


def panels_by_figure(dataset: str | Path) -> dict[tuple[str, str], list[dict]]:
    """The dataset's ``subfigures.parquet`` rows per (article_key, figure_id), in table order."""
    from medfig.dataset import DatasetFolder

    out: dict[tuple[str, str], list[dict]] = {}
    table = DatasetFolder(dataset).read_table("subfigures", required=False)
    for row in table.to_pylist() if table is not None else []:
        out.setdefault((row["article_key"], row["figure_id"]), []).append(row)
    return out


def panel_confidences(figure: Record, panels: list[dict]) -> list[float | None]:
    """Each panel's calibrated confidence: the stored one (``subfigures.confidence``, rounded to 4
    digits as float32 allows), else recomputed from the stored split when any is missing."""
    if panels and all(p.get("confidence") is not None for p in panels):
        return [round(float(p["confidence"]), 4) for p in panels]
    return stored_panel_confidences(figure.get("caption") or "", int(figure.get("width") or 0),
                                    int(figure.get("height") or 0), panels)


@dataclass
class PanelCuration:
    """What :func:`curate_panels` decided over the kept figures."""

    threshold: float | None
    keep_confident: bool
    kept: list[dict] = field(default_factory=list)  # subfigures rows of kept panels, confidence filled
    drops: list[dict] = field(default_factory=list)  # ledger drops: article_key, figure_id, step, reason, detail
    panels_in: int = 0
    dropped: Counter = field(default_factory=Counter)  # panels per reason
    figures_split_dropped: int = 0  # figures that lost every panel
    figures_split_partly_dropped: int = 0  # figures that lost some (only with keep_confident)
    skipped: Counter = field(default_factory=Counter)  # figures not judged, per reason

    def as_dict(self) -> dict:
        return {"min_panel_confidence": self.threshold, "keep_confident_panels": self.keep_confident,
                "in": self.panels_in, "kept": len(self.kept), "dropped": sum(self.dropped.values()),
                "dropped_by_reason": dict(sorted(self.dropped.items())),
                "figures_split_dropped": self.figures_split_dropped,
                "figures_split_partly_dropped": self.figures_split_partly_dropped,
                "skipped_by_reason": dict(sorted(self.skipped.items()))}

    def summary_line(self) -> str:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items())) or "-"
        line = (f"{self.panels_in} in, {len(self.kept)} kept, {sum(self.dropped.values())} dropped ({reasons}); "
                f"figures kept without their panels: {self.figures_split_dropped}")
        if self.keep_confident:
            line += f", with some of them: {self.figures_split_partly_dropped}"
        skips = ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items()))
        return line + (f"; skipped {skips}" if skips else "")


def _panel_name(panel: dict, index: int, count: int) -> str:
    return f"panel {panel.get('label') or '?'} ({index} of {count})"


def curate_panels(figures: list[Record], panels: dict[tuple[str, str], list[dict]], threshold: float | None,
                  keep_confident: bool = False) -> PanelCuration:
    """Judge the panels of the kept ``figures``; sets each figure's ``panels_dropped``.

    ``threshold`` None keeps every panel (the release still gets its panels and their confidence)."""
    if threshold is not None:
        check_threshold(threshold, "--min-panel-confidence")
    result = PanelCuration(threshold, keep_confident)
    for figure in figures:
        own = [dict(p) for p in panels.get((figure["article_key"], figure["figure_id"]), []) if p.get("box_px")]
        figure["panels_dropped"] = 0
        if not own:
            continue
        result.panels_in += len(own)
        for panel, confidence in zip(own, panel_confidences(figure, own)):
            panel["confidence"] = confidence
        if threshold is None:
            result.kept += own
            continue
        if any(p["confidence"] is None for p in own):  # no fitted model shipped: nothing to judge by
            result.skipped["no_confidence_model"] += 1
            result.kept += own
            continue
        low = [p for p in own if p["confidence"] < threshold]
        for index, panel in enumerate(own, 1):
            name = _panel_name(panel, index, len(own))
            if panel["confidence"] < threshold:
                reason, detail = LOW, f"{name}: confidence {panel['confidence']:g} < {threshold:g}"
            elif low and not keep_confident:
                reason = PARTIAL
                detail = (f"{name}: confidence {panel['confidence']:g}, but {len(low)} of the figure's {len(own)} "
                          f"panels are below {threshold:g}: an incomplete split is dropped whole")
            else:
                result.kept.append(panel)
                continue
            figure["panels_dropped"] += 1
            result.dropped[reason] += 1
            result.drops.append({"article_key": figure["article_key"], "figure_id": figure["figure_id"],
                                 "step": PANEL_STEP, "reason": reason, "detail": detail})
        if figure["panels_dropped"] == len(own):
            result.figures_split_dropped += 1
        elif figure["panels_dropped"]:
            result.figures_split_partly_dropped += 1
    return result


class SplitConfidenceFilter(Filter):
    """``--min-figure-split-confidence X``: drop the whole figure when its split is not trusted."""

    name = "split_confidence"

    def __init__(self, dataset: str | Path, threshold: float):
        self.threshold = check_threshold(threshold, "--min-figure-split-confidence")
        self.dataset = Path(dataset)
        self._panels: dict[tuple[str, str], list[dict]] | None = None

    def describe(self) -> str:
        return f"{self.name} >= {self.threshold:g}"

    def confidence(self, record: Record) -> tuple[float | None, str]:
        """(figure confidence, ledger detail) from the stored split."""
        if self._panels is None:
            self._panels = panels_by_figure(self.dataset)
        panels = self._panels.get((record.get("article_key"), record.get("figure_id")), [])
        if not int(record.get("n_subfigures") or 0) or not panels:
            letters = len([l for l in parse_subcaptions(record.get("caption") or "").labels if len(l) == 1])
            c = single_confidence(figure_features(letters, 1))
            return c, f"kept whole, confidence {c}"
        cs = panel_confidences(record, panels)
        if any(c is None for c in cs):
            return None, "no confidence model"
        mean = round(sum(cs) / len(cs), 4)
        return mean, f"{len(cs)} panels, confidence {mean} (weakest {min(cs)})"

    def filter(self, record: Record) -> Verdict:
        c, detail = self.confidence(record)
        if c is None:
            note_skip(record, self.name, "no_confidence_model")
            return KEEP
        return KEEP if c >= self.threshold else drop("low_split_confidence", f"{detail} < {self.threshold:g}")
