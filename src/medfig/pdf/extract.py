"""Library entry points: :func:`extract_pdf` and :func:`extract_figures`.

Per page: words -> captions; on pages with a caption (or every page with
``layout_pages="all"``) the page is rendered at a low resolution for the layout
detector; detector boxes are snapped to the PDF's drawn objects and completed with
graphic clusters; captions and regions are paired by Hungarian assignment.
The detector is loaded once per process (:func:`medfig.pdf.layout.get_detector`).

:func:`extract_pdf` runs these passes over one PDF, in order, sharing an :class:`_Extraction`:

1. :func:`_read_pages`: words and drawn objects of each page, its captions (OCR'd on
   image-only pages), sideways pages set aside (:func:`_read_page`, :func:`_page_captions`);
2. :func:`_warn_scanned`: a warning per kind of scanned page met;
3. :func:`_captions_by_page`: one caption per name, grouped by page;
4. :func:`_extract_page` per page: regions (:func:`_detect_layout` + ``propose_regions``,
   or the OCR fallback's), paired with the page's captions (:func:`_pair_page`);
5. :func:`_pair_across_pages`: captions left without a region take the art of the page
   before or after;
6. :func:`_add_rotated_pages`: sideways pages, read from a copy turned upright.
"""

from __future__ import annotations

import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from medfig.geometry import iou as _iou
from medfig.pdf.captions import dedupe_captions, find_captions
from medfig.pdf.document import PdfPages, open_pdf, read_pdf_bytes
from medfig.pdf.layout import DETECT_DPI, LayoutBox, detect
from medfig.pdf.page import read_page
from medfig.pdf.page_image import render_page
from medfig.pdf.region_features import page_evidence
from medfig.pdf.region_model import MODEL, RULES, Picker, resolve_picker
from medfig.pdf.pairing import absorb_fragments, cross_page_targets, pair, pair_across_pages
from medfig.pdf.regions import Region, propose_regions
from medfig.pdf.rotation import reading_rotation, rotated_page_pdf, unrotate_box
from medfig.pdf.side_by_side import split_side_by_side
from medfig.pdf.scanned import UNCAPTIONED_MIN_SCORE, is_image_only, is_scan_with_text, scanned_page
from medfig.pdf.furniture import drop_caption_containers, drop_page_furniture, drop_running_text
from medfig.pdf.types import ExtractedFigure, PageData, PdfCaption, PdfExtraction, PdfExtractionError

_NO_REGION_REASONS = ("no figure/table region on the page", "no free region close to the caption")
DEFAULT_MAX_PAGES = 300  # very long PDFs: the first pages are read and a warning says so


def extract_pdf(pdf: bytes | str | Path, *, use_layout: bool = True, layout_pages: str = "captions",
                max_pages: int = DEFAULT_MAX_PAGES, name: str | None = None,
                time_limit_s: float | None = None, cross_page: bool = True,
                region_picker: Picker | str = MODEL) -> PdfExtraction:
    """Extract figures and tables (with captions) from a PDF.

    ``use_layout=False`` is the cheap mode: no page rendering, no detector; regions come
    from embedded images and vector clusters only (tables need the detector).
    ``layout_pages``: ``"captions"`` runs the detector only on pages holding a caption,
    ``"all"`` on every page (finds uncaptioned figures too).
    ``time_limit_s``: a per-paper budget checked between pages; when it runs out the pages
    read so far are used and a warning says where reading stopped (cooperative: a single
    pathological page can still overrun it; the build pipeline's executor kills hung workers).
    ``cross_page``: a caption left without a region on its page is paired with the art of
    the page before or after when that page holds no caption (:func:`_pair_across_pages`;
    on by default, CLI ``--no-cross-page-captions`` turns it off).
    ``region_picker`` (internal: the trainer and benchmarks): how a paired figure's box is chosen
    among candidates: ``"model"`` (default) = the shipped learned model (:mod:`medfig.pdf.region_model`),
    ``"rules"`` = the rule region as proposed, or a callable ``(evidence, caption, region) -> Region``.
    Raises :class:`PdfExtractionError` naming the file when the PDF cannot be read.
    """
    t_start = time.perf_counter()
    data, display = read_pdf_bytes(pdf, name)
    doc, plumber = open_pdf(data, display)
    run = _Extraction(doc, plumber, PdfExtraction(pdf=display, n_pages=len(doc), page_sizes_pt=[]),
                      use_layout=use_layout, layout_pages=layout_pages, picker=resolve_picker(region_picker),
                      learned=region_picker == MODEL)
    try:
        _read_pages(run, max_pages, time_limit_s, t_start)
        drop_page_furniture(run.pages)
        drop_running_text(run.pages)
        drop_caption_containers(run.pages, run.captions)
        _warn_scanned(run)
        by_page = _captions_by_page(dedupe_captions(run.captions))
        for page in run.pages:
            _extract_page(run, page, by_page.get(page.index, []))
        if cross_page:
            with _timed(run.stages, "cross_page"):
                _pair_across_pages(run.result, run.pages, by_page, doc, use_layout=use_layout,
                                   special=set(run.scanned_regions) | {i for i, a in run.rotated.items() if a})
        _add_rotated_pages(run)
    finally:
        plumber.close()
        doc.close()
    run.result.seconds = time.perf_counter() - t_start
    run.result.seconds_by_stage = dict(run.stages)
    return run.result


@dataclass(slots=True)
class _Extraction:
    """What the passes of one :func:`extract_pdf` call share."""

    doc: object  # the open pypdfium2 document
    plumber: PdfPages
    result: PdfExtraction
    use_layout: bool
    layout_pages: str
    picker: Picker | None  # chooses each paired figure's box among candidates (None: the rule region)
    learned: bool  # the shipped model picks (sideways pages, read by a nested call, follow it; a caller's picker does not)
    stages: dict[str, float] = field(default_factory=lambda: defaultdict(float))  # seconds per stage
    pages: list[PageData] = field(default_factory=list)
    captions: list[PdfCaption] = field(default_factory=list)  # every page's, before one per name is kept
    scanned_regions: dict[int, list[Region]] = field(default_factory=dict)  # image-only pages: regions from the OCR fallback
    rotated: dict[int, int | None] = field(default_factory=dict)  # page -> clockwise turn that makes its text upright
    n_image_only: int = 0
    n_scan_with_text: int = 0


@contextmanager
def _timed(stages: dict[str, float], stage: str):
    """Add the seconds the block takes to ``stages[stage]`` (not when it raises)."""
    t = time.perf_counter()
    yield
    stages[stage] += time.perf_counter() - t


def _read_pages(run: _Extraction, max_pages: int, time_limit_s: float | None, t_start: float) -> None:
    """Pass 1: every page's words and drawn objects, and its captions, up to ``max_pages`` pages
    or the time limit."""
    result = run.result
    n = min(len(run.doc), max_pages)
    if n < len(run.doc):
        result.warnings.append(f"{result.pdf}: only the first {n} of {len(run.doc)} pages were read")
    for i in range(n):
        if time_limit_s is not None and time.perf_counter() - t_start > time_limit_s:
            result.warnings.append(f"{result.pdf}: time limit {time_limit_s:g} s reached; stopped after {i} of {n} pages")
            break
        page = _read_page(run, i)
        run.pages.append(page)
        result.page_sizes_pt.append((page.width, page.height))
        _page_captions(run, page)


def _read_page(run: _Extraction, i: int) -> PageData:
    """Page ``i``'s words and drawn objects; an unreadable page is a warning and an empty page."""
    with _timed(run.stages, "text"):
        try:
            pp = run.plumber.pages[i]
            page = read_page(pp, i)
            pp.close()  # drop pdfminer's cached objects: memory stays flat on long PDFs
        except Exception as exc:  # one broken page must not lose the paper
            run.result.warnings.append(f"{run.result.pdf}: page {i} unreadable ({type(exc).__name__}: {exc})")
            page = PageData(i, 0.0, 0.0)
    return page


def _page_captions(run: _Extraction, page: PageData) -> None:
    """A page's captions: from OCR on an image-only page (with its regions), else from the text
    layer; a page whose text runs sideways is set aside for :func:`_add_rotated_pages`."""
    i = page.index
    if is_image_only(page):  # no text layer: captions come from OCR (or not at all in cheap mode)
        run.n_image_only += 1
        if run.use_layout:
            with _timed(run.stages, "ocr"):
                page_caps, run.scanned_regions[i] = scanned_page(run.doc, page)
                run.captions.extend(page_caps)
        return
    with _timed(run.stages, "captions"):
        page_caps = find_captions(page)
    # mostly sideways text and no upright caption (a figure with long turned labels keeps
    # its upright caption): read after the main pass, on a turned copy of the page
    run.rotated[i] = None if page_caps else reading_rotation(page, run.doc)
    if run.rotated[i]:
        return
    run.captions.extend(page_caps)
    if run.use_layout and is_scan_with_text(page):  # searchable scan: no drawn objects but the page image
        run.n_scan_with_text += 1
        with _timed(run.stages, "ocr"):
            _, run.scanned_regions[i] = scanned_page(run.doc, page, text_captions=page_caps)


def _warn_scanned(run: _Extraction) -> None:
    """Pass 2: say how many pages were searchable scans and how many image-only."""
    result, n_pages = run.result, len(run.pages)
    if run.n_scan_with_text:
        result.warnings.append(f"{result.pdf}: scanned PDF with a text layer: captions from the text layer, regions "
                               f"from the layout detector on the page image ({run.n_scan_with_text} of {n_pages} pages)")
    if run.n_image_only:
        what = ("OCR fallback: captions read by OCR, regions from the layout detector" if run.use_layout else
                "no text layer and the OCR fallback needs the layout detector (not run in cheap mode)")
        result.warnings.append(f"{result.pdf}: image-only PDF: {what} ({run.n_image_only} of {n_pages} pages)")


def _captions_by_page(captions: list[PdfCaption]) -> dict[int, list[PdfCaption]]:
    """Pass 3 (after :func:`dedupe_captions`): captions grouped by page, in document order."""
    by_page = defaultdict(list)
    for c in captions:
        by_page[c.page].append(c)
    return by_page


def _extract_page(run: _Extraction, page: PageData, page_caps: list[PdfCaption]) -> None:
    """Pass 4, one page: its regions (detector boxes snapped to the PDF's objects and graphic
    clusters, or the OCR fallback's regions on a scanned page) paired with its captions."""
    scanned = page.index in run.scanned_regions
    layout: list[LayoutBox] | None = None
    if run.use_layout and not scanned and (page_caps or run.layout_pages == "all") and page.width > 0:
        layout = _detect_layout(run, page.index)
    if not page_caps and layout is None and run.layout_pages != "all" and not scanned:
        return
    with _timed(run.stages, "regions"):
        regions = run.scanned_regions[page.index] if scanned else split_side_by_side(
            page, propose_regions(page, layout, page_caps), page_caps)
        pick = None
        if run.picker is not None and layout is not None and not scanned:
            evidence = page_evidence(page, layout, page_caps)
            pick = lambda caption, region: run.picker(evidence, caption, region)  # noqa: E731
        _pair_page(run.result, page.index, page_caps, regions, use_layout=run.use_layout, scanned=scanned, pick=pick)


def _detect_layout(run: _Extraction, index: int) -> list[LayoutBox]:
    """The layout detector's boxes on page ``index``, rendered at ``DETECT_DPI``."""
    with _timed(run.stages, "render"):
        img = render_page(run.doc, index, DETECT_DPI)
    with _timed(run.stages, "layout"):
        return detect(img, DETECT_DPI)


def _pair_page(result: PdfExtraction, index: int, page_caps: list[PdfCaption], regions: list[Region], *,
               use_layout: bool, scanned: bool, pick=None) -> None:
    """Hungarian pairing of a page's captions and regions into ``result``: figures, regionless
    captions (with the reason) and uncaptioned regions (detector fragments of a paired figure
    merged into it). ``pick(caption, region) -> Region`` chooses each paired figure's final box."""
    # without the detector there are no table regions: table captions stay regionless
    # instead of taking a figure's region
    pairable = page_caps if use_layout else [c for c in page_caps if c.fig_type != "Table"]
    page_caps = pairable + [c for c in page_caps if c not in pairable]
    pairs, lonely_caps, lonely_regions = pair(pairable, regions)
    lonely_caps += list(range(len(pairable), len(page_caps)))
    paired_regions, leftover = absorb_fragments([regions[rj] for _, rj, _ in pairs],
                                                [regions[rj] for rj in lonely_regions], page_caps)
    for (ci, _, cost), r in zip(pairs, paired_regions):
        c = page_caps[ci]
        # a side-by-side split already rests on the captions' own evidence; the model's
        # candidates (detector boxes, clusters) would take both figures again
        if pick is not None and c.fig_type == "Figure" and r.kind == "figure" and "side-by-side" not in r.source:
            picked = pick(c, r)
            # one figure per box: the model sees one caption at a time and may choose the art
            # another caption on the page was paired with
            if not any(_iou(picked.box, other.box) > 0.5 for other in paired_regions if other is not r):
                r = picked
        result.figures.append(ExtractedFigure(
            name=c.name, fig_type=c.fig_type, page=index, box_pt=r.box, caption_box_pt=c.box_pt,
            caption=c.text, label=c.label, number=c.number, source=r.source, pair_distance_pt=round(cost, 2)))
    for ci in lonely_caps:
        c = page_caps[ci]
        reason = "no figure/table region on the page" if not regions else "no free region close to the caption"
        if c.fig_type == "Table" and not use_layout:
            reason = "table regions need the layout detector (cheap mode)"
        result.regionless.append(ExtractedFigure(
            name=c.name, fig_type=c.fig_type, page=index, box_pt=None, caption_box_pt=c.box_pt,
            caption=c.text, label=c.label, number=c.number, regionless_reason=reason))
    for r in leftover:
        if scanned and r.score < UNCAPTIONED_MIN_SCORE:
            continue
        result.uncaptioned_regions.append((index, r.box, r.source))


def _pair_across_pages(result: PdfExtraction, pages: list[PageData], by_page: dict, doc, *, use_layout: bool,
                       special: set[int]) -> None:
    """Pass 5. Captions whose art is on another page: a caption left without a region is paired with
    the uncaptioned art of the page before or after it when that page holds no caption at
    all (a figure filling a page with its caption at the top of the next, a legend page
    before a figure page). The figure keeps the art's ``page``; its ``caption_box_pt`` is on
    the caption's page, its ``source`` ends in ``+caption-on-page-N`` and a warning names
    both pages. The detector runs on such a page only here, only when a caption needs it."""
    lonely = [f for f in result.regionless if f.regionless_reason in _NO_REGION_REASONS]
    if not lonely:
        return
    n = len(pages)
    wanted: dict[int, list[ExtractedFigure]] = defaultdict(list)
    for f in lonely:
        height = pages[f.page].height
        for q in cross_page_targets(f.page, f.caption_box_pt[1], height, n):
            if q in by_page or q in special or pages[q].width <= 0:
                continue
            wanted[q].append(f)
            break
    for q, items in wanted.items():
        page = pages[q]
        layout = detect(render_page(doc, q, DETECT_DPI), DETECT_DPI) if use_layout else None
        regions = propose_regions(page, layout, [])
        caps = [PdfCaption(name=f.name, fig_type=f.fig_type, kind="", number=f.number, label=f.label, page=f.page,
                           box_pt=f.caption_box_pt, text=f.caption) for f in items]
        for ci, region in pair_across_pages(caps, regions, page.width * page.height):
            f = items[ci]
            result.regionless.remove(f)
            result.figures.append(ExtractedFigure(
                name=f.name, fig_type=f.fig_type, page=q, box_pt=region.box, caption_box_pt=f.caption_box_pt,
                caption=f.caption, label=f.label, number=f.number, source=f"{region.source}+caption-on-page-{f.page}"))
            result.uncaptioned_regions = [u for u in result.uncaptioned_regions
                                          if not (u[0] == q and _iou(u[1], region.box) > 0.5)]
            result.warnings.append(f"{result.pdf}: {f.name}: art on page {q}, caption on page {f.page} (paired across pages)")


def _add_rotated_pages(run: _Extraction) -> None:
    """Pass 6: every sideways page (:func:`_add_rotated_page`)."""
    for i, angle in run.rotated.items():
        if angle:
            with _timed(run.stages, "rotated"):
                _add_rotated_page(run.result, run.doc, i, angle, use_layout=run.use_layout, layout_pages=run.layout_pages,
                                  region_picker=MODEL if run.learned else RULES)


def _add_rotated_page(result: PdfExtraction, doc, index: int, angle: int, **options) -> None:
    """Extract a page whose text runs sideways from a copy turned upright (:mod:`medfig.pdf.rotation`);
    boxes are mapped back to the page as stored. A caption name already found elsewhere wins."""
    width, height = result.page_sizes_pt[index]
    sub = extract_pdf(rotated_page_pdf(doc, index, angle), name=f"{result.pdf} page {index}", **options)
    taken = {f.name for f in result.figures} | {f.name for f in result.regionless}
    for item in (*sub.figures, *sub.regionless):
        if item.name in taken:
            continue
        item.page = index
        item.reading_turn_deg = angle
        item.caption_box_pt = unrotate_box(item.caption_box_pt, angle, width, height)
        if item.box_pt is not None:
            item.box_pt = unrotate_box(item.box_pt, angle, width, height)
        (result.figures if item.box_pt is not None else result.regionless).append(item)
    for _, box, source in sub.uncaptioned_regions:
        result.uncaptioned_regions.append((index, unrotate_box(box, angle, width, height), source))
    result.warnings.extend(sub.warnings)
    result.warnings.append(f"{result.pdf}: page {index} has sideways (landscape) text: read turned {angle}° "
                           f"clockwise; its boxes are in the page's stored (unturned) coordinates")


def extract_figures(pdf: bytes | str | Path, **kwargs) -> list[ExtractedFigure]:
    """Figures and tables with a region (see :func:`extract_pdf` for options and errors)."""
    return extract_pdf(pdf, **kwargs).figures


__all__ = ["extract_pdf", "extract_figures", "PdfExtractionError"]
