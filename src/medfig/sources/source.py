"""``ArticleSource``: a small, picklable pointer to one article, and its fingerprint.

Sources are made in the parent process and shipped to workers, so they carry
only strings; opening (and any I/O beyond a stat) happens in the worker.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from medfig.records import SourceError
from medfig.sources.package import ArticlePackage, open_file, open_folder, sibling_files, walk_folder
from medfig.sources.sniff import is_pdf_name, is_xml_name

KINDS = ("folder", "tar", "zip", "file", "pmc-cloud")


@dataclass(frozen=True, kw_only=True)
class ArticleSource:
    """Where one article lives.

    ``key`` is the article id in a build (unique within one input); ``container``
    the folder, archive or file path (for error messages); ``prefix`` the member
    prefix of this article inside an archive holding several; ``fingerprint`` a
    cheap change detector over names, sizes and mtimes of the files involved.
    """

    key: str
    container: str
    kind: str
    prefix: str = ""
    fingerprint: str
    pmcid: str | None = None  # when the listing knows it (PMC cloud metadata)
    status: str = ""  # "retracted" or "withdrawn" when the listing says so: the article leaves the dataset
    updated: str | None = None  # last-updated date from the listing (ISO 8601), for incremental updates
    endpoint: str | None = None  # S3-compatible endpoint for remote sources (None: AWS)

    def open(self) -> ArticlePackage:
        """Open the container; raises SourceError when it cannot be opened or listed."""
        from medfig.sources.archives import open_tar, open_zip
        from medfig.sources.pmc_cloud import open_pmc_cloud

        openers = {"folder": open_folder, "file": open_file, "tar": open_tar, "zip": open_zip,
                   "pmc-cloud": open_pmc_cloud}
        opener = openers.get(self.kind)
        if opener is None:
            raise SourceError(f"{self.container}: unknown source kind {self.kind!r}")
        return opener(self)


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
