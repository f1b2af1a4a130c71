"""Inline references: the body sentences that cite a figure through ``<xref ref-type="fig">``.

Each running-text paragraph (the outermost ``<p>`` of ``<body>`` and of the ``<back>``
appendices, never inside ``<fig>``, ``<fig-group>``, ``<table-wrap>``, whose captions are
not running text) becomes one whitespace-normalised string with the character span of
every figure xref in it. The string is split into sentences (syntok) and every xref gives
one :class:`~medfig.records.InlineRef` per figure it points to.

Decisions worth knowing:
- ``rid`` may name several figures (``rid="fig3s4 fig3s5 fig3s6"``): one InlineRef each.
  A ``rid`` naming a ``<fig-group>`` (not itself a Figure) gives one InlineRef per member
  figure of the group, because the citation names the whole group. Other rids are ignored.
- ``mention`` and ``panels`` come from the figure mention (:mod:`medfig.text.mentions`) found
  in the paragraph text around the xref, so an xref holding only ``1(a)`` after the word
  "Figures", or only ``1`` before a ``(b)``, still reads ``Figures 1(a)`` / ``Figure 1(b)``.
  When several mentions overlap the xref (``Figures 1–5`` as five empty xrefs), the one
  whose number matches the cited figure's ``<label>`` wins. Without any mention the
  xref's own text (plus panels written right after it) is used. An empty xref that no
  mention covers keeps ``mention=""`` and no panels, but still gives its sentence.
- ``section`` is the title of the nearest enclosing ``<sec>`` (or ``<app>``) that has one.
- ``paragraph_index`` counts the paragraphs walked here, body first, then appendices.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from medfig.jats.text import SKIP, element_text, inside, running_text_containers, walk_text
from medfig.records import InlineRef, Mention
from medfig.text.mentions import find_mentions, panels_at, panels_in_text
from medfig.text.sentences import sentence_at, split_sentences

_FLOATS = ("fig", "fig-group", "table-wrap")
_NOT_TEXT = frozenset({*_FLOATS, "supplementary-material", "table-wrap-group"})
_SPACES = re.compile(r"\s+")


@dataclass(slots=True)
class _Paragraph:
    """A paragraph's normalised text and where each figure xref sits in it."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    xrefs: list[tuple[etree._Element, int, int]] = field(default_factory=list)

    def add(self, text: str) -> None:
        text = _SPACES.sub(" ", text)
        if text.startswith(" ") and (self.length == 0 or self.parts[-1].endswith(" ")):
            text = text[1:]  # whitespace normalised as we go, so recorded offsets stay valid
        if text:
            self.parts.append(text)
            self.length += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts).rstrip()


def _read_paragraph(p: etree._Element) -> _Paragraph:
    para = _Paragraph()

    def record_fig_xref(child: etree._Element, walk) -> bool:
        if child.tag != "xref" or child.get("ref-type") != "fig":
            return False
        start = para.length
        walk(child)
        para.xrefs.append((child, start, para.length))
        return True

    walk_text(p, para.add, skip=SKIP | _NOT_TEXT, visit=record_fig_xref)
    return para


def _paragraphs(article_el: etree._Element) -> Iterator[etree._Element]:
    """Outermost running-text ``<p>`` of the body and the appendices, in document order."""
    for container in running_text_containers(article_el):
        if container is None:
            continue
        for p in container.iter("p"):
            if not inside(p, ("p", *_FLOATS), stop=container):
                yield p


def count_fig_xrefs(article_el: etree._Element) -> int:
    """``<xref ref-type="fig">`` in the running text: <body> and <back> appendices, not in floats."""
    return sum(
        1
        for container in running_text_containers(article_el)
        if container is not None
        for xref in container.iter("xref")
        if xref.get("ref-type") == "fig" and not inside(xref, _FLOATS, stop=container)
    )


def _section_title(p: etree._Element) -> str | None:
    for ancestor in p.iterancestors("sec", "app"):
        title = element_text(ancestor.find("title"))
        if title:
            return title
    return None


def _label_numbers(article_el: etree._Element) -> dict[str, str]:
    """fig id → figure number of its label (``Figure 2`` → ``2``; eLife supplement → ``2-S1``)."""
    numbers = {}
    for fig in article_el.iter("fig"):
        mentions = find_mentions(element_text(fig.find("label")))
        if fig.get("id") and mentions:
            numbers[fig.get("id")] = mentions[0].number
    return numbers


def _targets(rid: str, figure_ids: set[str], groups: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    for one in rid.split():
        out += [one] if one in figure_ids else groups.get(one, [])
    return list(dict.fromkeys(out))


def _mention_for(mentions: list[Mention], start: int, end: int, number: str | None) -> Mention | None:
    if start < end:
        near = [m for m in mentions if m.start < end and m.end > start]
    else:  # an empty <xref/>: the mention that spans its position
        near = [m for m in mentions if m.start <= start <= m.end]
    matching = [m for m in near if number is not None and m.number == number]
    if matching:
        return matching[0]
    return near[0] if near and start < end else None


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    end = min(end, len(text))
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def iter_inline_refs(article_el: etree._Element, figure_ids: set[str]) -> Iterator[tuple[etree._Element, InlineRef]]:
    """``(xref element, InlineRef)`` pairs in document order; see :func:`extract_inline_refs`."""
    groups: dict[str, list[str]] = {}
    for group in article_el.iter("fig-group"):
        members = [f.get("id") for f in group.iter("fig") if f.get("id") in figure_ids]
        if group.get("id") and group.get("id") not in figure_ids and members:
            groups[group.get("id")] = members
    numbers = _label_numbers(article_el)

    for p_index, p in enumerate(_paragraphs(article_el)):
        para = _read_paragraph(p)
        if not para.xrefs:
            continue
        text = para.text
        spans = split_sentences(text)
        mentions = find_mentions(text)
        section = _section_title(p)
        for xref, raw_start, raw_end in para.xrefs:
            targets = _targets(xref.get("rid") or "", figure_ids, groups)
            if not targets:
                continue
            start, end = _trim(text, min(raw_start, len(text)), raw_end)
            where = sentence_at(spans, start, end)
            if where is None:
                continue
            first, last = where
            sentence = text[spans[first][0] : spans[last - 1][1]]
            for figure_id in targets:
                mention = _mention_for(mentions, start, end, numbers.get(figure_id))
                if mention is not None:
                    written, panels = mention.text, list(mention.panels)
                else:
                    panels = panels_in_text(text[start:end])
                    stop = end
                    if start < end and not panels:
                        panels, stop = panels_at(text, end)  # xref "1" followed by "(b)"
                    written = text[start:stop]
                yield xref, InlineRef(
                    figure_id=figure_id,
                    sentence=sentence,
                    section=section,
                    mention=written,
                    panels=panels,
                    paragraph_index=p_index,
                    sentence_index=first,
                )


def extract_inline_refs(article_el: etree._Element, figure_ids: set[str]) -> list[InlineRef]:
    """Every inline reference of the article to one of ``figure_ids``, in document order.

    ``article_el`` is the ``<article>`` with the JATS namespace already stripped (as
    :func:`medfig.jats.parse.parse_jats` leaves it). One InlineRef per (figure, xref); its
    sentence is the one holding the xref (several when an xref straddles a split).
    """
    return [ref for _, ref in iter_inline_refs(article_el, figure_ids)]
