"""``medfig evaluate figures``: predicted papers scored against gold papers under
DeepFigures' and pdffigures2's protocols (:mod:`medfig.evaluate.figure_protocols`), pooled
over papers and per paper, as a table or JSON. Gold and prediction files are read by
:mod:`medfig.evaluate.figure_files`; pdffigures2's whitespace cropping renders the paper's
PDF (:mod:`medfig.evaluate.figure_crop`).

Boxes: ``[x0, y0, x1, y1]`` in PDF points, origin top-left; pages 0-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from medfig.evaluate.figure_protocols import (CATEGORIES, PROTOCOLS, BoxScore, score_boxes, score_deepfigures,
                                              score_page, score_pdffigures2)
from medfig.geometry import iou

# Kept importable from here for callers outside medfig.evaluate (benchmarks, tests):
__all__ = ["BoxScore", "CATEGORIES", "FigureEvaluation", "PROTOCOLS", "PaperResult", "evaluate_figures",
           "evaluate_papers", "iou", "score_boxes", "score_page", "scored_pages"]


def scored_pages(pred_items: list, gold_pages: set[int] | None, gold_items: list) -> set[int]:
    """The gold's annotated pages; when the gold does not list them, every page holding a
    gold or predicted item (so a false positive on a figure-less page still counts)."""
    if gold_pages is not None:
        return set(gold_pages)
    return {f.page for f in gold_items} | {f.page for f in pred_items}


@dataclass(slots=True)
class PaperResult:
    """Scores of one paper: ``scores[protocol][category]``; ``cropped``: whether the
    pdffigures2 protocol could whitespace-crop (a PDF was found)."""

    key: str
    pred_key: str | None
    n_gold: dict[str, int]
    scores: dict[str, dict[str, BoxScore]]
    cropped: bool | None = None
    pdf: str | None = None


def _f(x: float) -> float:
    return round(x, 4)


def _score_dict(s: BoxScore) -> dict:
    return dict(n_pred=s.n_pred, n_gold=s.n_gold, correct=s.correct, precision=_f(s.precision), recall=_f(s.recall),
                f1=_f(s.f1), named_correct=s.named_correct, pairing_accuracy=_f(s.pairing_accuracy),
                median_iou=_f(float(np.median(s.ious))) if s.ious else None)


@dataclass(slots=True)
class FigureEvaluation:
    """Overall (pooled over papers) and per-paper scores for each protocol and category."""

    threshold: float
    protocols: tuple[str, ...]
    papers: list[PaperResult]
    overall: dict[str, dict[str, BoxScore]]
    missing_predictions: list[str] = field(default_factory=list)
    unmatched_predictions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    only_predicted: bool = False

    @property
    def uncropped(self) -> list[str]:
        return [p.key for p in self.papers if p.cropped is False]

    def to_dict(self) -> dict:
        return dict(
            iou_threshold=self.threshold, protocols=list(self.protocols),
            overall={pr: {c: _score_dict(s) for c, s in cats.items()} for pr, cats in self.overall.items()},
            papers=[dict(key=p.key, pred=p.pred_key, pdf=p.pdf, cropped=p.cropped, n_gold=p.n_gold,
                         scores={pr: {c: _score_dict(s) for c, s in cats.items()} for pr, cats in p.scores.items()})
                    for p in self.papers],
            missing_predictions=self.missing_predictions, unmatched_predictions=self.unmatched_predictions,
            uncropped=self.uncropped, errors=self.errors)

    def table(self, per_paper: bool = True) -> str:
        t = self.threshold
        lines = [f"IoU >= {t:g}; {len(self.papers)} gold papers scored, {len(self.missing_predictions)} gold papers "
                 f"without prediction" + (" (left out)" if self.only_predicted else " (scored as empty)")]
        hdr = f"{'protocol':12s} {'category':9s} {'gold':>5s} {'pred':>5s} {'correct':>7s} {'P':>6s} {'R':>6s} {'F1':>6s} {'named':>6s}"
        lines += ["", hdr, "-" * len(hdr)]
        for pr in self.protocols:
            for c in CATEGORIES:
                s = self.overall[pr][c]
                named = f"{s.pairing_accuracy:6.3f}" if pr == "deepfigures" and c != "captions" else f"{'-':>6s}"
                lines.append(f"{pr:12s} {c:9s} {s.n_gold:5d} {s.n_pred:5d} {s.correct:7d} {s.precision:6.3f} "
                             f"{s.recall:6.3f} {s.f1:6.3f} {named}")
        lines.append("named: share of correct figure/table boxes whose predicted name (caption) is the gold's")
        if "pdffigures2" in self.protocols and self.uncropped:
            lines.append(f"pdffigures2: {len(self.uncropped)} paper(s) scored WITHOUT whitespace cropping "
                         f"(no PDF found; pass --pdf-dir): {', '.join(self.uncropped[:5])}"
                         + (" ..." if len(self.uncropped) > 5 else ""))
        if per_paper:
            cols = [(pr, c) for pr in self.protocols for c in CATEGORIES]
            short = {"deepfigures": "DF", "pdffigures2": "P2"}
            hdr = f"{'paper':28s} {'fig':>3s} {'tab':>3s} " + " ".join(f"{short[pr] + '-' + c[:3]:>7s}" for pr, c in cols)
            lines += ["", "F1 per paper (DF = DeepFigures protocol, P2 = pdffigures2; '-' = nothing to score)", hdr,
                      "-" * len(hdr)]
            for p in self.papers:
                vals = []
                for pr, c in cols:
                    s = p.scores[pr][c]
                    vals.append(f"{s.f1:7.3f}" if s.n_gold or s.n_pred else f"{'-':>7s}")
                mark = "" if p.pred_key else "  (no prediction)"
                lines.append(f"{p.key[:28]:28s} {p.n_gold['figures']:3d} {p.n_gold['tables']:3d} " + " ".join(vals) + mark)
        for e in self.errors:
            lines.append(f"error: {e}")
        return "\n".join(lines)


@lru_cache(maxsize=4)
def _pdfs_under(root: str) -> tuple[Path, ...]:
    """Every PDF below ``root`` (listed once per evaluation, not once per paper)."""
    return tuple(sorted(Path(root).rglob("*.pdf")))


def _find_pdf(gold, pred, pdf_dir) -> Path | None:
    """The paper's PDF for whitespace cropping: under ``pdf_dir`` (the gold's recorded
    relative path, ``{key}.pdf``, or a PDF whose path contains the key), else the path
    recorded in the gold or prediction JSON (absolute, or relative to that JSON's folder)."""
    recorded = [x for x in (gold.pdf, pred.pdf if pred else None) if x]
    if pdf_dir:
        root = Path(pdf_dir)
        for rel in recorded:
            if (root / rel).is_file():
                return root / rel
        if (root / f"{gold.key}.pdf").is_file():
            return root / f"{gold.key}.pdf"
        hits = [p for p in _pdfs_under(str(root)) if gold.key in p.parts or p.stem == gold.key]
        if len(hits) == 1:
            return hits[0]
    for obj in (gold, pred):
        if obj is None or not obj.pdf:
            continue
        cands = [Path(obj.pdf)]
        if obj.source:
            cands.append(Path(obj.source).parent / obj.pdf)
        for c in cands:
            if c.is_file():
                return c
    return None


def evaluate_papers(pred: dict, gold: dict, *, protocols=PROTOCOLS, threshold: float = 0.8, pdf_dir=None,
                    crop_dpi: float = 100.0, errors: list[str] | None = None,
                    only_predicted: bool = False) -> FigureEvaluation:
    """Score predicted papers against gold papers (both ``{key: PaperFigures}``, see
    :mod:`medfig.evaluate.figure_files`). A gold paper without a prediction scores as
    an empty prediction (all its gold items missed), unless ``only_predicted``."""
    from medfig.evaluate.figure_crop import WhitespaceCropper
    from medfig.evaluate.figure_files import PaperFigures, match_papers

    pairing = match_papers(pred, gold)
    overall = {pr: {c: BoxScore(threshold) for c in CATEGORIES} for pr in protocols}
    papers = []
    errs = list(errors or [])
    for gk in sorted(gold):
        g = gold[gk]
        pk = pairing.get(gk)
        if pk is None and only_predicted:
            continue
        p = pred[pk] if pk else PaperFigures(gk)
        pages = scored_pages(p.items, g.pages, g.items)
        scores: dict[str, dict[str, BoxScore]] = {}
        cropped = None
        pdf = None
        if "deepfigures" in protocols:
            scores["deepfigures"] = score_deepfigures(p.items, g.items, pages, threshold)
        if "pdffigures2" in protocols:
            pdf = _find_pdf(g, p if pk else None, pdf_dir)
            cropper = None
            if pdf is not None:
                try:
                    cropper = WhitespaceCropper(pdf, dpi=crop_dpi)
                except Exception as exc:  # a damaged PDF: score uncropped, say so
                    errs.append(f"{pdf}: cannot render for whitespace cropping ({type(exc).__name__}: {exc})")
            try:
                scores["pdffigures2"] = score_pdffigures2(p.items, g.items, pages, threshold,
                                                          cropper.crop if cropper else None)
            finally:
                if cropper:
                    cropper.close()
            cropped = cropper is not None
        for pr in protocols:
            for c in CATEGORIES:
                overall[pr][c].add(scores[pr][c])
        n_gold = {"figures": sum(1 for f in g.items if f.fig_type == "Figure" and f.box and f.page in pages),
                  "tables": sum(1 for f in g.items if f.fig_type == "Table" and f.box and f.page in pages)}
        papers.append(PaperResult(gk, pk, n_gold, scores, cropped, str(pdf) if pdf else None))
    matched = {v for v in pairing.values() if v}
    return FigureEvaluation(threshold, tuple(protocols), papers, overall,
                            missing_predictions=[k for k, v in pairing.items() if not v],
                            unmatched_predictions=sorted(k for k in pred if k not in matched), errors=errs,
                            only_predicted=only_predicted)


def evaluate_figures(pred_path, gold_path, *, protocols=PROTOCOLS, threshold: float = 0.8, pdf_dir=None,
                     crop_dpi: float = 100.0, only_predicted: bool = False) -> FigureEvaluation:
    """``medfig evaluate figures``: read PRED and GOLD (a folder of JSON files or one JSON
    file, any format of :mod:`medfig.evaluate.figure_files`) and score them."""
    from medfig.evaluate.figure_files import load_figure_dir

    pred, e1 = load_figure_dir(pred_path)
    gold, e2 = load_figure_dir(gold_path)
    return evaluate_papers(pred, gold, protocols=protocols, threshold=threshold, pdf_dir=pdf_dir, crop_dpi=crop_dpi,
                           errors=e1 + e2, only_predicted=only_predicted)
