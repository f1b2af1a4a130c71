"""Which panels of a compound figure are single-modality radiology images (``rocov2 --panels``).

ROCOv2 keeps non-compound radiology images only. A panel of a compound figure qualifies when
its modality, decided from the dataset's own text, is one of ROCO's seven radiology classes
(angiography, CT, MRI, PET, ultrasound, X-ray, combined PET/CT):

1. the panel's subcaption names a modality: that one ("(b) Axial CT ..." -> CT);
2. else the panel inherits the figure caption's modality, but only when the figure is
   single-modality: no other panel's subcaption names a different modality, and the
   caption's clauses (split at sentence and clause marks and "and") name one modality only.
   "CT (a) and MRI (b)" with unreadable subcaptions is ambiguous, so neither panel qualifies.

Modality is read by the shared caption function (``medfig.text.modality.modality_key`` once it
exists, ``medfig.concepts.manual.modality_from_caption`` until then). The shared function also
names non-radiology classes (histology, photograph ...), so a figure mixing a CT panel with a
histology panel counts as mixed. Class names are compared lower-cased without punctuation, so
"X-ray", "xray" and "XRAY" are one class, and "PET/CT" is ``combined``.
"""

from __future__ import annotations

import re

try:  # the one shared modality function (issue 17); its keys are MODALITY_CUI's and include non-radiology classes
    from medfig.text.modality import modality_key as modality_from_caption
except ImportError:  # before it lands: the concepts' caption rules (radiology classes only)
    from medfig.concepts.manual import modality_from_caption

RADIOLOGY = frozenset({"angiography", "ct", "mri", "pet", "ultrasound", "xray", "combined"})
_ALIASES = {"petct": "combined", "spectct": "combined", "petmri": "combined"}  # display names of "combined"
_CLAUSE = re.compile(r"[.;:,()]|\band\b|\bwhile\b|\bwhereas\b", re.IGNORECASE)


def normalise(modality: str | None) -> str | None:
    """``X-ray`` / ``XRAY`` / ``xray`` -> ``xray``; ``PET/CT`` -> ``combined``; None stays None."""
    if not modality:
        return None
    key = re.sub(r"[^a-z0-9]", "", modality.lower())
    return _ALIASES.get(key, key) or None


def caption_modalities(caption: str | None) -> set[str]:
    """The distinct modalities the caption's clauses name."""
    found = {normalise(modality_from_caption(clause)) for clause in _CLAUSE.split(caption or "")}
    return {m for m in found if m}


def panel_modalities(figure: dict, panels: list[dict]) -> list[str | None]:
    """The modality of each panel (normalised), or None when the text does not decide it."""
    own = [normalise(modality_from_caption(p.get("subcaption"))) for p in panels]
    caption = figure.get("caption_clean") or figure.get("caption")
    in_caption = caption_modalities(caption)
    figure_modality = normalise(figure.get("modality")) or normalise(modality_from_caption(caption))
    named = {m for m in own if m} | in_caption
    inherit = figure_modality if figure_modality and named <= {figure_modality} else None
    return [m or inherit for m in own]


def is_radiology(modality: str | None) -> bool:
    return modality in RADIOLOGY
