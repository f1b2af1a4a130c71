"""Find the articles under an input path.

Rules, applied to each folder from the input down:

1. Hidden entries and medfig dataset folders (holding ``manifest.sqlite``) are skipped.
2. A folder that directly holds exactly one JATS XML (``.nxml``, or root
   ``<article>``), or a MECA ``manifest.xml``, is one article folder. It claims
   its whole subtree, including any archive it holds: an eLife zip next to its
   unpacked files is one article, read from the unpacked files.
3. A folder with several JATS XMLs is a flat collection: each XML is a
   single-file article; an archive whose stem matches one of them is its packed
   copy and is skipped, other archives are articles of their own.
4. A folder with no JATS XML yields its archives (one source per article
   inside), and, when it has no archives, its PDFs (one PDF and no subfolders:
   a PDF-only article folder).
5. Subfolders are searched unless rule 2 claimed the folder.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from medfig.records import SourceError
from medfig.sources.archives import archive_kind, archive_prefixes, archive_stem
from medfig.sources.package import OUTPUT_MARKER
from medfig.sources.sniff import SNIFF_BYTES, is_pdf_name, is_xml_name, looks_like_jats, looks_like_meca_manifest
from medfig.sources.fingerprint import make_source
from medfig.sources.source import ArticleSource


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_BYTES)
    except OSError:
        return b""  # unreadable here means "not an article marker"; open() reports it if it matters


def _is_jats_file(path: Path) -> bool:
    if path.name.lower().endswith(".nxml"):
        return True
    return is_xml_name(path.name) and looks_like_jats(_head(path))


def _is_meca_folder(files: list[Path]) -> bool:
    manifest = next((f for f in files if f.name == "manifest.xml"), None)
    return manifest is not None and looks_like_meca_manifest(_head(manifest))


def _archive_sources(path: Path) -> Iterator[ArticleSource]:
    kind = archive_kind(path.name)
    assert kind is not None
    prefixes = archive_prefixes(path)
    for prefix in prefixes:
        key = prefix.rstrip("/") if prefix else archive_stem(path.name)
        yield make_source(key, path, kind, prefix)


def _listing(folder: Path) -> tuple[list[Path], list[Path]]:
    files, dirs = [], []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        raise SourceError(f"{folder}: cannot list folder ({exc})") from exc
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir(follow_symlinks=False):
            if not (Path(entry.path) / OUTPUT_MARKER).exists():
                dirs.append(Path(entry.path))
        elif entry.is_file():
            files.append(Path(entry.path))
    return files, dirs


def _scan(folder: Path) -> Iterator[ArticleSource]:
    files, dirs = _listing(folder)
    jats = [f for f in files if _is_jats_file(f)]
    if len(jats) == 1 or (not jats and _is_meca_folder(files)):
        yield make_source(folder.name, folder, "folder")
        return
    archives = [f for f in files if archive_kind(f.name)]
    if jats:
        stems = {f.stem for f in jats}
        yield from (make_source(f.stem, f, "file") for f in jats)
        for archive in archives:
            if archive_stem(archive.name) not in stems:
                yield from _archive_sources(archive)
    elif archives:
        for archive in archives:
            yield from _archive_sources(archive)
    else:
        pdfs = [f for f in files if is_pdf_name(f.name)]
        if len(pdfs) == 1 and not dirs:
            yield make_source(folder.name, folder, "folder")
            return
        yield from (make_source(f.stem, f, "file") for f in pdfs)
    for sub in dirs:
        yield from _scan(sub)


def _single_file(path: Path) -> Iterator[ArticleSource]:
    if archive_kind(path.name):
        yield from _archive_sources(path)
    elif is_xml_name(path.name) or is_pdf_name(path.name):
        yield make_source(path.stem, path, "file")
    else:
        raise SourceError(f"{path}: not an article file (expected .xml, .nxml, .pdf, .zip or .tar.gz)")


def _relative_key(source: ArticleSource, root: Path) -> str:
    """A longer key for sources whose short key collides: their path below the input."""
    path = Path(source.container)
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = path.name
    if source.kind in ("tar", "zip"):
        rel = rel[: len(rel) - len(path.name)] + archive_stem(path.name)
    elif source.kind == "file":
        rel = rel.rsplit(".", 1)[0]
    return f"{rel}/{source.prefix.rstrip('/')}" if source.prefix else rel


def _unique(sources: list[ArticleSource], root: Path) -> list[ArticleSource]:
    counts = Counter(s.key for s in sources)
    fixed = []
    for s in sources:
        if counts[s.key] > 1:
            s = replace(s, key=_relative_key(s, root))
        fixed.append(s)
    return _distinct(fixed)


def _container_suffix(source: ArticleSource) -> str:
    """What tells a source apart from a same-key sibling: its container's extension(s)."""
    name = Path(source.container).name
    if source.kind in ("tar", "zip"):
        suffix = name[len(archive_stem(name)):]
    elif source.kind == "file":
        suffix = name[len(Path(name).stem):]
    else:
        suffix = ""
    return suffix.lstrip(".") or source.kind


def _distinct(sources: list[ArticleSource]) -> list[ArticleSource]:
    """Keys unique by construction, whatever survived :func:`_unique`.

    Sources that still share a key (``PMC1.zip`` beside ``PMC1.tar.gz``, ``a.xml`` beside
    ``a.nxml``) would overwrite each other's rows. The first in (container, prefix) order
    keeps the key; each other one gets ``KEY~SUFFIX`` from its container's extension (then
    ``~2``, ``~3`` ... should that be taken too), a warning that reaches its article's
    ``warnings``, and one line on stderr. Inputs without a collision keep their keys.
    """
    groups: dict[str, list[ArticleSource]] = {}
    for s in sources:
        groups.setdefault(s.key, []).append(s)
    if all(len(group) == 1 for group in groups.values()):
        return sources
    taken = set(groups)
    fixed = []
    for key, group in groups.items():
        if len(group) == 1:
            fixed.extend(group)
            continue
        group = sorted(group, key=lambda s: (s.container, s.prefix))
        first = group[0]
        fixed.append(first)
        for other in group[1:]:
            new_key, n = f"{key}~{_container_suffix(other)}", 2
            while new_key in taken:
                new_key, n = f"{key}~{_container_suffix(other)}~{n}", n + 1
            taken.add(new_key)
            message = (f"article key {key!r} is shared by {_where(first)} and {_where(other)}: "
                       f"the second is article {new_key!r}")
            print(f"medfig: warning: {message}", file=sys.stderr)
            fixed.append(replace(other, key=new_key, warnings=(*other.warnings, message)))
    return fixed


def _where(source: ArticleSource) -> str:
    return f"{source.container}:{source.prefix}" if source.prefix else source.container


def iter_sources(path: str | os.PathLike[str]) -> Iterator[ArticleSource]:
    """Every article under ``path`` (a folder, an archive or a single XML/PDF), sorted by key.

    Raises SourceError when ``path`` does not exist, is not an article file, or
    is itself a medfig dataset.
    """
    root = Path(path)
    if root.is_file():
        sources = list(_single_file(root))
    elif root.is_dir():
        if (root / OUTPUT_MARKER).exists():
            raise SourceError(f"{root}: is a medfig dataset ({OUTPUT_MARKER}), not a folder of articles")
        sources = list(_scan(root))
    else:
        raise SourceError(f"{root}: input not found")
    yield from sorted(_unique(sources, root), key=lambda s: (s.key, s.container, s.prefix))
