"""JATS ``<permissions>`` -> :class:`~medfig.records.Licence` (SPDX id + original URL and text).

Evidence is read in order of how much a publisher commits to it, and the first
piece that names a licence wins:

1. ``<license xlink:href>``
2. ``<ali:license_ref>``
3. ``<ext-link xlink:href>`` inside the licence paragraphs
4. Creative Commons URLs written in the licence text
5. the licence text itself ("Creative Commons Attribution-NonCommercial 4.0 ...", "CC BY-NC-ND")
6. ``@license-type`` when it names a licence ("cc-by")
7. without any ``<license>``: the copyright statement (NLM 2.x put the licence sentence there)

URLs are read before words because the words are often vaguer ("Creative Commons
Attribution License" next to a link to ``/by/4.0/``); among URLs the first one is
taken, because Springer/BMC texts go on to mention a CC0 waiver for *data*.

SPDX choices:
- CC licences: ``CC-BY[-NC][-ND|-SA]-<version>`` for versions 1.0/2.0/2.5/3.0/4.0. Ported
  licences (``/3.0/us/``, ``/2.0/uk/``, ``/3.0/igo/``) map to the unported id of the same
  version: the obligations a dataset filter cares about (BY/NC/ND/SA) are the same, and
  ``url`` keeps the exact port.
- A licence named without a version ("Creative Commons Attribution License", Hindawi,
  PLOS) gives the bare family, ``CC-BY``: the family is certain, the version is not.
- ``publicdomain/zero`` -> ``CC0-1.0``. ``publicdomain/mark`` -> ``LicenseRef-PDM-1.0``: the
  Public Domain Mark is not on the SPDX list, and ``LicenseRef-`` is SPDX's own syntax
  for ids outside it, so the value stays a valid SPDX expression.
- Anything else (publisher licences, "free to read", COVID-19 access terms, a bare
  "public domain" sentence) -> ``spdx=None``: medfig never guesses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lxml import etree

from medfig.jats.text import local_name
from medfig.records import Licence, LicenceSource

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
PUBLIC_DOMAIN_MARK = "LicenseRef-PDM-1.0"
CC_VERSIONS = frozenset({"1.0", "2.0", "2.5", "3.0", "4.0"})

_CC_URL = re.compile(
    r"creativecommons\.org/+(?P<kind>licen[cs]es|publicdomain)/+(?P<code>[a-z-]+)(?:/+(?P<version>\d+(?:\.\d+)?))?",
    re.IGNORECASE,
)
# "CC BY", "CC-BY-NC-ND 4.0", "CCBY-SA"
_CC_SHORT = re.compile(r"\bcc[\s-]*by\b((?:[\s-]*(?:nc|nd|sa)\b)*)(?:[\s-]*(\d\.\d)\b)?")
_CC_ZERO = re.compile(r"\bcc[\s-]?(?:0|zero)\b|creative\s+commons\s+(?:zero|cc0)\b")
_PD_MARK = re.compile(r"public\s+domain\s+mark\b")
_ATTRIBUTION = re.compile(r"\battribution\b")
_CREATIVE_COMMONS = re.compile(r"creative\s+commons\W+(?:\w+\W+){0,2}$")  # just before "attribution"
# "Attribution" is an ordinary English word; outside "Creative Commons ..." it only counts
# when it is followed by a CC element or a CC version ("Attribution-NonCommercial",
# "Attribution 4.0 International").
_CC_ELEMENT_AFTER = re.compile(
    r"^[\s-]*(?:non[\s-]?commercial|no[\s-]?deriv|share[\s-]?alike|\d\.\d\s+(?:international|unported|generic))"
)
# Where the name of the licence ends: "License", a clause, or a sentence.
_NAME_END = re.compile(r"licen[cs]e|[,;]|\bwhich\b|\bthat\b|\.(?!\d)")
_AFTER_LICENCE_WORD = re.compile(r"\s*(\([^()]{0,40}\)|\d\.\d\b)")
_NC = re.compile(r"non[\s-]?commercial|\bnc\b")
_ND = re.compile(r"no[\s-]?deriv|\bnd\b")
_SA = re.compile(r"share[\s-]?alike|\bsa\b")
_VERSION = re.compile(r"\b([1-4]\.[05])\b")


def _text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _cc_id(elements: Iterable[str], version: str | None) -> str | None:
    """SPDX id from CC licence elements (``{"by", "nc"}``) and a version, or None if impossible."""
    parts = set(elements)
    if "by" not in parts or not parts <= {"by", "nc", "nd", "sa"} or {"nd", "sa"} <= parts:
        return None
    spdx = "CC-BY" + "".join(f"-{p.upper()}" for p in ("nc", "nd", "sa") if p in parts)
    return f"{spdx}-{version}" if version in CC_VERSIONS else spdx


def spdx_from_url(url: str) -> str | None:
    """SPDX id of a creativecommons.org licence URL (any scheme, deed or legalcode page)."""
    match = _CC_URL.search(url)
    if match is None:
        return None
    code, version = match["code"].lower(), match["version"]
    if match["kind"].lower() == "publicdomain":
        return {"zero": "CC0-1.0", "mark": PUBLIC_DOMAIN_MARK}.get(code)
    return _cc_id(code.split("-"), version)


def _text_matches(text: str) -> Iterator[tuple[int, str]]:
    """(position, spdx) for every licence the text names in words."""
    low = text.lower()
    for match in _CC_SHORT.finditer(low):
        elements = ["by", *re.findall(r"nc|nd|sa", match[1])]
        spdx = _cc_id(elements, match[2])
        if spdx:
            yield match.start(), spdx
    for match in _ATTRIBUTION.finditer(low):
        before, after = low[max(0, match.start() - 60) : match.start()], low[match.end() :]
        if not (_CREATIVE_COMMONS.search(before) or _CC_ELEMENT_AFTER.match(after)):
            continue
        end = _NAME_END.search(after[:100])
        name = after[: end.start() if end else 100]
        if end and end[0].startswith("licen"):
            tail = _AFTER_LICENCE_WORD.match(after[end.end() :])  # "License 4.0", "License (CC BY-NC)"
            name += tail[1] if tail else ""
        elements = ["by"]
        elements += ["nc"] if _NC.search(name) else []
        elements += ["nd"] if _ND.search(name) else []
        elements += ["sa"] if _SA.search(name) else []
        version = _VERSION.search(name)
        spdx = _cc_id(elements, version[1] if version else None)
        if spdx:
            yield match.start(), spdx
    for match in _CC_ZERO.finditer(low):
        yield match.start(), "CC0-1.0"
    for match in _PD_MARK.finditer(low):
        yield match.start(), PUBLIC_DOMAIN_MARK


def spdx_from_text(text: str) -> str | None:
    """SPDX id of the first licence a free text names, or None.

    When the same licence is named twice and only one mention has a version
    ("CC BY ... Creative Commons Attribution 4.0"), the versioned one is kept.
    """
    matches = sorted(_text_matches(text))
    if not matches:
        return None
    first = matches[0][1]
    for _, spdx in matches:
        if spdx.startswith(first + "-") and spdx[len(first) + 1 :] in CC_VERSIONS:
            return spdx
    return first


def _urls_in(text: str) -> list[str]:
    return [m[0] for m in re.finditer(r"(?:https?:)?//[^\s()<>\"']+|creativecommons\.org/[^\s()<>\"']+", text)]


def _first_known_url(urls: list[str]) -> tuple[str, str] | None:
    """(spdx, url) of the first URL that names a known licence."""
    for url in urls:
        spdx = spdx_from_url(url)
        if spdx:
            return spdx, url
    return None


def licence_from_permissions(permissions: etree._Element | None, source: LicenceSource) -> Licence:
    """Read a ``<permissions>`` element (or, for NLM 2.x, the ``<article-meta>`` holding the same children).

    ``source`` says whose permissions these are (``"figure"`` or ``"article"``); with
    ``permissions=None`` the result is an unknown licence with ``source="none"``.
    """
    if permissions is None:
        return Licence(source="none")
    licences = [c for c in permissions if local_name(c.tag) == "license"]
    refs = [c for c in permissions if local_name(c.tag) == "license_ref"]
    copyright_texts = [_text(c) for c in permissions if local_name(c.tag) == "copyright-statement"]
    hrefs: list[str] = []  # URL evidence, in order of trust
    texts: list[str] = []
    types: list[str] = []
    for lic in licences:
        if lic.get(XLINK_HREF):
            hrefs.append(lic.get(XLINK_HREF).strip())
        types.append(lic.get("license-type") or "")
    for lic in licences:
        refs += lic.iter("{*}license_ref")
    hrefs += [url for url in map(_text, refs) if url]
    for lic in licences:
        hrefs += [e.get(XLINK_HREF).strip() for e in lic.iter("{*}ext-link") if e.get(XLINK_HREF)]
        # The licence prose: its paragraphs, not the ali:license_ref URL (nor comments).
        prose = [_text(c) for c in lic if local_name(c.tag) not in ("", "license_ref")]
        texts.append(" ".join(p for p in prose if p) or " ".join((lic.text or "").split()))
    text = " ".join(t for t in texts if t) or None
    if not licences:
        text = " ".join(t for t in copyright_texts if t) or None
    text_urls = _urls_in(text or "")
    found = _first_known_url(hrefs) or _first_known_url(text_urls)
    if found:
        return Licence(spdx=found[0], url=found[1], text=text, source=source)
    any_url = next(iter(hrefs + text_urls), None)
    spdx = spdx_from_text(text or "") or next(filter(None, map(spdx_from_text, types)), None)
    return Licence(spdx=spdx, url=any_url, text=text, source=source)
