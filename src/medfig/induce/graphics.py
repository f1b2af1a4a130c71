"""Package images the JATS shows outside ``<fig>``: inline graphics of boxed text, for instance
the image an eLife Insight opens with (``<inline-graphic xlink:href="elife-19405-inf1">``).

They are located by template matching like figure files, but written apart from the
figures (``other_graphics``) because they have no caption: as gold they are neither
figures nor tables. Formula images (inside ``disp-formula``/``inline-formula``) and
graphics of ``<fig>``/``<table-wrap>`` are skipped.
"""

from __future__ import annotations

import posixpath

from lxml import etree

from medfig.jats.graphics import GraphicIndex

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_SKIP_ANCESTORS = {"fig", "table-wrap", "disp-formula", "inline-formula", "fig-group", "supplementary-material"}


def _local(tag) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def other_graphics(xml: bytes, package_files, xml_name: str | None = None) -> list[tuple[str, str]]:
    """``(href, package member)`` of every graphic outside figures, tables and formulas
    whose file is in the package."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True)
    root = etree.fromstring(xml, parser)
    if root is None:
        return []
    index = GraphicIndex(package_files, base_dir=posixpath.dirname(xml_name or ""))
    out: list[tuple[str, str]] = []
    for el in root.iter():
        if _local(el.tag) not in ("graphic", "inline-graphic"):
            continue
        if any(_local(a.tag) in _SKIP_ANCESTORS for a in el.iterancestors()):
            continue
        href = el.get(XLINK_HREF) or ""
        member = index.resolve(href) if href else None
        if member and member not in {m for _, m in out}:
            out.append((href, member))
    return out
