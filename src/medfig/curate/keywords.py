"""Medical keyword filter over caption and inline references (MedICaT's first filter).

MedICaT (Subramanian et al. 2020, appendix B) kept figures whose caption or inline
references contain a medical keyword before running an image classifier. medfig's default
list is that list: the 39 keywords ship in ``data/medicat_keywords.txt`` (with provenance),
matched by :func:`medicat_matcher` with these rules (the paper says only "case-insensitive"):

- Case: a keyword with two or more capitals is an acronym and matches as written (``CT``,
  ``MRI``, ``fMRI``, ``PET-MRI``, ``CAT``, ``MEG``, ``EEG``, ``EKG``): "PET" the tracer scan, not
  "pet" the animal; "CT", not "ct" inside a sequence. Every other keyword matches in any case.
- Word boundaries: a keyword matches a whole word: no letter or digit right before or after it
  ("CT" not inside "ACTA2"; "scan" not inside "scanning"). Hyphens, slashes and spaces are
  boundaries, so "PET/CT", "CT-guided" and "X-ray-guided" match.
- Plurals and spelling: "s" or "es" may follow any keyword (radiographs, scans, CTs); a hyphen
  inside a keyword also matches a space or nothing ("X-ray" = "X ray"; "cholangio-pancreatography"
  = "cholangiopancreatography").
- A trailing ``*`` (in your own lists) matches any word ending: ``radiograph*``.
- Nothing else: "scan", "nuclear", "imaging", "tracer" and "spectroscopy" count on their own, as
  in the paper (a recall-first pass: "calcium imaging" passes here; the image classifier that
  follows in MedICaT, and the hand-labelled benchmark, see benchmarks/curate_medical_filter.py,
  show what that costs). Keywords the list lacks (angiography, "clinical photo") are what the
  image classifier's second chance is for (:mod:`medfig.curate.medical_filter`).

``MEDICAL_TERMS`` / ``UPPERCASE_TERMS`` below are medfig's older, longer list (imaging
modalities, clinical imaging, pathology, patient context), kept for ``KeywordMatcher()`` and
for writing caption weak labels; pass any list of your own with ``--keywords FILE`` (one term
per line, ``#`` comments, matched by the rules above).

The older list's own rules, for ``KeywordMatcher()``:

- ``CT``, ``MRI``, ``MR``, ``PET``, ``SPECT``, ``OCT``, ``CTA``, ``MRA``, ``US``
  only in CAPITALS; ``US`` counts only in "US image/images/imaging/examination/scan" or after
  "Doppler". ``CAT`` only in "CAT scan(s)". ``scan`` only inside a modality phrase ("CT scan",
  "bone scan"). ``nuclear`` only in "nuclear medicine" and "nuclear magnetic resonance
  imaging/image(s)/scan".
"""

from __future__ import annotations

import re
from pathlib import Path

from medfig.pipeline.steps import KEEP, Filter, Record, Verdict, drop
from medfig.records import MedfigError

# Case-insensitive terms. A trailing "*" matches any word ending (radiograph* ->
# radiographs, radiography, radiographic).
MEDICAL_TERMS: tuple[str, ...] = (
    # radiology
    "computed tomograph*", "computerized tomograph*", "computerised tomograph*", "tomograph*", "tomogram*",
    "magnetic resonance", "mr imag*", "mr image*", "x-ray*", "xray*", "x ray*", "radiograph*", "roentgen*",
    "radiolog*", "angiogra*", "arteriogra*", "venogra*", "coronarogra*", "aortogra*", "ventriculogra*", "fluoroscop*", "mammogra*", "myelogra*",
    "urogra*", "cholangiogra*", "hysterosalpingogra*", "cystogra*", "contrast-enhanced", "contrast enhanced",
    "ct scan*", "cat scan*", "bone scan*", "pet scan*", "mri scan*", "scintigra*", "scintiscan*",
    "nuclear medicine", "nuclear magnetic resonance imag*", "nuclear magnetic resonance scan*",
    "positron emission", "single-photon emission", "single photon emission", "densitometr*",
    "ultrasound*", "ultrasonogra*", "sonogra*", "echocardiogra*", "echograph*", "doppler", "elastograph*",
    "diffusion-weighted", "diffusion weighted", "t1-weighted", "t2-weighted", "flair", "tractograph*",
    # clinical imaging
    "endoscop*", "colonoscop*", "gastroscop*", "bronchoscop*", "laparoscop*", "arthroscop*", "cystoscop*",
    "colposcop*", "dermoscop*", "dermatoscop*", "fundus", "funduscop*", "ophthalmoscop*", "slit-lamp",
    "slit lamp", "optical coherence tomograph*", "fluorescein angiogra*", "intraoperative", "clinical photo*", "intraoperative photo*", "operative view*",
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


MEDICAT_KEYWORDS = Path(__file__).parent / "data" / "medicat_keywords.txt"


def load_keywords(path: str | Path) -> list[str]:
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: keyword file not found")
    lines = path.read_text(encoding="utf-8").splitlines()
    terms = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    if not terms:
        raise MedfigError(f"{path}: no keywords (one term per line, '#' comments)")
    return terms


def _is_acronym(term: str) -> bool:
    return sum(ch.isupper() for ch in term) >= 2


def _keyword_regex(term: str) -> str:
    """A list keyword as a regex: whole word, optional plural, hyphen = hyphen, space or nothing."""
    stem = term.rstrip("*")  # a trailing "*" (user lists): any word ending, radiograph* -> radiography
    body = r"[-\s]?".join(r"\s+".join(re.escape(w) for w in part.split()) for part in stem.split("-"))
    tail = r"\w*" if term.endswith("*") else r"(?:e?s)?"
    return rf"(?<![^\W_]){body}{tail}(?![^\W_])"


class ListKeywordMatcher:
    """A keyword list matched by the rules of the module docstring (MedICaT's list by default)."""

    def __init__(self, terms: list[str] | tuple[str, ...]):
        acronyms = sorted((t for t in terms if _is_acronym(t)), key=len, reverse=True)
        words = sorted((t for t in terms if not _is_acronym(t)), key=len, reverse=True)
        self.cs = re.compile("|".join(_keyword_regex(t) for t in acronyms)) if acronyms else None
        self.ci = re.compile("|".join(_keyword_regex(t) for t in words), re.IGNORECASE) if words else None

    def find(self, text: str) -> list[str]:
        """Matched keywords (acronyms as written, words lower-cased), in order of first appearance."""
        if not text:
            return []
        hits = [(m.start(), m.group(0)) for m in self.cs.finditer(text)] if self.cs else []
        hits += [(m.start(), m.group(0).lower()) for m in self.ci.finditer(text)] if self.ci else []
        seen: dict[str, None] = {}
        for _, h in sorted(hits):
            seen.setdefault(" ".join(h.split()), None)
        return list(seen)


def medicat_matcher() -> ListKeywordMatcher:
    """MedICaT's 39 keywords (appendix B), shipped in ``data/medicat_keywords.txt``."""
    return ListKeywordMatcher(load_keywords(MEDICAT_KEYWORDS))


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

    def __init__(self, matcher: KeywordMatcher | ListKeywordMatcher | None = None, use_inline_refs: bool = True):
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
