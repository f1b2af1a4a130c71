"""Medical keyword filter over caption and inline references (MedICaT's first filter).

MedICaT (Subramanian et al. 2020, appendix B) kept figures whose caption or
inline references contain a medical keyword before running an image classifier.
The appendix list itself was not available to us offline, so this list is
medfig's own, written for the same purpose: imaging modalities (radiology,
nuclear medicine, ultrasound), clinical imaging (endoscopy, fundus, dermoscopy),
and pathology (histology, staining). It is data, not code: pass your own with
``--keywords FILE`` (one term per line, ``#`` comments).

Matching is case-insensitive on word boundaries, except for the ambiguous short
forms below, which are decided on purpose:

- ``CT``, ``MRI``, ``MR``, ``PET``, ``SPECT``, ``OCT``, ``CTA``, ``MRA``, ``US``
  only in CAPITALS: "CT" must not fire inside "exact" (word boundary) nor on "ct"
  (a unit, a sequence token); "PET" the acronym, not "pet" the animal; "US"
  ultrasound, not "us". ``US`` is so ambiguous ("US patients") that it counts only
  in "US image/images/imaging/examination/scan" or after "Doppler".
- ``CAT``: only in "CAT scan(s)": on its own it is a gene (catalase) or the animal.
- ``scan``: never on its own ("flatbed scan", "scanning electron microscopy", "laser
  scan"); it counts only inside a modality phrase ("CT scan", "bone scan", "PET scan").
- ``nuclear``: never on its own ("nuclear staining", "nuclear localization" are cell
  biology); it counts only in "nuclear medicine" and "nuclear magnetic resonance
  imaging/image(s)/scan" (NMR spectroscopy of molecules is chemistry, not a
  medical image).
"""

from __future__ import annotations

import re
from pathlib import Path

from medfig.pipeline.steps import KEEP, Filter, Record, Verdict, drop

# Case-insensitive terms. A trailing "*" matches any word ending (radiograph* ->
# radiographs, radiography, radiographic).
MEDICAL_TERMS: tuple[str, ...] = (
    # radiology
    "computed tomograph*", "computerized tomograph*", "computerised tomograph*", "tomograph*", "tomogram*",
    "magnetic resonance", "mr imag*", "mr image*", "x-ray*", "xray*", "x ray*", "radiograph*", "roentgen*",
    "radiolog*", "angiogra*", "arteriogra*", "venogra*", "fluoroscop*", "mammogra*", "myelogra*",
    "urogra*", "cholangiogra*", "hysterosalpingogra*", "cystogra*", "contrast-enhanced", "contrast enhanced",
    "ct scan*", "cat scan*", "bone scan*", "pet scan*", "mri scan*", "scintigra*", "scintiscan*",
    "nuclear medicine", "nuclear magnetic resonance imag*", "nuclear magnetic resonance scan*",
    "positron emission", "single-photon emission", "single photon emission", "densitometr*",
    "ultrasound*", "ultrasonogra*", "sonogra*", "echocardiogra*", "echograph*", "doppler", "elastograph*",
    "diffusion-weighted", "diffusion weighted", "t1-weighted", "t2-weighted", "flair", "tractograph*",
    # clinical imaging
    "endoscop*", "colonoscop*", "gastroscop*", "bronchoscop*", "laparoscop*", "arthroscop*", "cystoscop*",
    "colposcop*", "dermoscop*", "dermatoscop*", "fundus", "funduscop*", "ophthalmoscop*", "slit-lamp",
    "slit lamp", "optical coherence tomograph*", "fluorescein angiogra*", "intraoperative", "clinical photograph*",
    # pathology
    "histolog*", "histopatholog*", "patholog*", "biopsy", "biopsies", "h&e", "hematoxylin", "haematoxylin",
    "eosin", "immunohistochem*", "cytolog*", "smear", "lesion*", "tumor*", "tumour*",
    # clinical photographs, cardiology, interventions
    "macroscop*", "gross specimen*", "dysmorph*", "facial", "mucosa*", "teeth", "tooth", "dental", "incisor*",
    "electrocardiogra*", "catheter*", "stent*", "guidewire*", "surgical*", "postoperative", "preoperative",
    "excised", "resected", "carcinoma*", "metasta*", "stain*", "microscop*",
    # patient context
    "patient*", "clinical", "diagnos*",
)

# Acronyms matched in CAPITALS only, whole token.
UPPERCASE_TERMS: tuple[str, ...] = (
    "CT", "CTA", "HRCT", "CBCT", "MDCT", "MSCT", "ECG", "EKG", "MRI", "MRA", "MRCP", "fMRI", "DWI", "MR", "PET", "SPECT", "PET/CT",
    "PET-CT", "OCT", "DSA", "ERCP", "EUS", "TEE", "TTE", "IHC",
)
US_PHRASE = r"\bUS\s+(?:image|images|imaging|examination|scan|scans)\b|\bDoppler\s+US\b"


def _term_regex(term: str) -> str:
    stem = term.rstrip("*")
    body = r"\s+".join(re.escape(w) for w in stem.split())
    tail = r"\w*" if term.endswith("*") else ""
    # (?<![\w-]) / (?![\w]) : word boundaries that also work for "x-ray" and "h&e"
    return rf"(?<![\w]){body}{tail}(?![\w])"


def load_keywords(path: str | Path) -> list[str]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


class KeywordMatcher:
    def __init__(self, terms: tuple[str, ...] | list[str] = MEDICAL_TERMS, uppercase: tuple[str, ...] = UPPERCASE_TERMS):
        self.ci = re.compile("|".join(_term_regex(t) for t in terms), re.IGNORECASE) if terms else None
        ordered = sorted(uppercase, key=len, reverse=True)  # "PET/CT" before "PET"
        upper = "|".join(rf"(?<![\w/-]){re.escape(t)}(?![\w])" for t in ordered)
        self.cs = re.compile(f"{upper}|{US_PHRASE}") if uppercase else re.compile(US_PHRASE)

    def find(self, text: str) -> list[str]:
        """Matched keywords, lower-cased, in order of first appearance."""
        if not text:
            return []
        hits = [m.group(0) for m in self.cs.finditer(text)]
        if self.ci is not None:
            hits += [m.group(0).lower() for m in self.ci.finditer(text)]
        seen: dict[str, None] = {}
        for h in hits:
            seen.setdefault(" ".join(h.split()), None)
        return list(seen)


class MedicalKeywordFilter(Filter):
    """Keep a figure when its caption or any inline reference names a medical keyword."""

    name = "medical_keywords"

    def __init__(self, matcher: KeywordMatcher | None = None, use_inline_refs: bool = True):
        self.matcher = matcher or KeywordMatcher()
        self.use_inline_refs = use_inline_refs

    def filter(self, record: Record) -> Verdict:
        texts = [record.get("caption_clean") or record.get("caption") or ""]
        if self.use_inline_refs:
            texts += [r.get("sentence") or "" for r in record.get("inline_refs") or []]
        hits = self.matcher.find("\n".join(texts))
        record["medical_keywords"] = hits
        if not hits:
            return drop("no_medical_keyword", (texts[0] or "")[:80])
        return KEEP
