"""The article's figures located in its PDF; those the package has no file for cropped from it.

For every article with a PDF the build runs the PDF extractor (``medfig.pdf``, layout
detector on caption pages) and matches what it finds to the JATS figures by label
("Figure 2" in the XML, "Fig. 2." printed in the PDF, both normalised by the same label
grammar). Every matched figure gets its place in the PDF; Hindawi deposits, many Europe
PMC downloads and every PDF-first corpus carry the XML and the PDF but no figure files,
and for those figures the matched region is also rendered to a PNG (the figure image).

A figure the extractor does not pair (its printed caption was not read as a caption:
words run together, an unnumbered "FIGURE.", a caption the detector's region missed) is
looked for a second time with the XML caption's own text: the caption is aligned to the
page words (``medfig.induce.captions``, free-end alignment on letters and digits, so lost
spaces and ligatures do not matter) and its region is the whitespace band between it and
the nearest body text, other caption or located figure (``medfig.induce.bands``); a
caption set in a narrow side column (as Springer does for small figures) takes the art
drawn beside it instead (:func:`side_region`). Those figures carry ``source="caption-band"``. A figure whose caption text is on no page is not
printed in this PDF (:data:`NOT_PRINTED`).

Coordinates recorded in the row: ``pdf_page`` (0-based) and ``pdf_box``
``[x0, y0, x1, y1]`` in PDF points, origin top-left of the page.
"""

from __future__ import annotations

import functools

from medfig.pdf.labels import parse_label

def label_key(text: str | None) -> tuple[str, str] | None:
    """("figure", "2") for "Figure 2", "Fig. 2.", "FIGURE 2 |"; None when it is not a label.

    The first part is the kind ("figure", "table", "box", "scheme", ...), so "Box 1" and
    "Table 1" never take "Figure 1"'s place; labels with a prefix keep it in the second part
    ("figure", "Appendix 1—Figure 1") for the same reason. Plain figures key on the number
    alone, which is what in-text mentions give (:mod:`medfig.pdf.article`).
    """
    if not text:
        return None
    label = parse_label(text.strip().rstrip(".:|") + ".")
    if label is None:
        return None
    plain = label.name == f"{label.kind.capitalize()} {label.number}"
    return (label.kind, label.number if plain else label.name)


NOT_PRINTED = "its caption is not printed in the PDF"
NOT_LOCATED = "not located in the PDF"


def locate(pdf: bytes, labels: dict[str, str | None], display: str,
           captions: dict[str, str] | None = None) -> tuple[dict, str | None]:
    """figure id -> ExtractedFigure for the labels found in the PDF, plus a reason when none could be read.

    ``captions`` (figure id -> XML caption text) enables the caption-guided second search for
    figures the extractor did not pair. Raises nothing: an unreadable PDF is returned as the reason.
    """
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.types import PdfExtractionError

    try:
        extraction = extract_pdf(pdf, name=display)
    except PdfExtractionError as exc:
        return {}, str(exc)
    by_key = {}
    for found in extraction.figures:
        key = label_key(found.name)
        if key is not None and key not in by_key:
            by_key[key] = found
    located = {}
    for figure_id, label in labels.items():
        key = label_key(label)
        if key in by_key:
            located[figure_id] = by_key[key]
    wanted = {fid: (labels[fid], text) for fid, text in (captions or {}).items() if fid not in located and text}
    if wanted:
        located.update(locate_by_caption_text(pdf, wanted, [*located.values(), *extraction.figures]))
    return located, None


def unlocated_reason(pdf: bytes, label: str | None, caption: str | None) -> str:
    """Why a figure was not located: its caption is on no page (not printed), or it is but has no region."""
    from medfig.induce.captions import locate_caption

    pages = _page_texts(pdf)
    if pages is None or locate_caption(pages, label or "", caption or "") is not None:
        return NOT_LOCATED
    return NOT_PRINTED


@functools.lru_cache(maxsize=2)  # the second search and unlocated_reason (once per missing figure) share it
def _page_texts(pdf: bytes):
    import io

    import pdfplumber

    from medfig.induce.pagetext import PageText

    try:
        with pdfplumber.open(io.BytesIO(pdf)) as plumber:
            return [PageText(page) for page in plumber.pages]
    except Exception:  # noqa: BLE001 - an unreadable PDF was reported by the extractor already
        return None


def locate_by_caption_text(pdf: bytes, wanted: dict[str, tuple[str | None, str]], taken: list) -> dict:
    """figure id -> ExtractedFigure for figures found by their XML caption text and the band next to it.

    ``taken``: figures already found; their captions and regions stop the bands, and a caption
    aligned onto one of their captions is not a new figure."""
    import io

    import pdfplumber

    from medfig.geometry import iou
    from medfig.induce.bands import band_region
    from medfig.induce.captions import locate_caption
    from medfig.pdf.types import ExtractedFigure

    found: dict = {}
    pages = _page_texts(pdf)  # shared with unlocated_reason: each page's words are read once
    if pages is None:
        return found
    try:
        plumber = pdfplumber.open(io.BytesIO(pdf))
    except Exception:  # noqa: BLE001 - an unreadable PDF was reported by the extractor already
        return found
    try:
        for figure_id, (label, caption) in wanted.items():
            match = locate_caption(pages, label or "", caption)
            if match is None:
                continue
            on_page = [f for f in (*taken, *found.values()) if f.page == match.page]
            if any(iou(f.caption_box_pt, match.box) > 0.5 for f in on_page):
                continue  # that printed caption already belongs to another figure
            stops = [f.caption_box_pt for f in on_page] + [f.box_pt for f in on_page if f.box_pt]
            page, text = plumber.pages[match.page], pages[match.page]
            body = text.body_size()
            box = (band_region(page, text, match.box, "above", body, False, stops)
                   or band_region(page, text, match.box, "below", body, False, stops)
                   or side_region(page, text, match.box, stops))
            if box is None:
                continue
            found[figure_id] = ExtractedFigure(
                name=label or figure_id, fig_type="Figure", page=match.page, box_pt=tuple(round(v, 2) for v in box),
                caption_box_pt=tuple(match.box), caption=caption, label=label or "", source="caption-band")
    finally:
        plumber.close()
    return found


def side_region(page, text, caption_box, stops) -> list[float] | None:
    """The art beside a caption set in a side column: None unless drawings sit level with it.

    Seeds are the images and vector objects that lie wholly to the right (or left) of the
    caption and overlap its lines vertically: a caption's side column has no other reason to
    have art level with it. The region grows from them through touching or near objects and
    short text lines (axis labels, panel letters: fewer characters than a body line) on that
    side, never through a body line or another caption (``stops``).
    ``page``: the pdfplumber page; ``text``: its ``PageText``; boxes in points, origin top-left."""
    from medfig.geometry import union
    from medfig.induce.bands import BODY_LINE_CHARS, FIGURE_GAP_PT, HEADER_BOTTOM_PT, page_objects, text_lines

    x0, y0, x1, y1 = caption_box
    objects = [o for o in page_objects(page) if o[3] > HEADER_BOTTOM_PT]  # not the running head's rule
    lines = text_lines([w for w in text.words if not (w["x1"] <= x1 + 1 and w["x0"] >= x0 - 1
                                                      and w["top"] >= y0 - 1 and w["bottom"] <= y1 + 1)])
    for beside in (lambda b: b[0] >= x1 - 1, lambda b: b[2] <= x0 + 1):
        seeds = [o for o in objects if beside(o) and o[1] < y1 and o[3] > y0]
        if not seeds:
            continue
        items = [o for o in objects if beside(o)]
        items += [ln["box"] for ln in lines if beside(ln["box"]) and ln["n"] < BODY_LINE_CHARS
                  and ln["box"][3] > HEADER_BOTTOM_PT]
        barriers = [ln["box"] for ln in lines if beside(ln["box"]) and ln["n"] >= BODY_LINE_CHARS] + list(stops)
        box = list(union(seeds))
        grown = True
        while grown:
            grown = False
            for item in items:
                near = (item[0] <= box[2] + 6 and item[2] >= box[0] - 6
                        and item[1] <= box[3] + FIGURE_GAP_PT / 2 and item[3] >= box[1] - FIGURE_GAP_PT / 2)
                inside = box[0] <= item[0] and box[1] <= item[1] and item[2] <= box[2] and item[3] <= box[3]
                if not near or inside:
                    continue
                candidate = list(union([box, item]))
                if any(_crosses(candidate, b) for b in barriers):
                    continue
                box, grown = candidate, True
        return box
    return None


def _crosses(box, barrier) -> bool:
    return min(box[2], barrier[2]) - max(box[0], barrier[0]) > 0.5 and min(box[3], barrier[3]) - max(box[1], barrier[1]) > 0.5
