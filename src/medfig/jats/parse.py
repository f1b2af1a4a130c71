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

This module finds the ``<article>`` and runs the readers: :mod:`medfig.jats.metadata`
(ids, journal, authors, article licence), :mod:`medfig.jats.figures` (figures, graphics,
tables), :mod:`medfig.jats.inline_refs`; all read text through :mod:`medfig.jats.text`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from lxml import etree

from medfig.jats.figures import read_figures, read_tables
from medfig.jats.graphics import GraphicIndex
from medfig.jats.inline_refs import count_fig_xrefs, extract_inline_refs
from medfig.jats.metadata import article_licence, read_metadata
from medfig.jats.text import local_name
from medfig.records import Article, JatsError

_PARSER_OPTIONS = dict(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False, recover=False)
_WRAPPERS = frozenset({"pmc-articleset", "OAI-PMH", "GetRecord", "record", "metadata"})
_JATS_NAMESPACE_PREFIXES = ("https://jats.nlm.nih.gov/ns/", "http://jats.nlm.nih.gov/ns/")


def _parser() -> etree.XMLParser:
    # A parser per call: lxml parsers are not safe to share between threads.
    return etree.XMLParser(**_PARSER_OPTIONS)


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


def _find_article(root: etree._Element, where: str, warnings: list[str]) -> etree._Element:
    name = local_name(root.tag)
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
    meta = read_metadata(article_el, article)
    article.licence = article_licence(meta)

    figs: list[etree._Element] = []
    tables: list[etree._Element] = []
    for el in article_el.iter("fig", "table-wrap"):  # one pass, document order
        (figs if el.tag == "fig" else tables).append(el)
    article.n_fig_xrefs = count_fig_xrefs(article_el)

    base_dir = posixpath.dirname(xml_file) if xml_file else ""
    index = GraphicIndex(package_files, base_dir=base_dir) if package_files else None
    article.figures = read_figures(figs, article, index)
    article.tables = read_tables(tables, article)
    _attach_inline_refs(article_el, article)
    return article


def _attach_inline_refs(article_el: etree._Element, article: Article) -> None:
    if not article.figures:
        return
    by_id = {}
    for figure in article.figures:
        by_id.setdefault(figure.figure_id, figure)
    for ref in extract_inline_refs(article_el, set(by_id)):
        figure = by_id.get(ref.figure_id)
        if figure is not None:
            figure.inline_refs.append(ref)
