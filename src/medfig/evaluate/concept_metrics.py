"""ImageCLEF concept detection scores on ROCOv2's ``{split}_concepts.csv`` files.

The score is ImageCLEFmedical's *sample-averaged F1*: for each gold image the F1 of the
predicted CUI set against the gold CUI set, averaged over the gold images. ROCOv2 reports its
numbers (EfficientNet-B0 0.5811, secondary score on manual concepts 0.935) with this metric.
ImageCLEF's evaluator is public (taubsity/clef-caption-evaluation,
``concept_detection/evaluator.py``, the 2024/2025 evaluator; the earlier crowdAI/AIcrowd ones
we could read skip empty gold images the same way). What it does, and what medfig does:

* CUIs are compared upper-cased and stripped (the evaluator upper-cases both sides).
* Per image the F1 is sklearn's binary F1 over the union of both sets, which equals
  ``2 |P ∩ G| / (|P| + |G|)`` when G is not empty.
* An image whose gold set is **empty**: the evaluator leaves it out of the average whatever
  was predicted. medfig's default (``empty_gold="score"``, the issue's contract) scores it
  1.0 when the prediction is empty too and 0.0 otherwise; ``empty_gold="skip"`` reproduces
  the evaluator exactly. They agree on a gold file where every image has a CUI, and differ
  where some image has none (173 of ROCO v1's 8,179 test radiology images).
* A prediction for an image that is **not in the gold file**: the evaluator rejects the run
  ("Image ID ... does not exist in testset"). medfig does the same (``MedfigError``).
* A gold image **without a prediction**: the evaluator rejects an incomplete run; medfig
  scores it as an empty prediction (the issue's contract), and the CLI says how many.
* Secondary score (``--manual``): the evaluator keeps, on both sides, only the CUIs of the
  manually checked concepts (modality, body region, X-ray direction: a fixed list of 15 in
  2025) and scores the manual gold file as above, images without a manual gold concept left
  out. medfig does the same whatever ``empty_gold`` says: many images have no manual concept
  (4,745 of 8,179 in a check on ROCO v1), and scoring them 1 for an empty prediction would
  give a predictor of no manual concept at all 0.58 instead of 0.0. medfig takes the manual
  set from the data: the CUIs in the manual gold file, unless ``manual_cuis`` is given.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Set
from pathlib import Path
from typing import Literal

from medfig.evaluate.rocov2_csv import RowError, read_rocov2_csv
from medfig.io import atomic_write_bytes
from medfig.records import MedfigError

CONCEPTS_HEADER = ("ID", "CUIs")
CUI_SEPARATOR = ";"
EmptyGoldPolicy = Literal["score", "skip"]
EMPTY_GOLD_POLICIES: tuple[str, ...] = ("score", "skip")


def normalise_cuis(cuis: Iterable[str]) -> frozenset[str]:
    """The CUI set as ImageCLEF compares it: stripped, upper-cased, empty entries dropped."""
    return frozenset(c.strip().upper() for c in cuis if c.strip())


def _cuis_of(row: list[str]) -> frozenset[str]:
    if len(row) > 2:
        raise RowError(f"expected 'ID,CUI;CUI;...', got {len(row)} fields (CUIs are joined by ';', not ',')")
    return normalise_cuis(row[1].split(CUI_SEPARATOR)) if len(row) == 2 else frozenset()


def read_concepts_csv(path: str | Path) -> dict[str, frozenset[str]]:
    """``{image ID: CUI set}`` from a ROCOv2 concepts file (header ``ID,CUIs``, CUIs joined by ``;``).

    An image with no CUIs (``ID,`` or just ``ID``) maps to an empty set. A bad header, a row
    with more than two fields, an empty ID or an ID given twice raise ``MedfigError`` naming
    the file and the line.
    """
    return read_rocov2_csv(path, CONCEPTS_HEADER, "concepts", _cuis_of)


def write_concepts_csv(path: str | Path, mapping: Mapping[str, Set[str]]) -> None:
    """Write ``{image ID: CUIs}`` as a ROCOv2 concepts file, atomically; CUIs sorted within a row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CONCEPTS_HEADER)
    for image_id, cuis in mapping.items():
        writer.writerow([image_id, CUI_SEPARATOR.join(sorted(cuis))])
    atomic_write_bytes(Path(path), buffer.getvalue().encode("utf-8"))


def image_f1(predicted: Set[str], gold: Set[str]) -> float:
    """F1 of one image's predicted CUI set against its gold set; 1.0 when both are empty."""
    if not gold and not predicted:
        return 1.0
    true_positives = len(predicted & gold)
    return 2.0 * true_positives / (len(predicted) + len(gold))


def unknown_prediction_ids(pred: Mapping[str, object], gold: Mapping[str, object]) -> list[str]:
    """Predicted image IDs that the gold file does not have (ImageCLEF rejects such a run)."""
    return [image_id for image_id in pred if image_id not in gold]


def _check_known(pred: Mapping[str, object], gold: Mapping[str, object]) -> None:
    unknown = unknown_prediction_ids(pred, gold)
    if unknown:
        raise MedfigError(f"{len(unknown)} predicted image ID(s) are not in the gold set, e.g. {unknown[0]!r} "
                          f"(ImageCLEF's evaluator rejects such a run)")


def _mean_f1(pred: Mapping[str, Set[str]], gold: Mapping[str, Set[str]], empty_gold: str,
             keep: frozenset[str] | None = None) -> tuple[float, int]:
    """(average F1, images averaged) over the gold images; ``keep`` restricts both sides to a CUI set."""
    if empty_gold not in EMPTY_GOLD_POLICIES:
        raise ValueError(f"empty_gold must be one of {EMPTY_GOLD_POLICIES}, got {empty_gold!r}")
    total, images = 0.0, 0
    for image_id, gold_cuis in gold.items():
        gold_set = normalise_cuis(gold_cuis)
        pred_set = normalise_cuis(pred.get(image_id, ()))
        if keep is not None:
            gold_set, pred_set = gold_set & keep, pred_set & keep
        if not gold_set and empty_gold == "skip":
            continue
        total += image_f1(pred_set, gold_set)
        images += 1
    return (total / images if images else 0.0), images


def concept_f1(pred: Mapping[str, Set[str]], gold: Mapping[str, Set[str]], *,
               empty_gold: EmptyGoldPolicy = "score") -> float:
    """ImageCLEF sample-averaged F1 of ``pred`` against ``gold`` (both ``{image ID: CUI set}``).

    Averaged over the gold images; a gold image without a prediction counts as an empty
    prediction; a predicted ID not in ``gold`` raises ``MedfigError`` (as ImageCLEF). See the
    module docstring for ``empty_gold``. Returns 0.0 when no image is scored.
    """
    _check_known(pred, gold)
    return _mean_f1(pred, gold, empty_gold)[0]


def manual_cui_set(manual_gold: Mapping[str, Set[str]]) -> frozenset[str]:
    """The manual concepts as the data shows them: every CUI in the manual gold file."""
    return frozenset().union(*(normalise_cuis(c) for c in manual_gold.values())) if manual_gold else frozenset()


def concept_scores(pred: Mapping[str, Set[str]], gold: Mapping[str, Set[str]],
                   manual_gold: Mapping[str, Set[str]] | None = None, *,
                   manual_cuis: Set[str] | None = None,
                   empty_gold: EmptyGoldPolicy = "score") -> dict[str, float | int | None]:
    """``{"f1", "f1_manual", "images"}``: the primary score, ImageCLEF's secondary score on the
    manual concepts (None without ``manual_gold``, or when no manual gold image has a manual
    concept) and the number of gold images averaged for ``f1``.

    The secondary score restricts predictions and manual gold to ``manual_cuis`` (default: the
    CUIs of ``manual_gold``) and averages over the manual gold images that keep a concept, as
    ImageCLEF does (``empty_gold`` applies to the primary score only).
    """
    _check_known(pred, gold)
    f1, images = _mean_f1(pred, gold, empty_gold)
    f1_manual = None
    if manual_gold is not None:
        keep = normalise_cuis(manual_cuis) if manual_cuis is not None else manual_cui_set(manual_gold)
        manual_f1, manual_images = _mean_f1(pred, manual_gold, "skip", keep=keep)
        f1_manual = manual_f1 if manual_images else None
    return {"f1": f1, "f1_manual": f1_manual, "images": images}
