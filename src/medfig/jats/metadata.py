"""Article metadata from JATS ``<front>``: ids, journal, title, year, authors, article licence."""

from __future__ import annotations

import re

from lxml import etree

from medfig.jats.licence import licence_from_permissions
from medfig.jats.text import element_text, norm
from medfig.records import Article, Licence

_YEAR = re.compile(r"\b(\d{4})\b")


def normalise_pmcid(value: str | None) -> str | None:
    """``"PMC1234567"`` from ``"1234567"``, ``"pmc1234567"`` or ``"PMC1234567"``; None if no digits."""
    if not value:
        return None
    value = value.strip()
    if value.upper().startswith("PMC"):
        value = value[3:]
    return f"PMC{value}" if value.isdigit() else None


def _article_ids(meta: etree._Element, article: Article) -> None:
    ids: dict[str, str] = {}
    for el in meta.findall("article-id"):
        kind, value = (el.get("pub-id-type") or "").lower(), norm(el.text or "")
        if value:
            ids.setdefault(kind, value)
    pmcids = [normalise_pmcid(ids.get(kind)) for kind in ("pmcid", "pmc", "pmc-uid")]
    if ids.get("accession", "").upper().startswith("PMC"):
        pmcids.append(normalise_pmcid(ids["accession"]))
    article.pmcid = next((p for p in pmcids if p), None)
    pmid = ids.get("pmid")
    article.pmid = pmid if pmid and pmid.isdigit() else None
    doi = ids.get("doi")
    if doi:
        doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.I)
    article.doi = doi or None


def _date_rank(date: etree._Element) -> int:
    kind = date.get("pub-type") or date.get("date-type") or ""
    electronic = date.get("publication-format") == "electronic"
    if kind in ("epub", "epub-ppub") or (electronic and kind in ("pub", "")):
        return 0
    if electronic:
        return 1
    if kind == "ppub" or date.get("publication-format") == "print":
        return 2
    if kind == "pmc-release":  # when PMC released it, not when it was published
        return 4
    return 3


def _year(meta: etree._Element) -> int | None:
    years = []  # (rank, document order, year)
    for order, date in enumerate(meta.findall("pub-date")):
        match = _YEAR.search(date.findtext("year") or date.get("iso-8601-date") or "")
        if match:
            years.append((_date_rank(date), order, int(match[1])))
    return min(years)[2] if years else None


def _authors(meta: etree._Element) -> list[str]:
    authors = []
    for contrib in meta.iterfind("contrib-group/contrib"):
        if contrib.get("contrib-type", "author").lower() != "author":
            continue
        name = contrib.find("name")
        if name is None:
            name = contrib.find("name-alternatives/name")
        if name is not None:
            full = norm(f"{name.findtext('given-names') or ''} {name.findtext('surname') or ''}")
        else:
            string_name, collab = contrib.find("string-name"), contrib.find("collab")
            full = element_text(string_name if string_name is not None else collab)
        if full:
            authors.append(full)
    return authors


def read_metadata(article_el: etree._Element, article: Article) -> etree._Element | None:
    article.article_type = article_el.get("article-type")
    front = article_el.find("front")
    if front is None:
        article.warnings.append("no <front>: article metadata missing")
        return None
    journal_meta = front.find("journal-meta")
    if journal_meta is not None:
        journal = journal_meta.find("journal-title-group/journal-title")
        if journal is None:
            journal = journal_meta.find("journal-title")  # NLM 2.x
        article.journal = element_text(journal) or None
    meta = front.find("article-meta")
    if meta is None:
        article.warnings.append("no <article-meta>: article metadata missing")
        return None
    _article_ids(meta, article)
    article.title = element_text(meta.find("title-group/article-title")) or None
    article.year = _year(meta)
    article.authors = _authors(meta)
    return meta


def article_licence(meta: etree._Element | None) -> Licence:
    if meta is None:
        return Licence(source="none")
    permissions = meta.find("permissions")
    if permissions is not None:
        return licence_from_permissions(permissions, "article")
    # NLM 2.x: <copyright-statement>/<license> sit directly in <article-meta>.
    if meta.find("license") is not None or meta.find("copyright-statement") is not None:
        return licence_from_permissions(meta, "article")
    return Licence(source="none")
