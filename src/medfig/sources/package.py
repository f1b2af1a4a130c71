"""An opened article: member names, the chosen XML and PDF, capped reads.

``ArticlePackage`` holds what every container shares (member table, choice of
the main XML/PDF, size caps, error wording); subclasses only know how to read
one member. Folder-backed packages live here, archive-backed ones in
``archives.py``.
"""

from __future__ import annotations

import os
import tarfile
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from medfig.records import SourceError
import medfig.sources.safety as safety
from medfig.sources.registry import register_opener
from medfig.sources.sniff import SNIFF_BYTES, choose_pdf, choose_xml, is_pdf_name, is_xml_name, looks_like_jats

if TYPE_CHECKING:
    from medfig.sources.source import ArticleSource

OUTPUT_MARKER = "manifest.sqlite"  # a medfig dataset folder: never read it back as input

# Failures a corrupt or truncated container produces while reading a member.
READ_ERRORS = (OSError, EOFError, zipfile.BadZipFile, zlib.error, tarfile.TarError, RuntimeError,
               NotImplementedError, ValueError)


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class ArticlePackage:
    """One article's files, opened. Use as a context manager; ``close()`` releases handles.

    Member names are '/'-separated and relative to the package root. Names that
    could escape the root never appear in ``names()``; they are reported in
    ``warnings`` instead.
    """

    def __init__(self, source: ArticleSource, sizes: dict[str, int], warnings: list[str]) -> None:
        self.source = source
        self.warnings = [*getattr(source, "warnings", ()), *warnings]
        self._sizes = dict(sorted(sizes.items()))
        self._bytes_read = 0
        self._closed = False
        self.xml_name: str | None = None
        self.pdf_name: str | None = None

    def _choose_main_files(self) -> None:
        """Pick XML and PDF; called by subclasses once their member table is ready."""
        try:
            self.xml_name = choose_xml(self._sizes, self._head)
        except SourceError:
            self.close()
            raise
        self.pdf_name = choose_pdf(self._sizes, self.xml_name)

    # -- public API -------------------------------------------------------------------
    def names(self) -> list[str]:
        return list(self._sizes)

    def size(self, name: str) -> int:
        self._require(name)
        return self._sizes[name]

    def read_bytes(self, name: str) -> bytes:
        """The member's bytes, read with a cap so a lying header cannot exhaust memory."""
        self._require(name)
        where = self._where(name)
        safety.check_member_size(self._sizes[name], where)
        budget = safety.MAX_PACKAGE_BYTES - self._bytes_read
        if budget <= 0:
            raise SourceError(f"{where}: package read budget of {safety.MAX_PACKAGE_BYTES} bytes used up")
        try:
            data = self._read(name, min(safety.MAX_MEMBER_BYTES, budget), where)
        except READ_ERRORS as exc:
            raise SourceError(f"{where}: cannot read member ({describe(exc)})") from exc
        self._bytes_read += len(data)
        return data

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> ArticlePackage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.source.key} xml={self.xml_name!r} pdf={self.pdf_name!r}>"

    # -- for subclasses ---------------------------------------------------------------
    def _read(self, name: str, limit: int, where: str) -> bytes:
        raise NotImplementedError

    def _head(self, name: str) -> bytes:
        """First bytes of a member, for sniffing. A member we cannot even start to read is an error."""
        where = self._where(name)
        try:
            return self._read_head(name, SNIFF_BYTES)
        except READ_ERRORS as exc:
            raise SourceError(f"{where}: cannot read member ({describe(exc)})") from exc

    def _read_head(self, name: str, n: int) -> bytes:
        return self._read(name, safety.MAX_MEMBER_BYTES, self._where(name))[:n]

    def _where(self, name: str) -> str:
        return f"{self.source.container}:{name}"

    def _require(self, name: str) -> None:
        if self._closed:
            raise SourceError(f"{self._where(name)}: package is closed")
        if name not in self._sizes:
            raise SourceError(f"{self._where(name)}: no such member in the package")


# -- folders ----------------------------------------------------------------------------

def _inside(target: Path, root: Path) -> bool:
    try:
        target.relative_to(root)
    except ValueError:
        return False
    return True


def walk_folder(root: Path) -> tuple[dict[str, Path], list[str]]:
    """Every regular file under ``root`` as ``{relative name: path}``, plus warnings.

    Symlinks are followed only when they resolve inside ``root`` (a link to
    ``/etc/passwd`` must not become a "figure"); linked directories are never
    followed, which also rules out loops. Hidden entries and medfig output
    folders are skipped.
    """
    real_root = root.resolve()
    files: dict[str, Path] = {}
    warnings: list[str] = []
    for current, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(current)
        kept = []
        for d in sorted(dirnames):
            path = here / d
            if d.startswith(".") or (path / OUTPUT_MARKER).exists():
                continue
            if path.is_symlink():
                warnings.append(f"{root.name}: skipped symlinked folder {path.relative_to(root).as_posix()!r}")
                continue
            kept.append(d)
        dirnames[:] = kept
        for f in sorted(filenames):
            path = here / f
            rel = path.relative_to(root).as_posix()
            if safety.is_junk(rel):
                continue
            if path.is_symlink() and not _inside(path.resolve(), real_root):
                warnings.append(f"{root.name}: skipped symlink pointing outside the folder {rel!r}")
                continue
            if path.is_file():
                files[rel] = path
    return files, warnings


class FolderPackage(ArticlePackage):
    """An unpacked article: a folder (recursively), or a file and its siblings."""

    def __init__(self, source: ArticleSource, files: dict[str, Path], warnings: list[str]) -> None:
        sizes = {}
        for name, path in files.items():
            try:
                sizes[name] = path.stat().st_size
            except OSError as exc:
                warnings.append(f"{source.container}: skipped unreadable file {name!r} ({describe(exc)})")
        super().__init__(source, sizes, warnings)
        self._files = files

    def _read(self, name: str, limit: int, where: str) -> bytes:
        with open(self._files[name], "rb") as handle:
            return safety.read_capped(handle, limit, where)

    def _read_head(self, name: str, n: int) -> bytes:
        with open(self._files[name], "rb") as handle:
            return handle.read(n)


def open_folder(source: ArticleSource) -> FolderPackage:
    root = Path(source.container)
    if not root.is_dir():
        raise SourceError(f"{root}: article folder not found")
    files, warnings = walk_folder(root)
    package = FolderPackage(source, files, warnings)
    package._choose_main_files()
    return package


def sibling_files(path: Path) -> dict[str, Path]:
    """Regular, non-hidden files beside ``path`` (not recursive): what its XML may reference."""
    folder = path.parent
    real = folder.resolve()
    files = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or not entry.is_file():
            continue
        if entry.is_symlink() and not _inside(entry.resolve(), real):
            continue
        files[entry.name] = entry
    return files


def _same_stem(files: dict[str, Path], stem: str, wanted) -> str | None:
    for name in files:
        if wanted(name) and name.rsplit(".", 1)[0] == stem:
            return name
    return None


def open_file(source: ArticleSource) -> FolderPackage:
    """A single XML or PDF: its role is fixed by the user; a same-stem sibling fills the other role."""
    path = Path(source.container)
    if not path.is_file():
        raise SourceError(f"{path}: file not found")
    files = sibling_files(path)
    files[path.name] = path
    package = FolderPackage(source, files, [])
    if is_pdf_name(path.name):
        package.pdf_name = path.name
        xml = _same_stem(files, path.stem, is_xml_name)
        if xml is not None and looks_like_jats(package._head(xml)):
            package.xml_name = xml
    else:
        package.xml_name = path.name
        package.pdf_name = _same_stem(files, path.stem, is_pdf_name)
    return package


register_opener("folder", open_folder)
register_opener("file", open_file)
