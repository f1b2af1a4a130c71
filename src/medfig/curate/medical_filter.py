"""MedICaT's medical filter: keywords first, then a second chance for keyword misses.

A figure is kept when its caption or an inline reference names a medical keyword
(:mod:`medfig.curate.keywords`, MedICaT's appendix B list by default). A keyword miss gets a
second chance, in two parts:

1. image-type terms in its caption (:func:`names_a_medical_image`: medfig's longer list minus the
   words that name a patient or a disease rather than an image): "coronary angiography",
   "clinical photo", "intraoperative", "echocardiography", "MSCT" ... are not MedICaT keywords;
2. if it has an image, the shipped medical-image head (``models/medical_image_head.json``: a
logistic regression on frozen EfficientNet-Lite0 features, :mod:`medfig.vision.image_filter`)
keeps it when p(medical) >= the head's own threshold (0.5, fitted with balanced class weights;
never tuned on the hand-labelled benchmark): MedICaT's "then a classifier".

The head was trained on weak labels (:func:`weak_medical_label`: the caption names an imaging
modality, clinical imaging or pathology term from medfig's longer list) over figures medfig built
from ``pmc_hindawi_xml_pdf`` and the development publishers of ``pmc_dev_corpus``, leaving out the
hand-labelled articles (``benchmarks/curate_medical_filter.py --train`` rebuilds it).

Without PyTorch the second chance is skipped (skip reason ``no_torch``, one line on stderr) and a
keyword miss is dropped as before; a miss without an image is dropped (skip reason ``no_image``).
Every kept figure says why in ``medical_by``: ``keyword``, ``image_terms`` or ``image_classifier``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from medfig.curate.keywords import KeywordMatcher, ListKeywordMatcher, medicat_matcher
from medfig.pipeline.steps import KEEP, GroupStep, Record, Verdict, drop, note_skip

DEFAULT_HEAD = Path(__file__).parent / "models" / "medical_image_head.json"

# Weak "medical image" label from the caption: medfig's longer list without the terms that name a
# patient or a disease rather than an image ("patient", "clinical", "diagnosis", "tumour", "lesion").
_NOT_IMAGE_TERMS = {"patient*", "clinical", "diagnos*", "lesion*", "tumor*", "tumour*", "carcinoma*", "metasta*",
                    "surgical*", "postoperative", "preoperative", "excised", "resected", "catheter*", "stent*",
                    "guidewire*", "facial", "teeth", "tooth", "dental", "incisor*", "dysmorph*", "mucosa*"}


_WEAK: KeywordMatcher | None = None


def names_a_medical_image(text: str) -> list[str]:
    """Image-type terms (modalities, clinical imaging, pathology, clinical photos) named in ``text``."""
    from medfig.curate.keywords import MEDICAL_TERMS, UPPERCASE_TERMS

    global _WEAK
    if _WEAK is None:
        _WEAK = KeywordMatcher(tuple(t for t in MEDICAL_TERMS if t not in _NOT_IMAGE_TERMS), UPPERCASE_TERMS)
    return _WEAK.find(text)


def weak_medical_label(record: Record) -> bool:
    """The weak label the medical-image head was trained on: the caption names a medical image type."""
    return bool(names_a_medical_image(record.get("caption_clean") or record.get("caption") or ""))


def _texts(record: Record) -> str:
    texts = [record.get("caption_clean") or record.get("caption") or ""]
    texts += [r.get("sentence") or "" for r in record.get("inline_refs") or []]
    return "\n".join(texts)


class MedicalFilter(GroupStep):
    """Keywords, then the image classifier for keyword misses (``second_chance=False``: keywords only)."""

    name = "medical_keywords"

    def __init__(self, matcher: KeywordMatcher | ListKeywordMatcher | None = None, dataset_root: str | Path = ".",
                 second_chance: bool = True, head: str | Path | None = None):
        """``second_chance``: image-type caption terms, then the image classifier, for keyword misses."""
        self.matcher = matcher or medicat_matcher()
        self.root = Path(dataset_root)
        self.second_chance = second_chance
        self.head_path = Path(head) if head else DEFAULT_HEAD

    def run_group(self, records: list[Record]) -> list[Verdict]:
        verdicts: list[Verdict] = []
        misses: list[int] = []
        for i, r in enumerate(records):
            hits = self.matcher.find(_texts(r))
            r["medical_keywords"], r["medical_by"], r["medical_probability"] = hits, None, None
            if hits:
                r["medical_by"] = "keyword"
                verdicts.append(KEEP)
            elif self.second_chance and (terms := names_a_medical_image(
                    r.get("caption_clean") or r.get("caption") or "")):
                r["medical_keywords"], r["medical_by"] = terms, "image_terms"
                verdicts.append(KEEP)
            else:
                misses.append(i)
                verdicts.append(drop("no_medical_keyword", (r.get("caption_clean") or r.get("caption") or "")[:80]))
        if self.second_chance and misses:
            self._classify(records, misses, verdicts)
        return verdicts

    def _classify(self, records: list[Record], misses: list[int], verdicts: list[Verdict]) -> None:
        from medfig.vision.image_filter import NO_TORCH_MESSAGE, FeatureExtractor, ImageFilterHead, torch_available

        if not torch_available():
            print(f"medfig curate: medical filter's image second chance skipped: {NO_TORCH_MESSAGE}", file=sys.stderr)
            for i in misses:
                note_skip(records[i], self.name, "no_torch")
            return
        with_image = []
        for i in misses:
            r = records[i]
            if r.get("image_path") and r.get("image_status") in (None, "ok") and (self.root / r["image_path"]).is_file():
                with_image.append(i)
            else:
                note_skip(r, self.name, "no_image")
        if not with_image:
            return
        head = ImageFilterHead.load(self.head_path)
        probs = head.probability(FeatureExtractor().features_of_files([self.root / records[i]["image_path"]
                                                                        for i in with_image]))
        for i, p in zip(with_image, probs):
            records[i]["medical_probability"] = round(float(p), 4)
            if p >= head.threshold:
                records[i]["medical_by"] = "image_classifier"
                verdicts[i] = KEEP
            else:
                verdicts[i] = drop("no_medical_keyword",
                                   f"no keyword; image classifier p(medical)={p:.2f} < {head.threshold}")
