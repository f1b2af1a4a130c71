"""Induce the figure/table boxes of one article package (JATS + PDF + figure files).

Order per article: every JATS caption is located in the PDF text (:mod:`.captions`);
tables first — bag-of-words interval search (:mod:`.tables`), else the whitespace band
below the caption — because a table's region bars figure bands; then figures — the figure
file by template matching (:mod:`.templates`) on the caption's page, then its neighbours,
else the whitespace band above (then below) the caption (:mod:`.bands`). A figure file
whose XML figure has no label is searched on every page, and so are images the XML shows
outside figures (:mod:`.graphics`; written apart, as ``other_graphics``). Nothing is lost silently: a
caption not found, or found without a region, is listed with its reason.

Boxes: PDF points, origin top-left of the page, [x0, y0, x1, y1]; pages 0-based.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium

from medfig.induce.bands import band_region
from medfig.induce.captions import locate_caption
from medfig.induce.graphics import other_graphics
from medfig.induce.pagetext import PageText
from medfig.induce.tables import locate_table, table_tokens_from_jats
from medfig.induce.templates import load_gray, match_on_page, render_gray
from medfig.jats.parse import parse_jats
from medfig.records import MedfigError

METHODS = ("template", "bow-interval", "band")
MIN_GRAPHIC_SIDE_PX = 64  # inline graphics smaller than this are symbols, not pictures


class InduceError(MedfigError):
    """An article that cannot be induced at all (message names the file and the problem)."""


@dataclass(slots=True)
class InducedFigure:
    """One JATS figure/table located in the PDF.

    ``box``/``caption_box``: PDF points, origin top-left, [x0, y0, x1, y1] (None when not
    found); ``page`` 0-based (None: caption not found); ``method``: how the box was found
    (template / bow-interval / band; None without a box); ``score``: that method's match
    score (template: normalised correlation 0-1; bow-interval: Dice 0-1; band: None);
    ``caption_score``: caption alignment 0-100; ``reason``: why something is missing.
    """

    figure_id: str
    name: str
    fig_type: str
    label: str | None
    caption: str
    page: int | None = None
    box: list[float] | None = None
    caption_box: list[float] | None = None
    method: str | None = None
    score: float | None = None
    caption_score: float | None = None
    figure_file: str | None = None
    template_score: float | None = None  # best template score, kept when the match was rejected
    reason: str | None = None


@dataclass(slots=True)
class InducedPaper:
    key: str
    pdf: str
    n_pages: int
    page_sizes_pt: list[tuple[float, float]]
    figures: list[InducedFigure] = field(default_factory=list)
    other_graphics: list[InducedFigure] = field(default_factory=list)  # images outside <fig>, no caption
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _name(label: str | None, fig_type: str, figure_id: str) -> str:
    """"Figure 3" from the JATS label (trailing punctuation dropped); the id when unlabelled."""
    if not label:
        return f"{fig_type} {figure_id}"
    s = label.strip().rstrip(".:|").strip()
    return s if s.lower().startswith(("fig", "tab", "supp", "box", "scheme", "chart", "plate", "ext", "app")) \
        else f"{fig_type} {s}"


def induce_files(xml: bytes, pdf: bytes, *, key: str, pdf_name: str = "", xml_name: str | None = None,
                 package_files: list[str] = (), read_member=None) -> InducedPaper:
    """Induce boxes for one article from its JATS and PDF bytes; ``read_member(name)``
    returns a package member's bytes (figure files). Raises InduceError for a PDF or XML
    that cannot be read."""
    t0 = time.perf_counter()
    where = pdf_name or key
    try:
        art = parse_jats(xml, key=key, xml_file=xml_name, package_files=list(package_files))
    except Exception as exc:
        raise InduceError(f"{xml_name or key}: cannot parse JATS ({type(exc).__name__}: {exc})") from exc
    try:
        pl = pdfplumber.open(io.BytesIO(pdf))
        doc = pdfium.PdfDocument(pdf)
    except Exception as exc:
        raise InduceError(f"{where}: cannot open PDF ({type(exc).__name__}: {exc})") from exc
    paper = InducedPaper(key=key, pdf=pdf_name, n_pages=len(pl.pages),
                         page_sizes_pt=[(float(p.width), float(p.height)) for p in pl.pages])
    try:
        if not pl.pages:
            raise InduceError(f"{where}: PDF has no pages")
        pts = []
        for i, p in enumerate(pl.pages):
            try:
                pts.append(PageText(p))
            except Exception as exc:  # one unreadable page: its captions are simply not found there
                paper.warnings.append(f"{where}: page {i} text unreadable ({type(exc).__name__}: {exc})")
                pts.append(PageText(None))
        table_words = table_tokens_from_jats(xml)
        items = [InducedFigure(t.table_id, _name(t.label, "Table", t.table_id), "Table", t.label, t.caption)
                 for t in art.tables]
        items += [InducedFigure(f.figure_id, _name(f.label, "Figure", f.figure_id), "Figure", f.label, f.caption,
                                figure_file=f.graphic_file) for f in art.figures]
        for it in items:
            if not it.label and not it.figure_file:
                it.reason = "no label in XML"
                continue
            if not it.label:
                continue  # no caption to search; its figure file is searched on every page below
            m = locate_caption(pts, it.label, it.caption)
            if m is None:
                it.reason = "caption not found in PDF text"
                continue
            it.page, it.caption_box, it.caption_score = m.page, [round(v, 2) for v in m.box], m.score
        page_gray: dict[int, object] = {}

        def gray(p: int):
            if p not in page_gray:
                page_gray[p] = render_gray(doc, p)
            return page_gray[p]

        regions: dict[int, list[list[float]]] = {}
        for it in [i for i in items if i.fig_type == "Table"] + [i for i in items if i.fig_type == "Figure"]:
            if it.reason:
                continue
            if it.fig_type == "Figure" and it.figure_file and read_member is not None:
                _template(it, read_member, gray, paper)
            if it.page is None:
                if not it.box:
                    it.reason = it.reason or "no label in XML and figure file not found on any page"
                continue
            page, pt = pl.pages[it.page], pts[it.page]
            if it.box is None and it.fig_type == "Table":
                tm = locate_table(page, pt, table_words.get(it.figure_id, []), it.caption_box)
                if tm is not None:
                    it.box, it.method, it.score = tm.box, "bow-interval", tm.score
            if it.box is None:
                others = [o.caption_box for o in items if o is not it and o.page == it.page and o.caption_box]
                others += regions.get(it.page, [])
                body = pt.body_size()
                is_table = it.fig_type == "Table"
                box = band_region(page, pt, it.caption_box, "below" if is_table else "above", body, is_table, others)
                if box is None and not is_table:
                    box = band_region(page, pt, it.caption_box, "below", body, False, others)
                if box is not None:
                    it.box, it.method, it.score = [round(v, 2) for v in box], "band", None
                else:
                    it.reason = "no region next to the caption"
            if it.box is not None and it.fig_type == "Table":
                regions.setdefault(it.page, []).append(it.box)
        paper.figures = items
        if read_member is not None:
            for href, member in other_graphics(xml, package_files, xml_name):
                g = InducedFigure(href, f"graphic {href}", "Figure", None, "", figure_file=member)
                _template(g, read_member, gray, paper, min_side_px=MIN_GRAPHIC_SIDE_PX)
                if g.box is None:
                    g.reason = "figure file not found on any page"
                paper.other_graphics.append(g)
    finally:
        pl.close()
        doc.close()
    paper.seconds = round(time.perf_counter() - t0, 3)
    return paper


def _template(it: InducedFigure, read_member, gray, paper: InducedPaper, min_side_px: int = 0) -> None:
    """Template-match the figure file: caption page first, then its neighbours; without a
    caption every page. Sets box/method/score (and page) when a match is accepted.
    Images smaller than ``min_side_px`` are skipped (icons, symbols)."""
    try:
        tmpl = load_gray(read_member(it.figure_file))
    except Exception as exc:
        paper.warnings.append(f"{it.figure_file}: cannot read figure file ({type(exc).__name__}: {exc})")
        return
    if min(tmpl.shape) < min_side_px:
        it.reason = f"image smaller than {min_side_px} px: not searched"
        return
    n = paper.n_pages
    order = [it.page, it.page - 1, it.page + 1] if it.page is not None else list(range(n))
    best = None
    for p in order:
        if p is None or not 0 <= p < n:
            continue
        m = match_on_page(gray(p), tmpl, p)
        if best is None or m.score > best.score:
            best = m
        if m.accepted and it.page is not None:
            break
    if best is None:
        return
    it.template_score = round(best.score, 3)
    if best.accepted:
        it.box, it.method, it.score = [round(v, 2) for v in best.box], "template", it.template_score
        if it.page is not None and best.page != it.page:
            paper.warnings.append(f"{it.name}: figure file found on page {best.page}, caption on page {it.page}")
        it.page = best.page


def induce_package(package) -> InducedPaper:
    """Induce one opened ``medfig.sources`` package (needs its JATS XML and PDF)."""
    key = package.source.key
    if not package.xml_name:
        raise InduceError(f"{package.source.container}: no JATS XML in the package")
    if not package.pdf_name:
        raise InduceError(f"{package.source.container}: no PDF in the package (induction needs JATS + PDF)")
    xml = package.read_bytes(package.xml_name)
    pdf = package.read_bytes(package.pdf_name)
    return induce_files(xml, pdf, key=key, pdf_name=f"{package.source.container}/{package.pdf_name}"
                        if package.source.kind == "folder" else f"{package.source.container}:{package.pdf_name}",
                        xml_name=package.xml_name, package_files=package.names(), read_member=package.read_bytes)


def induce_path(path) -> Iterator[tuple[str, InducedPaper | None, str | None]]:
    """Every article under ``path`` (a package folder, a PMC .tar.gz / eLife or MECA zip, or
    a folder of them): ``(key, paper, None)`` or ``(key, None, error message)``."""
    from medfig.sources import iter_sources

    for source in iter_sources(Path(path)):
        try:
            with source.open() as package:
                yield source.key, induce_package(package), None
        except MedfigError as exc:
            yield source.key, None, str(exc)
