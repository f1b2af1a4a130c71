"""JATS XML -> :class:`~medfig.records.Article`: metadata, licences, figures, tables.

One secure parse, then one pass over the elements that matter. Accepts plain
JATS/NLM ``<article>`` files (PMC ``.nxml``, publisher XML, with or without a
DOCTYPE) and the wrappers PMC's services put around them: efetch's
``<pmc-articleset>`` and OAI-PMH ``GetRecord`` (whose article sits in the JATS 1.3
namespace, stripped here so every later reader sees plain JATS names).

Decisions worth knowing:
- Captions keep *every* block of ``<caption>`` (title and all paragraphs), not just
  the first as pubmed_parser does. The one paragraph dropped is eLife's
  ``DOI: http://dx.doi.org/...`` line: an identifier of the figure, not caption text.
- Every ``<fig>`` of the article is a Figure, wherever it sits (body, back,
  floats-group, a graphical abstract in front, sub-articles).
- ``n_fig_xrefs`` counts ``<xref ref-type="fig">`` in running text: ``<body>`` and the
  appendices in ``<back>``, but not inside figure/table captions (a caption citing
  another figure is not an inline reference). It is the denominator for inline-reference
  coverage.
"""

from __future__ import annotations

import posixpath
import re
from html.entities import html5 as html5_entities
from collections.abc import Callable, Sequence
from dataclasses import replace

from lxml import etree

from medfig.jats.graphics import GraphicIndex, is_thumbnail
from medfig.jats.licence import XLINK_HREF, licence_from_permissions
from medfig.records import Article, Figure, JatsError, Licence, Table

_PARSER_OPTIONS = dict(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False, recover=False)
_WRAPPERS = frozenset({"pmc-articleset", "OAI-PMH", "GetRecord", "record", "metadata"})
_JATS_NAMESPACE_PREFIXES = ("https://jats.nlm.nih.gov/ns/", "http://jats.nlm.nih.gov/ns/")
MATHML = "{http://www.w3.org/1998/Math/MathML}math"

# Elements whose text is a separate block: a space goes around them so that
# "<title>A.</title><p>B</p>" reads "A. B", while inline markup joins as written.
_BLOCKS = frozenset({
    "p", "title", "list", "list-item", "def-list", "def-item", "term", "def", "disp-quote",
    "disp-formula", "sec", "table", "tr", "td", "th", "statement", "boxed-text", "preformat",
    "attrib", "caption", "fn", "verse-group", "verse-line", "speech", "array",
})
# Not caption text: image references, identifiers, the figure label.
_SKIP = frozenset({"graphic", "inline-graphic", "media", "object-id", "label"})
_ELIFE_DOI_LINE = re.compile(r"^DOI:\s*\S+$")
_YEAR = re.compile(r"\b(\d{4})\b")


def _parser() -> etree.XMLParser:
    # A parser per call: lxml parsers are not safe to share between threads.
    return etree.XMLParser(**_PARSER_OPTIONS)


def _norm(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- text


def walk_text(el: etree._Element, add: Callable[[str], None], *, skip: frozenset[str] = _SKIP,
              visit: Callable[[etree._Element, Callable[[etree._Element], None]], bool] | None = None) -> None:
    """Pass the text of ``el``'s content, piece by piece, to ``add``.

    Comments and processing instructions give only their tail; elements named in ``skip``
    give nothing. ``visit(child, walk)`` may take over a child element (and call ``walk`` on
    it to have its text added): it returns True when it did. The inline-reference reader
    uses it to record where each figure xref starts and ends.
    """
    def walk(child: etree._Element) -> None:
        walk_text(child, add, skip=skip, visit=visit)

    if el.text:
        add(el.text)
    for child in el:
        tag = child.tag
        if isinstance(tag, str):
            if tag in skip:
                pass
            elif visit is not None and visit(child, walk):
                pass
            elif tag == "alternatives":
                choice = _alternative_for_text(child)
                if choice is not None:
                    walk(choice)
            elif tag in _BLOCKS:
                add(" ")
                walk(child)
                add(" ")
            else:
                walk(child)
        elif tag is etree.Entity:
            # An entity of the external DTD we do not load (&ndash;): standard character
            # names only, so document-defined entities are never expanded.
            add(html5_entities.get(f"{child.name};", ""))
        if child.tail:
            add(child.tail)


def _alternative_for_text(alternatives: etree._Element) -> etree._Element | None:
    """One readable version of an ``<alternatives>``: MathML, else plain text, else TeX.

    TeX comes last because PMC's tex-math often carries a whole LaTeX preamble.
    """
    children = [c for c in alternatives if isinstance(c.tag, str) and c.tag not in _SKIP]
    mathml = [c for c in children if c.tag == MATHML]
    plain = [c for c in children if c.tag != "tex-math"]
    return (mathml or plain or children or [None])[0]


def element_text(el: etree._Element | None) -> str:
    """Readable text of an element: inline markup kept as text, blocks space-separated, whitespace normalised."""
    if el is None:
        return ""
    out: list[str] = []
    walk_text(el, out.append)
    return _norm("".join(out))


def clean_label(text: str) -> str | None:
    """A label without the punctuation publishers put after it: eLife's "Figure 1." becomes "Figure 1"."""
    return text.rstrip(" .:|\u2014-").strip() or None


def _is_elife_doi_line(p: etree._Element) -> bool:
    return any(link.get("ext-link-type") == "doi" for link in p.iter("ext-link")) and bool(
        _ELIFE_DOI_LINE.match(element_text(p))
    )


def caption_text(caption: etree._Element | None) -> tuple[str, str | None]:
    """(full caption, caption title) of a ``<caption>``; ``("", None)`` when absent."""
    if caption is None:
        return "", None
    title = caption.find("title")
    out: list[str] = []
    if caption.text:
        out.append(caption.text)
    for child in caption:
        if isinstance(child.tag, str) and child.tag not in _SKIP:
            if not (child.tag == "p" and _is_elife_doi_line(child)):
                out.append(" ")
                walk_text(child, out.append)
                out.append(" ")
        if child.tail:
            out.append(child.tail)
    return _norm("".join(out)), element_text(title) or None


# ---------------------------------------------------------------- document


def _parse_xml(xml: bytes, where: str) -> etree._Element:
    if isinstance(xml, str):
        xml = xml.encode("utf-8")
    try:
        return etree.fromstring(xml, _parser())
    except etree.XMLSyntaxError as exc:
        line = f" at line {exc.lineno}" if exc.lineno else ""
        raise JatsError(f"{where}: malformed XML{line}: {exc.msg}") from exc
    except ValueError as exc:  # e.g. an encoding declaration lxml cannot honour
        raise JatsError(f"{where}: unreadable XML: {exc}") from exc


def _strip_jats_namespace(article: etree._Element) -> None:
    """Rename ``{https://jats.nlm.nih.gov/ns/...}fig`` to ``fig`` (OAI-PMH records); other namespaces stay."""
    if not (isinstance(article.tag, str) and article.tag.startswith("{")):
        return
    for el in article.iter(etree.Element):
        tag = el.tag
        if tag.startswith("{") and tag[1:].startswith(_JATS_NAMESPACE_PREFIXES):
            el.tag = tag.rpartition("}")[2]
    etree.cleanup_namespaces(article)


def _local(tag: object) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _find_article(root: etree._Element, where: str, warnings: list[str]) -> etree._Element:
    name = _local(root.tag)
    namespace = root.tag[1:].partition("}")[0] if isinstance(root.tag, str) and root.tag.startswith("{") else ""
    if name == "article":
        article = root
    elif name in _WRAPPERS:
        found = list(root.iter("{*}article"))
        if not found:
            raise JatsError(f"{where}: <{name}> wrapper holds no JATS <article>")
        if len(found) > 1:
            warnings.append(f"{len(found)} articles in <{name}>: parsed the first only")
        article = found[0]
        namespace = article.tag[1:].partition("}")[0] if article.tag.startswith("{") else ""
    else:
        raise JatsError(f"{where}: root element <{name}> is not a JATS <article> (line {root.sourceline})")
    if namespace and not namespace.startswith(_JATS_NAMESPACE_PREFIXES):
        raise JatsError(f"{where}: <article> in namespace {namespace!r} is not JATS")
    _strip_jats_namespace(article)
    return article


# ---------------------------------------------------------------- metadata


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
        kind, value = (el.get("pub-id-type") or "").lower(), _norm(el.text or "")
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
            full = _norm(f"{name.findtext('given-names') or ''} {name.findtext('surname') or ''}")
        else:
            string_name, collab = contrib.find("string-name"), contrib.find("collab")
            full = element_text(string_name if string_name is not None else collab)
        if full:
            authors.append(full)
    return authors


def _read_metadata(article_el: etree._Element, article: Article) -> etree._Element | None:
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


def _article_licence(meta: etree._Element | None) -> Licence:
    if meta is None:
        return Licence(source="none")
    permissions = meta.find("permissions")
    if permissions is not None:
        return licence_from_permissions(permissions, "article")
    # NLM 2.x: <copyright-statement>/<license> sit directly in <article-meta>.
    if meta.find("license") is not None or meta.find("copyright-statement") is not None:
        return licence_from_permissions(meta, "article")
    return Licence(source="none")


# ---------------------------------------------------------------- figures and tables


def _graphic(fig: etree._Element, index: GraphicIndex | None) -> tuple[str | None, str | None, int]:
    """(href as written, resolved member, number of separate images) for the best graphic of a figure.

    Graphics inside the caption are inline decorations and are ignored. The versions
    inside one ``<alternatives>`` count as one image.
    """
    graphics = [
        g for g in fig.iter("graphic") if g.get(XLINK_HREF) and not _inside(g, ("caption",), stop=fig)
    ]
    if not graphics:
        return None, None, 0
    n_images = len({g.getparent() if g.getparent().tag == "alternatives" else g for g in graphics})
    hrefs = [g.get(XLINK_HREF).strip() for g in graphics]
    if index is None:
        return hrefs[0], None, n_images
    usable = [(index.rank(member), href, member) for href in hrefs if (member := index.resolve(href))]
    if not usable:
        return hrefs[0], None, n_images
    # The best file wins whichever <graphic> names it: a TIFF over a JPEG over a GIF thumbnail.
    _, href, member = min(usable)
    return href, member, n_images


def _figure_parents(figs: list[etree._Element], ids: dict[etree._Element, str]) -> dict[etree._Element, tuple[str | None, str | None]]:
    """fig -> (parent_id, fig_type override) for fig-group members and eLife figure supplements.

    eLife nests ``<fig specific-use="child-fig">`` supplements with their main figure in a
    ``<fig-group>`` without an id; the supplements' parent is the main figure. Other
    fig-groups give their members the group's id.
    """
    parents: dict[etree._Element, tuple[str | None, str | None]] = {}
    last_main: str | None = None
    for fig in figs:
        group = fig.getparent()
        in_group = group is not None and group.tag == "fig-group"
        if fig.get("specific-use") == "child-fig":
            main = None
            if in_group:
                main = next((ids[f] for f in group.iterchildren("fig") if f.get("specific-use") != "child-fig"), None)
            parents[fig] = (main or last_main, "figure-supplement")
        else:
            last_main = ids[fig]
            parents[fig] = ((group.get("id") if in_group else None), None)
    return parents


def _figure_licence(fig: etree._Element, article_licence: Licence) -> Licence:
    # A figure's own permissions win (a reprinted figure keeps its publisher's terms);
    # a fig-group's permissions cover its members.
    for holder in (fig, fig.getparent()):
        if holder is None or holder.tag not in ("fig", "fig-group"):
            continue
        permissions = holder.find("permissions")
        if permissions is not None:
            return licence_from_permissions(permissions, "figure")
    return replace(article_licence)  # a copy: figures must not share one mutable record


def _read_figures(figs: list[etree._Element], article: Article, index: GraphicIndex | None) -> list[Figure]:
    ids: dict[etree._Element, str] = {}
    seen: set[str] = set()
    for n, fig in enumerate(figs, 1):
        fig_id = (fig.get("id") or "").strip()
        if not fig_id:
            fig_id = f"fig-auto-{n}"
            article.warnings.append(f"figure {n} has no id: called it {fig_id}")
        elif fig_id in seen:
            article.warnings.append(f"figure id {fig_id} is used twice")
        seen.add(fig_id)
        ids[fig] = fig_id
    parents = _figure_parents(figs, ids)
    figures = []
    for fig in figs:
        fig_id = ids[fig]
        caption, title = caption_text(fig.find("caption"))
        if not caption:
            article.warnings.append(f"figure {fig_id}: empty caption")
        label = clean_label(element_text(fig.find("label")))
        href, member, n_images = _graphic(fig, index)
        if n_images > 1:
            article.warnings.append(f"figure {fig_id}: {n_images} separate graphics, kept {href!r}")
        if index is not None and href and member is None:
            article.warnings.append(f"figure {fig_id}: graphic {href!r} not found in the package")
        elif member and is_thumbnail(member):
            article.warnings.append(f"figure {fig_id}: only a GIF thumbnail {member!r} for graphic {href!r}")
        elif href is None:
            article.warnings.append(f"figure {fig_id}: no <graphic>")
        parent_id, supplement = parents[fig]
        figures.append(
            Figure(
                figure_id=fig_id,
                label=label,
                caption=caption,
                caption_title=title,
                fig_type=supplement or fig.get("fig-type"),
                parent_id=parent_id,
                graphic_href=href,
                graphic_file=member,
                licence=_figure_licence(fig, article.licence),
            )
        )
    return figures


def _read_tables(tables: list[etree._Element], article: Article) -> list[Table]:
    out = []
    for n, wrap in enumerate(tables, 1):
        table_id = (wrap.get("id") or "").strip()
        if not table_id:
            table_id = f"table-auto-{n}"
            article.warnings.append(f"table {n} has no id: called it {table_id}")
        caption, _ = caption_text(wrap.find("caption"))
        out.append(Table(table_id=table_id, label=clean_label(element_text(wrap.find("label"))), caption=caption))
    return out


def _inside(el: etree._Element, tags: tuple[str, ...], *, stop: etree._Element) -> bool:
    """Whether an ancestor of ``el`` below ``stop`` has one of ``tags``."""
    for ancestor in el.iterancestors():
        if ancestor is stop:
            return False
        if ancestor.tag in tags:
            return True
    return False


def _count_fig_xrefs(article_el: etree._Element) -> int:
    """``<xref ref-type="fig">`` in the running text: <body> and <back> appendices, not in floats."""
    containers = [article_el.find("body")]
    back = article_el.find("back")
    if back is not None:
        containers += [app for app in back.iter("app") if not _inside(app, ("app",), stop=back)]
    floats = ("fig", "fig-group", "table-wrap")
    return sum(
        1
        for container in containers
        if container is not None
        for xref in container.iter("xref")
        if xref.get("ref-type") == "fig" and not _inside(xref, floats, stop=container)
    )


# ---------------------------------------------------------------- entry point


def parse_jats(
    xml: bytes,
    *,
    key: str,
    xml_file: str | None = None,
    package_files: Sequence[str] = (),
) -> Article:
    """Parse one JATS article.

    ``key`` is the article's id in the build; ``xml_file`` the XML's member name (used in
    error messages and to prefer figure files beside it); ``package_files`` every member
    name of the package, for resolving ``<graphic>`` hrefs. With no ``package_files`` no
    resolution is attempted (``graphic_file`` stays None, without warnings).

    Raises :class:`~medfig.records.JatsError` for malformed XML or a non-JATS document.
    """
    where = xml_file or key
    warnings: list[str] = []
    root = _parse_xml(xml, where)
    article_el = _find_article(root, where, warnings)
    article = Article(key=key, xml_file=xml_file, warnings=warnings)
    meta = _read_metadata(article_el, article)
    article.licence = _article_licence(meta)

    figs: list[etree._Element] = []
    tables: list[etree._Element] = []
    for el in article_el.iter("fig", "table-wrap"):  # one pass, document order
        (figs if el.tag == "fig" else tables).append(el)
    article.n_fig_xrefs = _count_fig_xrefs(article_el)

    base_dir = posixpath.dirname(xml_file) if xml_file else ""
    index = GraphicIndex(package_files, base_dir=base_dir) if package_files else None
    article.figures = _read_figures(figs, article, index)
    article.tables = _read_tables(tables, article)
    _attach_inline_refs(article_el, article)
    return article


def _attach_inline_refs(article_el: etree._Element, article: Article) -> None:
    if not article.figures:
        return
    from medfig.jats.inline_refs import extract_inline_refs  # here: inline_refs imports this module
    by_id = {}
    for figure in article.figures:
        by_id.setdefault(figure.figure_id, figure)
    for ref in extract_inline_refs(article_el, set(by_id)):
        figure = by_id.get(ref.figure_id)
        if figure is not None:
            figure.inline_refs.append(ref)
