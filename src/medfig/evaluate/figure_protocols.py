"""Figure/table extraction metrics on PDF pages: DeepFigures' and pdffigures2's protocols,
scored per paper (whole evaluation runs: :mod:`medfig.evaluate.figures`).

DeepFigures (Siegel et al. 2018, ``evaluate``): on each page, predicted and gold boxes
are matched one-to-one by Hungarian assignment maximising IoU (scipy's
``linear_sum_assignment``); a match counts as correct when IoU >= the threshold (0.8 in
the paper). Precision = correct / predicted, recall = correct / gold, F1 their harmonic
mean, pooled over all scored pages. Only pages listed as annotated are scored: a
prediction on a page nobody checked is neither right nor wrong.

pdffigures2 (Clark & Divvala 2016, its ``evaluation`` scripts): a prediction is paired
with the gold figure of the same page, type and number ("Figure 3" on page 4); the
predicted caption and region boxes are first *whitespace-cropped* (shrunk to the ink of
the rendered page, grey < 200, :mod:`medfig.evaluate.figure_crop`), and so are the gold's
(pdffigures2's annotations are cropped to the same page images); a figure or table is
correct when its region has IoU >= 0.8 AND its caption is right (box IoU >= 0.8 or equal
text after NFKC, hyphens and whitespace removed); captions are scored as in its
caption-only mode (right caption, whatever the region).

DeepFigures' paper scores no captions; here its captions are paired per page by
Hungarian assignment and are correct when the caption box has IoU >= the threshold or the
normalised caption text matches (letters and digits only, lower case, fuzz ratio >= 95).

:func:`score_boxes` also reports how many correct matches carry the right caption
(predicted name == gold name, e.g. "Figure 3"), the pairing accuracy of the issue's bar.

Boxes: ``[x0, y0, x1, y1]`` in PDF points, origin top-left; pages 0-based.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from medfig.geometry import iou

PROTOCOLS = ("deepfigures", "pdffigures2")
CATEGORIES = ("figures", "tables", "captions")
CAPTION_TEXT_RATIO = 95.0


@dataclass(slots=True)
class BoxScore:
    """Counts and rates at one IoU threshold. ``named_correct``: correct matches whose
    predicted name equals the gold name (caption paired right); ``ious``: IoU of every
    Hungarian match (correct or not), for box-tightness statistics."""

    threshold: float
    n_pred: int = 0
    n_gold: int = 0
    correct: int = 0
    named_correct: int = 0
    ious: list[float] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def pairing_accuracy(self) -> float:
        return self.named_correct / self.correct if self.correct else 0.0

    def add(self, other: "BoxScore") -> None:
        self.n_pred += other.n_pred
        self.n_gold += other.n_gold
        self.correct += other.correct
        self.named_correct += other.named_correct
        self.ious.extend(other.ious)


def score_page(pred: list[dict], gold: list[dict], threshold: float = 0.8) -> BoxScore:
    """One page. Items: ``{"box": [x0,y0,x1,y1], "name": str (optional)}``."""
    s = BoxScore(threshold, n_pred=len(pred), n_gold=len(gold))
    if not pred or not gold:
        return s
    m = np.array([[iou(p["box"], g["box"]) for g in gold] for p in pred])
    rows, cols = linear_sum_assignment(-m)
    for i, j in zip(rows, cols):
        if m[i, j] <= 0:
            continue
        s.ious.append(float(m[i, j]))
        if m[i, j] >= threshold:
            s.correct += 1
            if pred[i].get("name") and pred[i].get("name") == gold[j].get("name"):
                s.named_correct += 1
    return s


def score_boxes(pred: list[dict], gold: list[dict], pages: set[int] | None = None, threshold: float = 0.8,
                fig_type: str | None = None) -> BoxScore:
    """Score one paper. Items carry ``page``, ``box`` and optionally ``name``/``fig_type``.

    ``pages``: the annotated pages (None: every page that has a gold item). ``fig_type``
    ("Figure"/"Table") restricts both sides to that type; None scores all boxes together.
    """
    if pages is None:
        pages = {g["page"] for g in gold}
    by_page_p, by_page_g = defaultdict(list), defaultdict(list)
    for p in pred:
        if p["page"] in pages and p.get("box") and (fig_type is None or p.get("fig_type", "Figure") == fig_type):
            by_page_p[p["page"]].append(p)
    for g in gold:
        if g["page"] in pages and (fig_type is None or g.get("fig_type", "Figure") == fig_type):
            by_page_g[g["page"]].append(g)
    total = BoxScore(threshold)
    for page in pages:
        total.add(score_page(by_page_p.get(page, []), by_page_g.get(page, []), threshold))
    return total


def _caption_text(s: str) -> str:
    from medfig.text.labels import alnum

    return alnum(s or "")


def captions_match(pred: str, gold: str) -> bool:
    """Normalised caption texts agree (alphanumerics only; rapidfuzz ratio >= 95, so a
    ligature or a dropped symbol does not fail an otherwise identical caption)."""
    from rapidfuzz import fuzz

    a, b = _caption_text(pred), _caption_text(gold)
    if not a or not b:
        return False
    return a == b or fuzz.ratio(a, b) >= CAPTION_TEXT_RATIO


def _as_dicts(items, fig_type: str) -> list[dict]:
    """FigureBox -> the dicts :func:`score_boxes` takes; names normalised to "Type number"."""
    return [dict(page=f.page, box=f.box, fig_type=f.fig_type, name=f"{f.fig_type} {f.number}" if f.number else None)
            for f in items if f.fig_type == fig_type and f.box]


def score_captions_hungarian(pred: list, gold: list, pages: set[int], threshold: float) -> BoxScore:
    """Captions per page, one-to-one by Hungarian assignment; correct when box IoU >= threshold
    or the text matches. Items are FigureBox; only those with a caption box or text count."""
    total = BoxScore(threshold)
    for page in pages:
        p = [f for f in pred if f.page == page and (f.caption_box or f.caption)]
        g = [f for f in gold if f.page == page and (f.caption_box or f.caption)]
        s = BoxScore(threshold, n_pred=len(p), n_gold=len(g))
        if p and g:
            ious = np.array([[iou(a.caption_box, b.caption_box) if a.caption_box and b.caption_box else 0.0
                              for b in g] for a in p])
            ok = np.array([[ious[i, j] >= threshold or captions_match(a.caption, b.caption)
                            for j, b in enumerate(g)] for i, a in enumerate(p)])
            rows, cols = linear_sum_assignment(-(ok.astype(float) + 1e-3 * ious))
            for i, j in zip(rows, cols):
                if ious[i, j] > 0:
                    s.ious.append(float(ious[i, j]))
                if ok[i, j]:
                    s.correct += 1
                    if p[i].fig_type == g[j].fig_type and p[i].number == g[j].number:
                        s.named_correct += 1
        total.add(s)
    return total


def _by_name(items) -> dict[tuple, list]:
    out: dict[tuple, list] = defaultdict(list)
    for f in items:
        out[(f.page, f.fig_type, f.number)].append(f)
    return out


def pdffigures2_text_match(pred: str, gold: str) -> bool:
    """pdffigures2's caption text test: equal after NFKC normalisation with hyphens and
    whitespace removed."""
    import unicodedata

    def norm(x: str) -> str:
        return unicodedata.normalize("NFKC", re.sub(r"-|\s+", "", x or ""))

    return bool(pred and gold) and norm(pred) == norm(gold)


# pdffigures2's grades of one paired (or unpaired) item
CORRECT, MISSING, FALSE_POSITIVE, FALSE_POSITIVE_NO_REGION = "correct", "missing", "false_positive", "false_positive_no_region"
NO_CAPTION_FOUND, WRONG_REGION, WRONG_CAPTION, WRONG_BOTH = "no_caption_found", "wrong_region_box", "wrong_caption_box", "wrong_caption_and_region"
RIGHT_CAPTION_NO_REGION, WRONG_CAPTION_NO_REGION = "right_caption_no_region", "wrong_caption_no_region"
_NOT_RETURNED = {MISSING, FALSE_POSITIVE_NO_REGION, RIGHT_CAPTION_NO_REGION, WRONG_CAPTION_NO_REGION}
_CAPTION_CORRECT = {CORRECT, WRONG_REGION, RIGHT_CAPTION_NO_REGION}


def grade_pdffigures2(pred: list, gold: list, pages: set[int], threshold: float, crop=None) -> list[tuple[str, str, float | None]]:
    """pdffigures2's grading of one paper: ``(fig_type, grade, region IoU or None)`` per item.

    Items are identified by (page, type, number); a gold item with no prediction is
    ``missing``, a prediction with no gold a false positive. A prediction without a caption
    box is ``no_caption_found``. Otherwise its caption and region boxes are first
    whitespace-cropped by ``crop(page, box)`` (when given) — the gold's too, since
    pdffigures2's annotations are cropped to the same page images; the caption is right at IoU >=
    ``threshold`` or equal text (:func:`pdffigures2_text_match`), the region at IoU >=
    ``threshold``; ``correct`` needs both. Unlike pdffigures2's script, which pairs every
    duplicate prediction with the same gold item, a second prediction with the same id is
    a false positive."""
    gold_by_id: dict[tuple, list] = _by_name([g for g in gold if g.page in pages])
    preds = [f for f in pred if f.page in pages]
    pred_ids = {(f.page, f.fig_type, f.number) for f in preds}
    grades: list[tuple[str, str, float | None]] = []
    for gid, gs in gold_by_id.items():
        if gid not in pred_ids:
            grades += [(g.fig_type, MISSING, None) for g in gs]
        elif len(gs) > 1:  # two gold items with one id: the extras cannot be paired
            grades += [(g.fig_type, MISSING, None) for g in gs[1:]]
    for pf in preds:
        gid = (pf.page, pf.fig_type, pf.number)
        cands = gold_by_id.get(gid) if pf.number else None
        if pf.caption_box is None:
            if cands:
                cands.pop(0)
            grades.append((pf.fig_type, NO_CAPTION_FOUND, None))
            continue
        if not cands:
            grades.append((pf.fig_type, FALSE_POSITIVE if pf.box else FALSE_POSITIVE_NO_REGION, None))
            continue
        gf = cands.pop(0)
        cut = (lambda b: crop(pf.page, b) if b is not None else None) if crop else (lambda b: b)
        g_cap, g_box = cut(gf.caption_box), cut(gf.box)
        cap_ok = (g_cap is not None and iou(cut(pf.caption_box), g_cap) >= threshold) or \
            pdffigures2_text_match(pf.caption, gf.caption)
        if not pf.box:
            grades.append((pf.fig_type, RIGHT_CAPTION_NO_REGION if cap_ok else WRONG_CAPTION_NO_REGION, None))
            continue
        v = iou(cut(pf.box), g_box) if g_box else 0.0
        reg_ok = v >= threshold
        grade = CORRECT if reg_ok and cap_ok else WRONG_CAPTION if reg_ok else WRONG_REGION if cap_ok else WRONG_BOTH
        grades.append((pf.fig_type, grade, v))
    return grades


def _pdffigures2_score(grades, threshold: float, caption_only: bool) -> BoxScore:
    """pdffigures2's precision/recall: correct / returned, correct / gold items."""
    n_gold = sum(1 for _, g, _ in grades if g not in (FALSE_POSITIVE, FALSE_POSITIVE_NO_REGION))
    if caption_only:
        returned = sum(1 for _, g, _ in grades if g != MISSING)
        correct = sum(1 for _, g, _ in grades if g in _CAPTION_CORRECT)
    else:
        returned = sum(1 for _, g, _ in grades if g not in _NOT_RETURNED)
        correct = sum(1 for _, g, _ in grades if g == CORRECT)
    return BoxScore(threshold, n_pred=returned, n_gold=n_gold, correct=correct, named_correct=correct,
                    ious=[v for _, _, v in grades if v is not None])


def score_pdffigures2(pred: list, gold: list, pages: set[int], threshold: float, crop=None) -> dict[str, BoxScore]:
    """pdffigures2's protocol for one paper (:func:`grade_pdffigures2`): figures and tables
    are correct when region AND caption are; captions (its caption-only mode, both types
    together) when the caption is, whatever the region."""
    grades = grade_pdffigures2(pred, gold, pages, threshold, crop)
    return {
        "figures": _pdffigures2_score([g for g in grades if g[0] == "Figure"], threshold, False),
        "tables": _pdffigures2_score([g for g in grades if g[0] == "Table"], threshold, False),
        "captions": _pdffigures2_score(grades, threshold, True),
    }


def score_deepfigures(pred: list, gold: list, pages: set[int], threshold: float) -> dict[str, BoxScore]:
    """DeepFigures' protocol for one paper: figures and tables each by per-page Hungarian
    assignment on IoU; captions likewise (box IoU or text)."""
    return {
        "figures": score_boxes(_as_dicts(pred, "Figure"), _as_dicts(gold, "Figure"), pages, threshold),
        "tables": score_boxes(_as_dicts(pred, "Table"), _as_dicts(gold, "Table"), pages, threshold),
        "captions": score_captions_hungarian(pred, gold, pages, threshold),
    }
