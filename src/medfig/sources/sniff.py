"""Recognise article files by their content, and pick the main XML and PDF.

Names lie: a MECA zip holds ``manifest.xml``, ``transfer.xml`` and
``directives.xml`` next to the article, and publishers name the JATS file
anything. So the XML is chosen by its root element, read from the first few KB.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

SNIFF_BYTES = 8192
XML_SUFFIXES = (".xml", ".nxml")
PDF_SUFFIX = ".pdf"

# Wrappers that parse_jats unwraps (efetch / OAI-PMH responses carry one article inside).
_WRAPPERS = frozenset({"pmc-articleset", "OAI-PMH", "GetRecord", "record", "metadata"})
_START_TAG = re.compile(rb"<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]")
_ARTICLE_TAG = re.compile(rb"<([A-Za-z_][\w.-]*:)?article[\s/>]")
_SKIPPED = re.compile(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", re.S)


def _first_element(head: bytes) -> tuple[str | None, int]:
    """Local name and offset of the first element, skipping the prolog."""
    body = _SKIPPED.sub(lambda m: b" " * (m.end() - m.start()), head)
    match = _START_TAG.search(body)
    if match is None:
        return None, -1
    return match.group(2).decode("ascii", "replace"), match.start()


def looks_like_jats(head: bytes) -> bool:
    """True when the document's root is ``<article>`` (or a known wrapper holding one)."""
    head = head.lstrip(b"\xef\xbb\xbf")
    name, start = _first_element(head)
    if name == "article":
        return True
    return name in _WRAPPERS and _ARTICLE_TAG.search(head, start + 1) is not None


def looks_like_meca_manifest(head: bytes) -> bool:
    name, _ = _first_element(head.lstrip(b"\xef\xbb\xbf"))
    return name == "manifest"


def is_xml_name(name: str) -> bool:
    return name.lower().endswith(XML_SUFFIXES)


def is_pdf_name(name: str) -> bool:
    return name.lower().endswith(PDF_SUFFIX)


def _stem(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0].lower()


def choose_xml(sizes: Mapping[str, int], read_head: Callable[[str], bytes]) -> str | None:
    """The JATS member: shallowest first, ``.nxml`` (PMC's convention) before ``.xml``, then largest."""
    candidates = [name for name in sizes if is_xml_name(name)]
    candidates.sort(key=lambda n: (n.count("/"), not n.lower().endswith(".nxml"), -sizes[n], n))
    for name in candidates:
        if looks_like_jats(read_head(name)):
            return name
    return None


def choose_pdf(sizes: Mapping[str, int], xml_name: str | None) -> str | None:
    """The main PDF: the one named like the XML, else the shallowest, then largest.

    Supplementary PDFs are usually smaller and often deeper, so size breaks ties.
    """
    pdfs = [name for name in sizes if is_pdf_name(name)]
    if not pdfs:
        return None
    if xml_name is not None:
        same = [n for n in pdfs if _stem(n) == _stem(xml_name)]
        if same:
            return min(same, key=lambda n: (n.count("/"), n))
    return min(pdfs, key=lambda n: (n.count("/"), -sizes[n], n))
