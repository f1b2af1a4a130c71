"""Calibrated confidence of a compound-figure split: "of panels at 0.9, nine in ten are right".

The splitter's ``score`` is a heuristic (MedICaT's metric only uses it as a > 0.7 cut);
``confidence`` is a probability: Platt scaling (a logistic regression) of the split's own
evidence, fitted on annotated figures (``tools/gold/compound_fit_confidence.py``: the
development publishers of the pmc_dev_corpus gold plus the older real/fresh gold sets; the
held-out publishers are only used to print the reliability table).

Evidence per panel (:func:`panel_features`): the splitter's score, whether its letter was
read in the image, whether the panel count equals the caption's letter count, the caption
names no letter at all, the panel's share of the figure area times the panel count (1 for
an even grid), and log panel count. A panel is "right" when a gold panel overlaps it at
IoU >= 0.5. Per figure (:func:`figure_features`), for a figure kept whole: does the caption
name two or more letters, and did the XY-cut find more than one piece; "right" = the gold
figure is single-panel.

The fitted weights ship in ``models/panel_confidence.json``; nothing is fitted at run time.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from medfig.geometry import PixelBox, area

MODEL = Path(__file__).resolve().parent / "models" / "panel_confidence.json"
PANEL_FEATURES = ("score", "letter_read", "count_matches_caption", "caption_has_no_letters", "evenness", "log_panels")
FIGURE_FEATURES = ("caption_names_panels", "several_pieces")


def panel_features(box: PixelBox, score: float, letter_read: bool, n_panels: int, n_caption_letters: int,
                   width: int, height: int) -> list[float]:
    share = area(box) / float(max(1, width * height))
    return [
        float(score),
        1.0 if letter_read else 0.0,
        1.0 if n_caption_letters == n_panels else 0.0,
        1.0 if n_caption_letters == 0 else 0.0,
        min(2.0, share * n_panels),
        math.log(max(1, n_panels)),
    ]


def figure_features(n_caption_letters: int, n_pieces: int) -> list[float]:
    return [1.0 if n_caption_letters >= 2 else 0.0, 1.0 if n_pieces >= 2 else 0.0]


@lru_cache(maxsize=1)
def _model() -> dict:
    try:
        return json.loads(MODEL.read_text())
    except (OSError, ValueError):
        return {}


def _logistic(weights: dict | None, x: list[float]) -> float | None:
    if not weights:
        return None
    z = weights["intercept"] + sum(w * v for w, v in zip(weights["coef"], x))
    return round(1.0 / (1.0 + math.exp(-z)), 4)


def panel_confidence(features: list[float]) -> float | None:
    """Probability that this predicted panel matches a true panel (None: no fitted model)."""
    return _logistic(_model().get("panel"), features)


def stored_panel_confidences(caption: str, width: int, height: int, panels: list[dict]) -> list[float | None]:
    """Each panel's confidence recomputed from a stored split, as ``analyze_compound`` computes it.

    ``panels``: one figure's ``subfigures.parquet`` rows (``box_px`` in pixels of the figure image,
    ``score``, ``label_source``); ``caption``, ``width``, ``height``: the figure's. Used where a
    dataset's split is judged after the build (curate's panel filter, the exports)."""
    from medfig.text.subcaptions import parse_subcaptions

    letters = len([label for label in parse_subcaptions(caption or "").labels if len(label) == 1])
    return [panel_confidence(panel_features(tuple(p["box_px"]), p["score"] or 0.0, p.get("label_source") == "ocr",
                                            len(panels), letters, width, height)) for p in panels]


def single_confidence(features: list[float]) -> float | None:
    """Probability that a figure kept whole really is single-panel (None: no fitted model)."""
    return _logistic(_model().get("figure_single"), features)
