"""Imaging modality named in a caption, for the search filter.

Used only when the dataset carries no ``modality`` column of its own (the concept
stage writes one once it lands): a caption that says "axial CT" is findable with
``--modality CT``. The patterns are deliberately narrow (whole words, common
abbreviations) so the filter prefers a miss over a wrong tag.
"""

from __future__ import annotations

import re

# (case-sensitive acronyms, case-insensitive words) per modality tag
MODALITY_PATTERNS: dict[str, tuple[str, str]] = {
    "CT": (r"\bCT\b|\bCTA\b|\bHRCT\b|\bMDCT\b", r"computed tomograph|computeri[sz]ed tomograph"),
    "MRI": (r"\bMRI?\b|\bMRA\b|\bFLAIR\b|\bDWI\b|\bT[12]W?I?\b", r"magnetic resonance|\bT[12][- ]weighted"),
    "ultrasound": (r"\bUS\b|\bEUS\b", r"ultraso(?:und|nograph)|sonograph|echocardiogra|doppler"),
    "X-ray": (r"\bCXR\b", r"x-?ray|radiograph|mammogra"),
    "angiography": (r"\bDSA\b", r"angiogra|arteriogra|venogra"),
    "PET": (r"\bPET\b|\bSPECT\b", r"positron emission|scintigra"),
    "endoscopy": (r"\bEGD\b", r"endoscop|colonoscop|gastroscop|bronchoscop|laparoscop|cystoscop"),
    "histology": (r"\bH\s*&\s*E\b|\bHE\b|\bIHC\b",
                  r"histolog|histopatholog|hematoxylin|haematoxylin|immunohistochem|\bstain(?:ed|ing)\b"),
    "fluorescence": (r"\bGFP\b|\bDAPI\b", r"fluorescen|confocal"),
    "microscopy": (r"\bSEM\b|\bTEM\b", r"microscop|micrograph"),
    "photograph": (r"$^", r"photograph|clinical (?:image|picture|photo)|fundus"),
    "chart": (r"$^", r"kaplan|survival curve|\bplots?\b|bar (?:graph|chart)|histogram|scatter|box ?plot|"
                     r"\bgraph\b|flow ?chart"),
}
_COMPILED = {name: (re.compile(acronyms), re.compile(words, re.IGNORECASE))
             for name, (acronyms, words) in MODALITY_PATTERNS.items()}


def modalities_in_text(text: str | None) -> list[str]:
    """Modalities the text names, in the order of MODALITY_PATTERNS (``["CT", "histology"]``)."""
    if not text:
        return []
    return [name for name, (acronyms, words) in _COMPILED.items() if acronyms.search(text) or words.search(text)]


def canonical_modality(name: str) -> str:
    """Map a user's spelling (``ct``, ``mr``, ``xray``, ``US``) to the tag used in the index."""
    key = re.sub(r"[^a-z]", "", name.lower())
    aliases = {"ct": "CT", "cta": "CT", "mr": "MRI", "mri": "MRI", "us": "ultrasound", "ultrasound": "ultrasound",
               "ultrasonography": "ultrasound", "angiography": "angiography", "angio": "angiography",
               "xray": "X-ray", "radiograph": "X-ray", "pet": "PET", "histology": "histology",
               "histopathology": "histology", "pathology": "histology"}
    if key in aliases:
        return aliases[key]
    for tag in MODALITY_PATTERNS:
        if re.sub(r"[^a-z]", "", tag.lower()) == key:
            return tag
    return name
