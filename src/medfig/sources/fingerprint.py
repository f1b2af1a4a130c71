"""Fingerprints of article sources: cheap change detectors over names, sizes and mtimes."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from medfig.sources.package import sibling_files, walk_folder
from medfig.sources.sniff import is_pdf_name, is_xml_name
from medfig.sources.source import ArticleSource


def _digest(entries: Iterable[tuple[str, int, int]], extra: str = "") -> str:
    sha = hashlib.sha1()
    for name, size, mtime_ns in entries:
        sha.update(f"{name}\0{size}\0{mtime_ns}\n".encode("utf-8", "surrogateescape"))
    sha.update(extra.encode("utf-8", "surrogateescape"))
    return sha.hexdigest()


def _stat_entries(files: dict[str, Path]) -> list[tuple[str, int, int]]:
    entries = []
    for name, path in sorted(files.items()):
        try:
            st = path.stat()
        except OSError:
            continue  # vanished between listing and stat: the next run sees the change
        entries.append((name, st.st_size, st.st_mtime_ns))
    return entries


def folder_fingerprint(folder: Path) -> str:
    files, _ = walk_folder(folder)
    return _digest(_stat_entries(files))


def archive_fingerprint(archive: Path, prefix: str) -> str:
    # The archive's own stat stands for all its members: reading them would not be cheap.
    return _digest(_stat_entries({archive.name: archive}), extra=prefix)


def file_fingerprint(path: Path) -> str:
    """The file, its same-stem partner and sibling non-article files (figures).

    Other XMLs and PDFs in the folder are separate articles: touching one of
    them must not invalidate every other article of a flat folder.
    """
    files = sibling_files(path)
    involved = {
        name: p
        for name, p in files.items()
        if name == path.name
        or name.rsplit(".", 1)[0] == path.stem
        or not (is_xml_name(name) or is_pdf_name(name))
    }
    involved[path.name] = path
    return _digest(_stat_entries(involved))


def make_source(key: str, container: Path, kind: str, prefix: str = "") -> ArticleSource:
    if kind == "folder":
        fingerprint = folder_fingerprint(container)
    elif kind == "file":
        fingerprint = file_fingerprint(container)
    else:
        fingerprint = archive_fingerprint(container, prefix)
    return ArticleSource(key=key, container=os.fspath(container), kind=kind, prefix=prefix, fingerprint=fingerprint)
