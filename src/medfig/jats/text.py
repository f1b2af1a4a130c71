"""Text of JATS elements: how markup reads as plain text.

Inline markup joins as written; block elements (``<p>``, ``<title>``, ``<td>``, ...) are
space-separated; ``<alternatives>`` give one readable version; entities of the external
DTD (never loaded) become their standard characters. Used by the metadata, figure and
inline-reference readers alike.

Superscripts and subscripts keep their meaning (``5 × 10<sup>7</sup>`` must not read "107"):
a ``<sup>``/``<sub>`` whose every character has a Unicode superscript/subscript form (digits,
``+ − = ( )``: the Superscripts and Subscripts block) is written with those characters
("10⁷", "Ni²⁺", "IC₅₀"); anything else gets ``^``/``_``, with braces around more than one
character ("SUV_{max}", "KO^{SLC25A48-Flag}", "Irf5^{−/−}"). Letters are never turned into
modifier letters (ᵐᵃˣ): the text must stay searchable by the word it spells.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.entities import html5 as html5_entities

from lxml import etree

MATHML = "{http://www.w3.org/1998/Math/MathML}math"

# Elements whose text is a separate block: a space goes around them so that
# "<title>A.</title><p>B</p>" reads "A. B", while inline markup joins as written.
_BLOCKS = frozenset({
    "p", "title", "list", "list-item", "def-list", "def-item", "term", "def", "disp-quote",
    "disp-formula", "sec", "table", "tr", "td", "th", "statement", "boxed-text", "preformat",
    "attrib", "caption", "fn", "verse-group", "verse-line", "speech", "array",
})
# Not caption text: image references, identifiers, the figure label.
SKIP = frozenset({"graphic", "inline-graphic", "media", "object-id", "label"})
_ELIFE_DOI_LINE = re.compile(r"^DOI:\s*\S+$")
_SUPERSCRIPT = str.maketrans("0123456789+-\u2212=()", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
                             "\u207a\u207b\u207b\u207c\u207d\u207e")
_SUBSCRIPT = str.maketrans("0123456789+-\u2212=()", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
                           "\u208a\u208b\u208b\u208c\u208d\u208e")
_SCRIPT_MARK = {"sup": ("^", _SUPERSCRIPT), "sub": ("_", _SUBSCRIPT)}


def script_text(kind: str, text: str) -> str:
    """How a ``<sup>`` (kind ``sup``) or ``<sub>`` reads as plain text; see the module docstring."""
    mark, table = _SCRIPT_MARK[kind]
    body = text.strip()
    if not body:
        return text
    lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    if all(ord(ch) in table for ch in body):
        return lead + body.translate(table) + trail
    return lead + (f"{mark}{body}" if len(body) == 1 else f"{mark}{{{body}}}") + trail


def norm(text: str) -> str:
    return " ".join(text.split())


def local_name(tag: object) -> str:
    """``fig`` from ``{namespace}fig``; "" for comments, processing instructions and entities."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def walk_text(el: etree._Element, add: Callable[[str], None], *, skip: frozenset[str] = SKIP,
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
            elif tag in _SCRIPT_MARK and (visit is None or not any(
                    x.get("ref-type") == "fig" for x in child.iter("xref"))):
                # a fig xref inside stays with ``visit``, which records where it sits in the text
                inner: list[str] = []
                walk_text(child, inner.append, skip=skip)
                add(script_text(tag, "".join(inner)))
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
    children = [c for c in alternatives if isinstance(c.tag, str) and c.tag not in SKIP]
    mathml = [c for c in children if c.tag == MATHML]
    plain = [c for c in children if c.tag != "tex-math"]
    return (mathml or plain or children or [None])[0]


def element_text(el: etree._Element | None) -> str:
    """Readable text of an element: inline markup kept as text, blocks space-separated, whitespace normalised."""
    if el is None:
        return ""
    out: list[str] = []
    walk_text(el, out.append)
    return norm("".join(out))


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
        if isinstance(child.tag, str) and child.tag not in SKIP:
            if not (child.tag == "p" and _is_elife_doi_line(child)):
                out.append(" ")
                walk_text(child, out.append)
                out.append(" ")
        if child.tail:
            out.append(child.tail)
    return norm("".join(out)), element_text(title) or None


# ---------------------------------------------------------------- where in the document


def inside(el: etree._Element, tags: tuple[str, ...], *, stop: etree._Element) -> bool:
    """Whether an ancestor of ``el`` below ``stop`` has one of ``tags``."""
    for ancestor in el.iterancestors():
        if ancestor is stop:
            return False
        if ancestor.tag in tags:
            return True
    return False


def running_text_containers(article_el: etree._Element) -> list[etree._Element | None]:
    """The containers of running text: ``<body>`` (None when absent), then the outermost ``<app>`` of ``<back>``."""
    containers = [article_el.find("body")]
    back = article_el.find("back")
    if back is not None:
        containers += [app for app in back.iter("app") if not inside(app, ("app",), stop=back)]
    return containers
