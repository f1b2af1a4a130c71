"""Find the package member a JATS ``<graphic xlink:href>`` points at.

Hrefs are written loosely: ``fig1``, ``fig1.tif``, ``elife-19405-fig1``,
``nihpp-2023.12.31.573776v1-f0001`` (dots that are not an extension), and the
file may sit in a subfolder (``content/24301711v1_fig1.tif`` in a MECA zip).
Matching is by file name, case-insensitive: the exact name first, then the same
stem with any image extension the package has.

When several files fit, the best format wins: originals (TIFF) over PNG over the
JPEG web copies; PMC's ``.gif`` files are thumbnails, used only when nothing else
exists (callers should warn, see :func:`is_thumbnail`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from urllib.parse import unquote

# Best first. Vector formats rank below rasters because the image stage decodes with
# Pillow; the GIF thumbnail is the last resort.
IMAGE_EXTENSIONS: tuple[str, ...] = (
    "tif", "tiff", "png", "jpg", "jpeg", "jp2", "bmp", "webp", "eps", "svg", "pdf", "gif",
)
_RANK = {ext: i for i, ext in enumerate(IMAGE_EXTENSIONS)}
THUMBNAIL_EXTENSIONS = frozenset({"gif"})


def _split(name: str) -> tuple[str, str]:
    """(stem, extension) with the extension only if it is a known image format."""
    stem, dot, ext = name.rpartition(".")
    return (stem, ext) if dot and ext in _RANK else (name, "")


def _href_name(href: str) -> str:
    path = href.strip().replace("\\", "/").split("?", 1)[0].split("#", 1)[0]
    return path.rsplit("/", 1)[-1].lower()


def is_thumbnail(member: str) -> bool:
    return _split(member.rsplit("/", 1)[-1].lower())[1] in THUMBNAIL_EXTENSIONS


class GraphicIndex:
    """Package member names indexed by file name and stem; build once per article."""

    def __init__(self, package_files: Iterable[str], *, base_dir: str = "") -> None:
        self._base_dir = base_dir.strip("/")
        self._by_name: dict[str, list[str]] = {}
        self._by_stem: dict[str, list[str]] = {}
        for member in package_files:
            name = member.rsplit("/", 1)[-1].lower()
            self._by_name.setdefault(name, []).append(member)
            stem, ext = _split(name)
            if ext:
                self._by_stem.setdefault(stem, []).append(member)

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def _place(self, member: str) -> tuple[bool, int, str]:
        # Same folder as the XML first, then the shallowest path: a stray copy deeper
        # in the package is less likely to be the one the XML means.
        return (posixpath.dirname(member) != self._base_dir, member.count("/"), member)

    def rank(self, member: str) -> tuple[int, tuple[bool, int, str]]:
        """Sort key of a member: better format first, then closer to the XML."""
        ext = _split(member.rsplit("/", 1)[-1].lower())[1]
        return (_RANK.get(ext, len(_RANK)), self._place(member))

    def candidates(self, href: str) -> list[str]:
        """Every member the href could mean, best first."""
        name = _href_name(href)
        if not name:
            return []
        exact: list[str] = []
        loose: list[str] = []
        for n in dict.fromkeys([name, unquote(name)]):
            stem, ext = _split(n)
            exact += self._by_name.get(n, [])
            loose += self._by_stem.get(n, [])  # "fig1" -> fig1.tif, fig1.jpg, ...
            if ext:
                loose += self._by_stem.get(stem, [])  # "fig1.tif" when the package has fig1.jpg
        # A file named exactly as written is what the publisher meant, unless it is a thumbnail.
        named = [m for m in dict.fromkeys(exact) if not is_thumbnail(m)]
        others = [m for m in dict.fromkeys(loose + exact) if m not in named]
        return sorted(named, key=self._place) + sorted(others, key=self.rank)

    def resolve(self, href: str) -> str | None:
        found = self.candidates(href)
        return found[0] if found else None


def resolve_graphic(href: str, package_files: Sequence[str], *, base_dir: str = "") -> str | None:
    """The package member ``href`` names, or None. Builds an index: for many hrefs use :class:`GraphicIndex`."""
    return GraphicIndex(package_files, base_dir=base_dir).resolve(href)
