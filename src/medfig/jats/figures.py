"""Figures and tables of a JATS article: ids, labels, captions, graphics, figure licences.

Every ``<fig>`` of the article is a Figure, wherever it sits (body, back, floats-group, a
graphical abstract in front, sub-articles); fig-group members and eLife figure supplements
get their parent. A figure's ``<graphic>`` is resolved against the package's files with
:class:`~medfig.jats.graphics.GraphicIndex`.
"""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from medfig.jats.graphics import GraphicIndex, is_thumbnail
from medfig.jats.licence import XLINK_HREF, licence_from_permissions
from medfig.jats.text import caption_text, clean_label, element_text, inside
from medfig.records import Article, Figure, Licence, Table


def _graphic(fig: etree._Element, index: GraphicIndex | None) -> tuple[str | None, str | None, int]:
    """(href as written, resolved member, number of separate images) for the best graphic of a figure.

    Graphics inside the caption are inline decorations and are ignored. The versions
    inside one ``<alternatives>`` count as one image.
    """
    graphics = [
        g for g in fig.iter("graphic") if g.get(XLINK_HREF) and not inside(g, ("caption",), stop=fig)
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


def read_figures(figs: list[etree._Element], article: Article, index: GraphicIndex | None) -> list[Figure]:
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


def read_tables(tables: list[etree._Element], article: Article) -> list[Table]:
    out = []
    for n, wrap in enumerate(tables, 1):
        table_id = (wrap.get("id") or "").strip()
        if not table_id:
            table_id = f"table-auto-{n}"
            article.warnings.append(f"table {n} has no id: called it {table_id}")
        caption, _ = caption_text(wrap.find("caption"))
        out.append(Table(table_id=table_id, label=clean_label(element_text(wrap.find("label"))), caption=caption))
    return out
