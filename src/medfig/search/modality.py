"""Modality of a search document: the shared vocabulary and function of :mod:`medfig.text.modality`.

Search used its own word list until issue 17; it now reads modality exactly as curation and the
ROCOv2 concepts do, so a figure has the same modality in ``medfig search`` and in ``medfig curate``.
A document's tag is its OWN evidence: a panel's subcaption, else (for a panel whose subcaption names
none, and for a whole figure) the caption's modality, which is the one it names first. A later
clause that reports another finding ("MRI of the mass ... Definitive histology: schwannoma") never
makes the figure's panels histology.
"""

from __future__ import annotations

from medfig.text.modality import VOCABULARY, canonical_modality, modality_of

__all__ = ["VOCABULARY", "canonical_modality", "modality_of", "modalities_in_text", "document_modalities"]


def modalities_in_text(text: str | None) -> list[str]:
    """``[canonical name]`` of the modality the text names (first), or ``[]``."""
    found = modality_of(text)
    return [found] if found else []


def document_modalities(explicit, own_text: str | None, caption: str | None) -> list[str]:
    """The tags of one document: the dataset's own ``modality`` column when it has one (canonical
    spelling), else the panel's own text, else the figure caption."""
    if explicit:
        values = [explicit] if isinstance(explicit, str) else list(explicit)
        return list(dict.fromkeys(canonical_modality(v) for v in values if v))
    return modalities_in_text(own_text) or modalities_in_text(caption)
