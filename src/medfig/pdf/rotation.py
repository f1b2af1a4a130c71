"""Pages whose text runs sideways (landscape tables and figures set on a portrait page).

Such a page has no ``/Rotate`` entry: its content is drawn rotated by 90°, so its caption
reads bottom-to-top (or top-to-bottom) and the line-based caption finder sees no caption.
A page is turned only when most of its text is sideways *and* no upright caption was
found on it (a figure with long turned labels keeps its upright caption and its page).
The page is read in its reading direction instead: it is copied alone into a one-page PDF
with its content turned a quarter so the text is upright, the whole pipeline runs on that
copy (text, captions, detector, regions, pairing), and every box is mapped back.

Coordinate convention: boxes are always in the coordinates of the page as stored and
displayed without the extra rotation — PDF points, origin top-left, the same frame as every
other page of the PDF, the renderer and the gold set (a landscape table on a portrait page
gets a tall, narrow box). Pages that do carry ``/Rotate`` need nothing from here:
pdfplumber and pdfium both present them in their displayed orientation, which is the frame
used for them.
"""

from __future__ import annotations

import ctypes
import io
import math
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from medfig.geometry import PointBox
from medfig.pdf.types import PageData

MIN_ROTATED_SHARE = 0.5  # of the page's text characters
MIN_ROTATED_CHARS = 40


def reading_rotation(page: PageData, doc: pdfium.PdfDocument) -> int | None:
    """The clockwise ``/Rotate`` (90 or 270) that makes most of the page's text upright;
    None when most text already is upright. Every ordinary page is decided from the words
    read_page found; only a page with mostly sideways words asks pdfium for its characters'
    angles (``FPDFText_GetCharAngle``: clockwise, in radians)."""
    total = sum(len(w.text) for w in page.words)
    sideways = sum(len(w.text) for w in page.words if not w.upright)
    if sideways < MIN_ROTATED_CHARS or sideways < MIN_ROTATED_SHARE * total:
        return None
    pdf_page = doc[page.index]
    textpage = pdf_page.get_textpage()
    try:
        votes = Counter()
        for k in range(textpage.count_chars()):
            angle = round(math.degrees(pdfium_c.FPDFText_GetCharAngle(textpage.raw, k))) % 360
            for quarter in (90, 270):
                if abs(angle - quarter) <= 10:
                    votes[quarter] += 1
    finally:
        textpage.close()
        pdf_page.close()
    if not votes:
        return None
    text_angle = votes.most_common(1)[0][0]
    return (360 - text_angle) % 360  # text turned 270° clockwise reads after a further 90° turn


def rotated_page_pdf(doc: pdfium.PdfDocument, index: int, angle: int) -> bytes:
    """Page ``index`` alone in a new PDF with its content turned ``angle`` degrees clockwise
    for reading (90 or 270) and the page size swapped.

    The content itself is transformed (``FPDFPage_TransFormWithClip``), not a ``/Rotate``
    entry set: the copy is an ordinary upright page for any text reader."""
    out = pdfium.PdfDocument.new()
    try:
        out.import_pages(doc, [index])
        page = out[0]
        left, bottom, right, top = page.get_mediabox()
        w, h = right - left, top - bottom
        if angle == 90:  # PDF space (y up): (x, y) -> (y - bottom, right - x)
            m = pdfium_c.FS_MATRIX(0, -1, 1, 0, -bottom, right)
        elif angle == 270:  # (x, y) -> (top - y, x - left)
            m = pdfium_c.FS_MATRIX(0, 1, -1, 0, top, -left)
        else:
            raise ValueError(f"unsupported rotation {angle}")
        clip = pdfium_c.FS_RECTF(0, w, h, 0)  # left, top, right, bottom of the turned page
        if not pdfium_c.FPDFPage_TransFormWithClip(page.raw, ctypes.byref(m), ctypes.byref(clip)):
            raise RuntimeError(f"pdfium could not turn page {index}")
        pdfium_c.FPDFPage_SetMediaBox(page.raw, 0, 0, h, w)
        pdfium_c.FPDFPage_SetCropBox(page.raw, 0, 0, h, w)
        page.close()
        buf = io.BytesIO()
        out.save(buf)
        return buf.getvalue()
    finally:
        out.close()


def unrotate_box(box: PointBox, angle: int, width: float, height: float) -> PointBox:
    """A box on the turned copy (:func:`rotated_page_pdf`) back to the page as stored.

    ``width``/``height``: the stored page's size in points (before the turn)."""
    x0, y0, x1, y1 = box
    if angle == 90:  # stored (x, y) -> turned (height - y, x)
        return (y0, height - x1, y1, height - x0)
    if angle == 270:  # stored (x, y) -> turned (y, width - x)
        return (width - y1, x0, width - y0, x1)
    raise ValueError(f"unsupported rotation {angle}")
