"""Concepts: vocabularies, a dictionary matcher, a lexicon learned by distant supervision,
and ROCOv2's manual concepts (modality, body region, X-ray direction)."""
