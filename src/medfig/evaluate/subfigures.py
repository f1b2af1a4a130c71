"""Subfigure metrics: MedICaT's subfigure-subcaption alignment F1, COCO box mAP, label accuracy.

MedICaT metric, as its released code computes it (``SubfigureSubcaptionAlignmentMetric``
and the ``subcaption_box`` dataset reader of allenai/medicat; re-implemented, not copied):

1. Tokens are positions in the caption. A gold subcaption is the set of caption token
   positions it covers. Tokens that are in *every* gold subcaption of the figure or in
   *none* of them are "common" and removed from the gold subcaptions; a gold subfigure
   whose subcaption is then empty is left out of the evaluation entirely.
2. Predicted boxes are kept when their score is above ``score_threshold`` (0.7 in MedICaT).
3. For each gold subfigure, the predicted box of highest IoU is taken (strictly greater
   IoU wins, so the first of equals); IoU below 0.5 scores 0.
4. Otherwise: gold tokens that are alphanumeric; predicted subcaption tokens that are
   alphanumeric (common tokens are *not* removed from predictions). Recall 0 scores 0;
   else F1 of the two position sets.
5. The score is the mean over all scored gold subfigures of all figures.

One documented difference: MedICaT tokenises with BERT wordpieces and drops "##"
continuation pieces; medfig uses whole words (maximal runs of Unicode letters/digits),
which is BERT's basic tokenisation with each word counted once.

Box coordinates: ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.

File formats (JSON list, JSON object keyed by figure key, or JSON lines):
- gold: ``{"figure_key", "caption", "subfigures": [{"label", "box", "subcaption"}]}``;
  ``subcaption`` is a string or a list of caption fragments (each found verbatim in the
  caption); ``subcaption_spans`` ([start, end) char offsets) wins when present.
- pred: ``{"figure_key", "compound", "subfigures": [{"label", "box", "score", "subcaption",
  "subcaption_spans"?}]}`` -- the output of ``medfig compound --json`` plus the key.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# iou is MedICaT's formula (and stays importable from here): the same value for every box with
# x0 <= x1 and y0 <= y1, and 0.0 for disjoint, touching or inverted boxes, as MedICaT's code gives.
from medfig.geometry import area, iou

IOU_THRESHOLD = 0.5
SCORE_THRESHOLD = 0.7
_TOKEN = re.compile(r"[^\W_]+")


def caption_tokens(caption: str) -> list[tuple[int, int]]:
    """Character spans of the caption's word tokens; a token's id is its index here."""
    return [(m.start(), m.end()) for m in _TOKEN.finditer(caption)]


def tokens_in_spans(tokens: list[tuple[int, int]], spans: list[tuple[int, int]]) -> set[int]:
    return {i for i, (a, b) in enumerate(tokens) if any(s <= a and b <= e for s, e in spans)}


def _locate(caption: str, text: str, after: int = 0) -> list[tuple[int, int]]:
    """Spans of ``text`` in ``caption``: verbatim when possible (its first occurrence from
    ``after`` on, else its first anywhere), else token by token (each token's next occurrence
    after the previous one)."""
    if not text or not text.strip():
        return []
    for needle in (text, text.strip()):
        pos = caption.find(needle, after)
        if pos < 0:
            pos = caption.find(needle)
        if pos >= 0:
            return [(pos, pos + len(needle))]
    spans: list[tuple[int, int]] = []
    cursor = 0
    for m in _TOKEN.finditer(text):
        hit = re.search(rf"(?<![^\W_]){re.escape(m[0])}(?![^\W_])", caption[cursor:])
        if hit is None:
            hit = re.search(rf"(?<![^\W_]){re.escape(m[0])}(?![^\W_])", caption)
            if hit is None:
                continue
            start = hit.start()
        else:
            start = cursor + hit.start()
        spans.append((start, start + len(m[0])))
        cursor = start + len(m[0])
    return spans


def subcaption_spans(caption: str, sub: dict) -> list[tuple[int, int]]:
    """[start, end) spans of a subfigure record's subcaption in the caption."""
    if sub.get("subcaption_spans"):
        return [tuple(s) for s in sub["subcaption_spans"]]  # type: ignore[misc]
    value = sub.get("subcaption") or ""
    fragments = value if isinstance(value, list) else [value]
    spans: list[tuple[int, int]] = []
    for frag in fragments:
        # fragments are in caption order: one that occurs twice ("overall reduction of transmission
        # rate" after "(A)" and again after "(B and C)") is the occurrence after the one before it
        spans.extend(_locate(caption, frag, spans[-1][1] if spans else 0))
    return spans


@dataclass(slots=True)
class SubfigureScores:
    medicat_f1: float
    n_scored: int  # gold subfigures the MedICaT metric scored
    map_50_95: float
    map_50: float
    label_accuracy: float
    n_labelled: int
    compound_accuracy: float
    false_split_rate: float | None  # predicted compound among gold single-panel figures
    n_figures: int
    per_figure: dict[str, float] = field(default_factory=dict)

    def table(self) -> str:
        rows = [
            ("MedICaT alignment F1", f"{self.medicat_f1:.3f}", f"{self.n_scored} gold subfigures"),
            ("box mAP@0.5", f"{self.map_50:.3f}", "pycocotools"),
            ("box mAP@[.5:.95]", f"{self.map_50_95:.3f}", "pycocotools"),
            ("label accuracy", f"{self.label_accuracy:.3f}", f"{self.n_labelled} labelled gold panels"),
            ("compound yes/no accuracy", f"{self.compound_accuracy:.3f}", f"{self.n_figures} figures"),
            (
                "false split rate",
                "-" if self.false_split_rate is None else f"{self.false_split_rate:.3f}",
                "single-panel figures predicted compound",
            ),
        ]
        w = max(len(r[0]) for r in rows)
        return "\n".join(f"{a:<{w}}  {b:>6}  {c}" for a, b, c in rows)


def medicat_figure_f1s(gold: dict, pred: dict, *, score_threshold: float = SCORE_THRESHOLD) -> list[float]:
    """MedICaT F1 of every scored gold subfigure of one figure (see module doc)."""
    caption = gold.get("caption") or ""
    tokens = caption_tokens(caption)
    gold_sets = [tokens_in_spans(tokens, subcaption_spans(caption, s)) for s in gold.get("subfigures", [])]
    everything = set(range(len(tokens)))
    common = set(everything)
    unused = set(everything)
    for s in gold_sets:
        common &= s
        unused -= s
    common |= unused
    preds = [p for p in pred.get("subfigures", []) if float(p.get("score", 1.0)) > score_threshold]
    pred_sets = [tokens_in_spans(tokens, subcaption_spans(caption, p)) for p in preds]
    f1s: list[float] = []
    for g, gset in zip(gold.get("subfigures", []), gold_sets):
        gtok = gset - common
        if not gtok:
            continue  # MedICaT leaves subfigures without a subcaption out
        best, best_i = 0.0, None
        for i, p in enumerate(preds):
            v = iou(p["box"], g["box"])
            if v > best:
                best, best_i = v, i
        if best < IOU_THRESHOLD or best_i is None:
            f1s.append(0.0)
            continue
        ptok = pred_sets[best_i]
        inter = len(gtok & ptok)
        recall = inter / len(gtok)
        if recall == 0:
            f1s.append(0.0)
            continue
        precision = inter / len(ptok)
        f1s.append(2 * precision * recall / (precision + recall))
    return f1s


def coco_map(golds: list[dict], preds: dict[str, dict]) -> tuple[float, float]:
    """(mAP@[.5:.95], mAP@0.5) of the predicted boxes, one class, by pycocotools."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    images, anns, dets = [], [], []
    for img_id, g in enumerate(golds, start=1):
        w = g.get("width") or max([s["box"][2] for s in g["subfigures"]] + [1])
        h = g.get("height") or max([s["box"][3] for s in g["subfigures"]] + [1])
        images.append({"id": img_id, "width": w, "height": h})
        for s in g["subfigures"]:
            x0, y0, x1, y1 = s["box"]
            anns.append(
                {"id": len(anns) + 1, "image_id": img_id, "category_id": 1, "bbox": [x0, y0, x1 - x0, y1 - y0],
                 "area": area(s["box"]), "iscrowd": 0}
            )
        for p in preds.get(g["figure_key"], {}).get("subfigures", []):
            x0, y0, x1, y1 = p["box"]
            dets.append({"image_id": img_id, "category_id": 1, "bbox": [x0, y0, x1 - x0, y1 - y0], "score": float(p.get("score", 1.0))})
    if not anns:
        return 0.0, 0.0
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = {"images": images, "annotations": anns, "categories": [{"id": 1, "name": "subfigure"}]}
        gt.createIndex()
        if not dets:
            return 0.0, 0.0
        dt = gt.loadRes(dets)
        ev = COCOeval(gt, dt, "bbox")
        ev.params.maxDets = [1, 10, 100]
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return float(max(ev.stats[0], 0.0)), float(max(ev.stats[1], 0.0))


def _label_hits(gold: dict, pred: dict) -> tuple[int, int]:
    hits = total = 0
    for g in gold.get("subfigures", []):
        if not g.get("label"):
            continue
        total += 1
        best, best_p = 0.0, None
        for p in pred.get("subfigures", []):
            v = iou(p["box"], g["box"])
            if v > best:
                best, best_p = v, p
        if best_p is not None and best >= IOU_THRESHOLD and (best_p.get("label") or "").lower() == str(g["label"]).lower():
            hits += 1
    return hits, total


def whole_image_prediction(gold: dict) -> dict:
    """What a non-compound prediction means for box metrics: the whole image, one panel."""
    return {"subfigures": [{"box": [0, 0, gold.get("width", 1), gold.get("height", 1)], "score": 1.0, "label": None, "subcaption": gold.get("caption", "")}]}


def evaluate_subfigures(golds: list[dict], preds: dict[str, dict], *, score_threshold: float = SCORE_THRESHOLD) -> SubfigureScores:
    """All subfigure metrics of predictions against gold figures (keyed by ``figure_key``)."""
    f1s: list[float] = []
    per_figure: dict[str, float] = {}
    hits = total = 0
    compound_right = 0
    singles = singles_split = 0
    compound_golds = []
    for g in golds:
        key = g["figure_key"]
        p = preds.get(key, {"compound": False, "subfigures": []})
        gold_compound = bool(g.get("compound", len(g.get("subfigures", [])) >= 2))
        pred_compound = bool(p.get("compound", len(p.get("subfigures", [])) >= 2))
        compound_right += gold_compound == pred_compound
        if not gold_compound:
            singles += 1
            singles_split += pred_compound
            continue
        compound_golds.append(g)
        scored = p if p.get("subfigures") else whole_image_prediction(g)
        fig_f1s = medicat_figure_f1s(g, scored, score_threshold=score_threshold)
        if fig_f1s:
            per_figure[key] = sum(fig_f1s) / len(fig_f1s)
        f1s.extend(fig_f1s)
        h, t = _label_hits(g, p)
        hits, total = hits + h, total + t
    m_all, m_50 = coco_map(compound_golds, {k: (v if v.get("subfigures") else {"subfigures": []}) for k, v in preds.items()})
    return SubfigureScores(
        medicat_f1=sum(f1s) / len(f1s) if f1s else 0.0,
        n_scored=len(f1s),
        map_50_95=m_all,
        map_50=m_50,
        label_accuracy=hits / total if total else 0.0,
        n_labelled=total,
        compound_accuracy=compound_right / len(golds) if golds else 0.0,
        false_split_rate=(singles_split / singles) if singles else None,
        n_figures=len(golds),
        per_figure=per_figure,
    )


def load_records(path: str | Path) -> list[dict]:
    """Figure records from a JSON list, a JSON object keyed by figure key, or JSON lines."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not JSON or JSON lines (line {exc.lineno}: {exc.msg})") from exc
    if isinstance(data, dict) and "figures" in data and isinstance(data["figures"], list):
        data = data["figures"]
    elif isinstance(data, dict) and "figure_key" in data:
        data = [data]  # one JSON-lines record
    if isinstance(data, dict):
        if not all(isinstance(v, dict) for v in data.values()):
            raise ValueError(f"{path}: expected figure records keyed by figure key")
        data = [dict(v, figure_key=v.get("figure_key", k)) for k, v in data.items()]
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of figure records")
    for i, rec in enumerate(data):
        if not isinstance(rec, dict) or "figure_key" not in rec:
            raise ValueError(f"{path}: record {i} has no figure_key")
        for s in rec.get("subfigures", []):
            box = s.get("box")
            if not (isinstance(box, list) and len(box) == 4):
                raise ValueError(f"{path}: figure {rec['figure_key']}: a subfigure box is not [x0, y0, x1, y1]")
    return data
