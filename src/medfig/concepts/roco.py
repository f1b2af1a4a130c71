"""Readers for ROCO's text files (``captions.txt``, ``cuis.txt``: ``ROCO_xxxxx<TAB>...``)."""

from __future__ import annotations

from pathlib import Path

from medfig.records import MedfigError


def read_id_tsv(path: str | Path) -> dict[str, list[str]]:
    """``id<TAB>field<TAB>field...`` -> {id: [non-empty fields]}; bad lines raise naming file and line."""
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: not found")
    out: dict[str, list[str]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < 2 and not parts[0].strip():
            raise MedfigError(f"{path}:{lineno}: expected 'id<TAB>...'")
        out[parts[0].strip()] = [p.strip() for p in parts[1:] if p.strip()]
    return out


def read_captions(path: str | Path) -> dict[str, str]:
    """ROCO-style ``id<TAB>caption`` -> {id: caption}."""
    return {k: " ".join(v) for k, v in read_id_tsv(path).items()}


def read_roco_split(folder: str | Path) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(captions, gold CUIs) of one ROCO folder such as data/test/radiology."""
    folder = Path(folder)
    return read_captions(folder / "captions.txt"), read_id_tsv(folder / "cuis.txt")
