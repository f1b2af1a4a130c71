"""Zip and tar packages: eLife/MECA zips, PMC OA ``.tar.gz`` packages.

Zip has a central directory, so members are read lazily on demand. A gzipped
tar has no index: reaching member *n* means decompressing everything before it,
so ``open()`` makes one pass and spools this article's members (small ones in
memory, large ones to a temporary file, copied in chunks) instead of paying a pass
per figure. While it copies, it compares each member's bytes with the compressed bytes
the stream consumed for it: a member that inflates past ``safety.MAX_ZIP_RATIO`` (a
tar.gz of zeros) stops being copied and is refused on read, as a zip member is, so
neither memory nor the temporary disk fills up.
"""

from __future__ import annotations

import os
import re
import stat
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

from medfig.records import SourceError
import medfig.sources.safety as safety
from medfig.sources.package import READ_ERRORS, ArticlePackage, describe
from medfig.sources.registry import register_opener
from medfig.sources.sniff import is_xml_name

if TYPE_CHECKING:
    from medfig.sources.source import ArticleSource

TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")
ZIP_SUFFIXES = (".zip", ".meca")
SPOOL_MEMORY_BYTES = 16 * safety.MiB  # members above this spill to a temporary file
_PMC_PACKAGE = re.compile(r"^PMC\d+$")
_COPY_CHUNK = 1024 * 1024
# How far a decompressor may have read ahead of the member it is inflating (gzip reads the
# compressed file 128 KiB at a time): allowed for, so that only a clear bomb is refused.
_READ_AHEAD_BYTES = 256 * 1024


def archive_kind(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(TAR_SUFFIXES):
        return "tar"
    if lower.endswith(ZIP_SUFFIXES):
        return "zip"
    return None


def archive_stem(name: str) -> str:
    """``PMC123.tar.gz`` -> ``PMC123``; ``elife-19405-vor-r2.zip`` -> ``elife-19405-vor-r2``."""
    base = name.rsplit("/", 1)[-1]
    lower = base.lower()
    for suffix in TAR_SUFFIXES + ZIP_SUFFIXES:
        if lower.endswith(suffix):
            return base[: -len(suffix)]
    return base


def _member_prefix(name: str, prefix: str) -> str | None:
    """Name relative to the article's prefix, or None when the member belongs elsewhere."""
    if not prefix:
        return name
    return name[len(prefix):] if name.startswith(prefix) and len(name) > len(prefix) else None


def _too_many(container: str) -> SourceError:
    return SourceError(f"{container}: more than {safety.MAX_MEMBERS} members; refused")


def _article_path(label: str, raw_name: str, is_regular: bool, prefix: str, warnings: list[str]) -> str | None:
    """A member's path inside the article, or None when the member is skipped.

    Unsafe names (``../``, absolute) and links are refused with a warning: links could point
    anywhere and devices are never content. Members outside the article's prefix and junk
    (``__MACOSX``, ``.DS_Store``) are skipped silently.
    """
    name = safety.safe_member_name(raw_name)
    if name is None:
        warnings.append(f"{label}: skipped unsafe member {raw_name!r}")
        return None
    if not is_regular:
        warnings.append(f"{label}: skipped non-regular member {raw_name!r} (link or device)")
        return None
    rel = _member_prefix(name, prefix)
    if rel is None or safety.is_junk(rel):
        return None
    return rel


# -- zip --------------------------------------------------------------------------------

class ZipPackage(ArticlePackage):
    def __init__(self, source: ArticleSource, archive: zipfile.ZipFile) -> None:
        self._zip = archive
        self._infos: dict[str, zipfile.ZipInfo] = {}
        label = Path(source.container).name
        warnings: list[str] = []
        infos = archive.infolist()
        if len(infos) > safety.MAX_MEMBERS:
            raise _too_many(source.container)
        for info in infos:
            if info.is_dir():
                continue
            is_link = stat.S_ISLNK(info.external_attr >> 16)
            rel = _article_path(label, info.filename, not is_link, source.prefix, warnings)
            if rel is None:
                continue
            if rel in self._infos:  # zip allows repeats; the first one wins, deterministically
                warnings.append(f"{label}: skipped duplicate member {info.filename!r}")
                continue
            self._infos[rel] = info
        super().__init__(source, {n: i.file_size for n, i in self._infos.items()}, warnings)

    def _read(self, name: str, limit: int, where: str) -> bytes:
        info = self._infos[name]
        safety.check_zip_ratio(info.file_size, info.compress_size, where)
        with self._zip.open(info) as handle:
            return safety.read_capped(handle, limit, where)

    def _read_head(self, name: str, n: int) -> bytes:
        with self._zip.open(self._infos[name]) as handle:
            return handle.read(n)

    def close(self) -> None:
        self._zip.close()
        super().close()


def open_zip(source: ArticleSource) -> ZipPackage:
    try:
        archive = zipfile.ZipFile(source.container)
    except (zipfile.BadZipFile, *READ_ERRORS) as exc:
        raise SourceError(f"{source.container}: not a readable zip archive ({describe(exc)})") from exc
    try:
        package = ZipPackage(source, archive)
    except BaseException:
        archive.close()
        raise
    package._choose_main_files()
    return package


# -- tar --------------------------------------------------------------------------------

class TarPackage(ArticlePackage):
    def __init__(self, source: ArticleSource, spools: dict[str, IO[bytes]], sizes: dict[str, int],
                 warnings: list[str], refused: dict[str, str] | None = None) -> None:
        self._spools = spools
        self._refused = refused or {}  # member -> why it was not kept (a possible bomb)
        super().__init__(source, sizes, warnings)

    def _read(self, name: str, limit: int, where: str) -> bytes:
        if name in self._refused:
            raise SourceError(self._refused[name])
        spool = self._spools.get(name)
        if spool is None:  # only oversized members lack a spool, and check_member_size refused those
            raise SourceError(f"{where}: member was not kept (over the size limit)")
        spool.seek(0)
        return safety.read_capped(spool, limit, where)

    def _read_head(self, name: str, n: int) -> bytes:
        spool = self._spools.get(name)
        if spool is None:
            return b""
        spool.seek(0)
        return spool.read(n)

    def close(self) -> None:
        for spool in self._spools.values():
            spool.close()
        self._spools.clear()
        super().close()


class _CompressedStream:
    """How many compressed bytes of the archive file a tar stream has consumed so far."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self.size = os.fstat(raw.fileno()).st_size

    def position(self) -> int:
        return self._raw.tell()


def _spool_member(tar: tarfile.TarFile, member: tarfile.TarInfo, where: str,
                  stream: _CompressedStream) -> IO[bytes]:
    """Copy one member out of the stream in chunks, never more than its header promised.

    Raises SourceError (``compression ratio ...``) when the member inflates past
    ``safety.MAX_ZIP_RATIO``: up front when the rest of the archive file is too small to hold
    it at that ratio, else as soon as the bytes copied so far outgrow what was consumed.
    """
    start = stream.position()
    safety.check_zip_ratio(member.size, stream.size - start + _READ_AHEAD_BYTES, where)
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES)
    try:
        source = tar.extractfile(member)
        if source is None:
            raise SourceError(f"{where}: member has no data")
        copied = 0
        with source:
            while chunk := source.read(_COPY_CHUNK):
                spool.write(chunk)
                copied += len(chunk)
                safety.check_zip_ratio(copied, stream.position() - start + _READ_AHEAD_BYTES, where)
        if copied != member.size:
            raise SourceError(f"{where}: member is {copied} bytes, header says {member.size}")
    except BaseException:
        spool.close()
        raise
    return spool


def _scan_tar(source: ArticleSource, tar: tarfile.TarFile, stream: _CompressedStream,
              spools: dict[str, IO[bytes]], sizes: dict[str, int], warnings: list[str],
              refused: dict[str, str]) -> None:
    label = Path(source.container).name
    total = 0
    for count, member in enumerate(tar, start=1):
        if count > safety.MAX_MEMBERS:
            raise _too_many(source.container)
        if member.isdir():
            continue
        rel = _article_path(label, member.name, member.isreg(), source.prefix, warnings)
        if rel is None or rel in sizes:
            continue
        sizes[rel] = member.size
        if member.size > safety.MAX_MEMBER_BYTES:
            continue  # listed with its size; read_bytes refuses it
        total += member.size
        if total > safety.MAX_PACKAGE_BYTES:
            raise SourceError(f"{source.container}: members exceed the package limit of "
                              f"{safety.MAX_PACKAGE_BYTES} bytes; refused")
        where = f"{source.container}:{member.name}"
        try:
            spools[rel] = _spool_member(tar, member, where, stream)
        except SourceError as exc:
            if "compression ratio" not in str(exc):
                raise
            refused[rel] = str(exc)  # the other members stay readable; reading this one says why
            warnings.append(str(exc))


def open_tar(source: ArticleSource) -> TarPackage:
    spools: dict[str, IO[bytes]] = {}
    sizes: dict[str, int] = {}
    warnings: list[str] = []
    refused: dict[str, str] = {}
    try:
        with open(source.container, "rb") as raw, tarfile.open(fileobj=raw, mode="r:*") as tar:
            _scan_tar(source, tar, _CompressedStream(raw), spools, sizes, warnings, refused)
    except BaseException as exc:
        for spool in spools.values():
            spool.close()
        if isinstance(exc, READ_ERRORS):
            raise SourceError(f"{source.container}: truncated or corrupt tar archive ({describe(exc)})") from exc
        raise
    package = TarPackage(source, spools, sizes, warnings, refused)
    package._choose_main_files()
    return package


register_opener("zip", open_zip)  # MECA (.meca) packages are zips too
register_opener("tar", open_tar)


# -- discovery --------------------------------------------------------------------------

def list_members(path: Path) -> list[str] | None:
    """Safe member names, or None when listing is refused (too big) or impossible (corrupt).

    Either way discovery still yields one source for the archive, so a corrupt
    file becomes an error row when opened instead of silently vanishing.
    """
    kind = archive_kind(path.name)
    try:
        if kind == "zip":
            with zipfile.ZipFile(path) as archive:
                raw = [i.filename for i in archive.infolist() if not i.is_dir()]
        else:
            # Listing a compressed tar decompresses it all: only worth it below a size cap.
            if not path.name.lower().endswith(".tar") and path.stat().st_size > safety.MAX_LIST_BYTES:
                return None
            with open(path, "rb") as handle, tarfile.open(fileobj=handle, mode="r:*") as tar:
                raw = _tar_names(tar, _CompressedStream(handle))
    except (zipfile.BadZipFile, *READ_ERRORS):
        return None
    if raw is None:
        return None
    names = (safety.safe_member_name(n) for n in raw)
    return [n for n in names if n is not None and not safety.is_junk(n)]


def _tar_names(tar: tarfile.TarFile, stream: _CompressedStream) -> list[str] | None:
    """Regular members' names, or None as soon as the stream inflates like a bomb.

    Reaching the next header means inflating the member before it, in this (the driver's)
    process: a member the rest of the file cannot hold at ``MAX_ZIP_RATIO``, or a stream
    already past that ratio, stops the listing before the gigabytes are inflated.
    """
    names = []
    for member in tar:
        consumed = stream.position() + _READ_AHEAD_BYTES
        past_ratio = member.offset_data > safety.ZIP_RATIO_MIN_BYTES + safety.MAX_ZIP_RATIO * consumed
        too_big = member.size > safety.ZIP_RATIO_MIN_BYTES + safety.MAX_ZIP_RATIO * (
            stream.size - stream.position() + _READ_AHEAD_BYTES)
        if past_ratio or too_big:
            return None
        if member.isreg():
            names.append(member.name)
    return names


def split_articles(names: list[str]) -> list[str]:
    """Member prefixes of the articles an archive holds; ``[""]`` means one article.

    Several articles only when the archive is nothing but top-level folders, at
    least two of which hold an XML (a bundle of ``PMC1/``, ``PMC2/``, ...).
    """
    if any("/" not in n for n in names):
        return [""]
    tops = sorted({n.split("/", 1)[0] for n in names})
    with_xml = [t + "/" for t in tops if any(n.startswith(t + "/") and is_xml_name(n) for n in names)]
    return with_xml if len(with_xml) >= 2 else [""]


def archive_prefixes(path: Path) -> list[str]:
    """Articles inside an archive, listed as cheaply as possible.

    A ``PMC123.tar.gz`` from the PMC OA service holds exactly one article, so
    it is not decompressed at discovery at all.
    """
    if archive_kind(path.name) == "tar" and _PMC_PACKAGE.match(archive_stem(path.name)):
        return [""]
    names = list_members(path)
    return [""] if names is None else split_articles(names)
