"""ROCOv2-style "manual" concepts from caption rules: modality, IRMA body region, X-ray direction.

ROCOv2 (Rückert et al. 2024) gives every image one modality concept and, for
X-ray images, a body region (IRMA code's anatomy axis, 8 classes) and a
projection direction. medfig derives them from the caption with ordered rules;
each class carries the CUI ROCOv2 uses.

Modality decisions (the rules live in :mod:`medfig.text.modality`, the one modality function that
search and curation share; checked against ROCO's own modality CUIs, see benchmarks/curate_modality.py):
- combined modalities (PET/CT, SPECT/CT, PET/MRI) win over their parts;
- CT/MR angiography ("CTA", "MRA", "CT angiogram") is *angiography*, as ROCO codes it;
- otherwise the modality named first in the caption wins ("MRI ... compared with
  the earlier CT" is an MRI), because captions name the shown image first;
- names count in French, Spanish, Portuguese, Italian and German too (TDM, IRM,
  échographie, tomografía computarizada, Röntgen ...);
- when nothing is named, a second tier of cues that imply one modality decides
  (IMPLIED_MODALITY_RULES: "lateral view" of a bone, a pyelogram, echogenicity, T2
  hyperintensity, Hounsfield units, cardiac catheterization ...), except on captions
  of photographs, micrographs or operative views (NOT_RADIOLOGY).
Captions that neither name nor imply a modality get ``None``.
"""

from __future__ import annotations

import re

MODALITY_CUI = {
    "angiography": "C0002978",  # angiogram
    "ct": "C0040405",  # X-Ray Computed Tomography
    "mri": "C0024485",  # Magnetic Resonance Imaging
    "pet": "C0032743",  # Positron-Emission Tomography
    "ultrasound": "C0041618",  # Ultrasonography
    "xray": "C1306645",  # Plain x-ray
    "combined": "C1699633",  # PET/CT scan (ROCOv2's concept for combined modalities)
}

_I = re.IGNORECASE
# The modality vocabulary and rules live in medfig.text.modality, shared with search and the exports
# (one function, one spelling per class); re-exported here for the concept code that reads them.
from medfig.text.modality import (  # noqa: E402, F401  (re-exported for the concept code)
    IMPLIED_MODALITY_RULES, MODALITY_RULES, NOT_RADIOLOGY, RADIOLOGY_KEYS, modality_key)


def modality_from_caption(text: str | None) -> str | None:
    """The ROCO class key of the caption's modality (one of MODALITY_CUI's), or None when the caption
    names or implies none, or names a non-radiology image first (histology, photograph, ...): ROCOv2's
    modality concepts exist for radiology only. Decided by :func:`medfig.text.modality.modality_of`."""
    key = modality_key(text)
    return key if key in RADIOLOGY_KEYS else None


# IRMA anatomy main codes as ROCOv2 uses them, with the CUIs of cui_mapping.csv.
REGION_CUI = {
    "head": "C0037303",  # Bone structure of cranium
    "neck": "C0027530",  # Neck
    "chest": "C0817096",  # Chest
    "abdomen": "C0000726",  # Abdomen
    "pelvis": "C0030797",  # Pelvis
    "spine": "C0037949",  # Vertebral column
    "upper_extremity": "C1140618",  # Upper Extremity
    "lower_extremity": "C0023216",  # Lower Extremity
}
REGION_RULES: list[tuple[str, re.Pattern]] = [
    ("spine", re.compile(r"\b(?:spine|spinal|vertebra\w*|lumbar|thoracolumbar|cervical\s+spine|sacrum|coccyx|scoliosis|L[1-5](?:[/-]L?[1-5S]1?)?|C[1-7]|T1[0-2]|T[1-9])\b", _I)),
    ("head", re.compile(r"\b(?:skull|cranial|cranium|head|brain|sinus\w*|orbit\w*|mandib\w*|maxill\w*|dental|teeth|tooth|jaw|temporal\s+bone|facial|sella)\b", _I)),
    ("neck", re.compile(r"\b(?:neck|cervical\s+soft|thyroid|larynx|laryngeal|pharyn\w*|trachea\w*)\b", _I)),
    ("chest", re.compile(r"\b(?:chest|thorax|thoracic|lung\w*|pulmonary|pleura\w*|rib|ribs|mediastin\w*|heart|cardiac|cardiomegaly|pneumo\w*|clavicle)\b", _I)),
    ("abdomen", re.compile(r"\b(?:abdomen|abdominal|bowel|colon\w*|stomach|kidney\w*|renal|liver|hepatic|gallbladder|biliary|pancrea\w*|intestin\w*|ileus|KUB)\b", _I)),
    ("pelvis", re.compile(r"\b(?:pelvis|pelvic|hip|hips|acetabul\w*|sacroiliac|pubic|bladder|uterus|ovar\w*|prostat\w*)\b", _I)),
    ("upper_extremity", re.compile(r"\b(?:hand|hands|wrist|finger\w*|thumb|forearm|elbow|humer\w*|shoulder|radius|ulna\w*|scaphoid|carpal|metacarp\w*|arm|scapula)\b", _I)),
    ("lower_extremity", re.compile(r"\b(?:knee|knees|leg|legs|femur|femoral|tibia\w*|fibula\w*|ankle|foot|feet|toe|toes|calcane\w*|metatars\w*|patella\w*|thigh)\b", _I)),
]

# X-ray projection directions (4 classes).
DIRECTION_CUI = {
    "pa": "C1996865",  # Postero-Anterior (in cui_mapping.csv)
    "ap": "C1999039",  # Anterior-Posterior (in cui_mapping.csv)
    "lateral": "C0205093",  # Lateral (UMLS; not in ROCOv2's cui_mapping.csv)
    "oblique": "C0205131",  # Oblique (UMLS; not in ROCOv2's cui_mapping.csv)
}
DIRECTION_RULES: list[tuple[str, re.Pattern]] = [
    ("pa", re.compile(r"\bPA\b|postero[\s-]?anterior|posterior[\s-]anterior", _I)),
    ("ap", re.compile(r"\bAP\b|antero[\s-]?posterior|anterior[\s-]posterior|\bsupine\s+(?:chest\s+)?(?:radiograph|x)", _I)),
    ("lateral", re.compile(r"\blateral\s+(?:view|projection|radiograph|x[\s-]?ray|film|image|chest)\b|\b(?:left|right)\s+lateral\s+decubitus|\blat\.?\s+view", _I)),
    ("oblique", re.compile(r"\boblique\s+(?:view|projection|radiograph|image)", _I)),
]


def _first_match(rules: list[tuple[str, re.Pattern]], text: str) -> str | None:
    best: tuple[int, int, str] | None = None
    for order, (cls, pattern) in enumerate(rules):
        m = pattern.search(text)
        if m and (best is None or (m.start(), order) < best[:2]):
            best = (m.start(), order, cls)
    return best[2] if best else None


def region_from_caption(text: str | None) -> str | None:
    return _first_match(REGION_RULES, text) if text else None


def direction_from_caption(text: str | None) -> str | None:
    return _first_match(DIRECTION_RULES, text) if text else None


def manual_concepts(text: str | None) -> dict:
    """modality (+ CUI) for any caption; body region and direction only for X-ray, as ROCOv2."""
    modality = modality_from_caption(text)
    out = {"modality": modality, "modality_cui": MODALITY_CUI.get(modality or ""),
           "body_region": None, "body_region_cui": None, "direction": None, "direction_cui": None}
    if modality == "xray":
        region = region_from_caption(text)
        direction = direction_from_caption(text)
        out.update(body_region=region, body_region_cui=REGION_CUI.get(region or ""),
                   direction=direction, direction_cui=DIRECTION_CUI.get(direction or ""))
    out["concepts_manual"] = [c for c in (out["modality_cui"], out["body_region_cui"], out["direction_cui"]) if c]
    return out
