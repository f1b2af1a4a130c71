"""Drawn objects of a page, read with PDFium as pdfminer/pdfplumber reported them: raster
image placements, and each subpath of a vector path boxed by its end points (no stroke
width, no Bézier control points), inside form XObjects too; white fills and page
backgrounds left out."""

from __future__ import annotations

import ctypes

import pypdfium2.raw as pdfium_c

from medfig.geometry import PointBox
from medfig.pdf.page_space import Matrix, box_top_left, concat
from medfig.pdf.types import Graphic

_WHITE_255 = 252  # a fill at least this light in every RGB channel (of 255) is white paper


def _object_matrix(obj) -> Matrix:
    m = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFPageObj_GetMatrix(obj, m)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _subpath_boxes(obj, m: Matrix, height: float) -> list[PointBox]:
    """One box per subpath (a new one at each move-to), from the end points of its segments
    mapped by ``m`` (path space -> displayed page), as pdfminer boxes each subpath."""
    n = pdfium_c.FPDFPath_CountSegments(obj)
    a, b, c, d, e, f = m
    x, y = ctypes.c_float(), ctypes.c_float()
    boxes: list[PointBox] = []
    xs: list[float] = []
    ys: list[float] = []
    bezier = 0
    for i in range(n):
        seg = pdfium_c.FPDFPath_GetPathSegment(obj, i)
        kind = pdfium_c.FPDFPathSegment_GetType(seg)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
            if xs:
                boxes.append((min(xs), height - max(ys), max(xs), height - min(ys)))
            xs, ys, bezier = [], [], 0
        elif kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            bezier += 1
            if bezier % 3:  # the first two points of a curve are control points
                continue
        pdfium_c.FPDFPathSegment_GetPoint(seg, x, y)
        xs.append(a * x.value + c * y.value + e)
        ys.append(b * x.value + d * y.value + f)
    if xs:
        boxes.append((min(xs), height - max(ys), max(xs), height - min(ys)))
    return boxes


def fill_rgba(obj) -> tuple[int, int, int, int] | None:
    """A page object's fill colour, 0-255 per channel; None for a pattern or shading fill."""
    r, g, b, alpha = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    if not pdfium_c.FPDFPageObj_GetFillColor(obj, r, g, b, alpha):
        return None
    return r.value, g.value, b.value, alpha.value


def _is_white_fill(obj) -> bool:
    rgba = fill_rgba(obj)
    return rgba is not None and min(rgba[:3]) >= _WHITE_255  # a pattern or shading fill: not white


_DRAWN = (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_PATH)


def _walk(container, is_form: bool, m: Matrix, depth: int, visit, kinds=_DRAWN) -> None:
    """Every object of the page of one of ``kinds``, descending into form XObjects (their
    children's coordinates, clip paths included, are in form space: the form's matrix is
    composed onto ``m``)."""
    count = pdfium_c.FPDFFormObj_CountObjects if is_form else pdfium_c.FPDFPage_CountObjects
    get = pdfium_c.FPDFFormObj_GetObject if is_form else pdfium_c.FPDFPage_GetObject
    for i in range(max(0, count(container))):
        obj = get(container, i)
        if not obj:
            continue
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            if depth < _MAX_FORM_DEPTH:
                _walk(obj, True, concat(_object_matrix(obj), m), depth + 1, visit, kinds)
        elif kind in kinds:
            visit(obj, kind, m)


_MAX_FORM_DEPTH = 15


def read_graphics(page, display: Matrix, width: float, height: float) -> list[Graphic]:
    images: list[Graphic] = []
    paths: list[Graphic] = []
    page_area = width * height
    left, bottom_, right, top_ = (ctypes.c_float() for _ in range(4))
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()

    def clipped(box: PointBox, seen: PointBox | None) -> PointBox | None:
        """``box`` cut to what the object's clip path leaves visible (``seen``); None when nothing is."""
        if seen is None:
            return box
        cut = (max(box[0], seen[0]), max(box[1], seen[1]), min(box[2], seen[2]), min(box[3], seen[3]))
        return cut if cut[2] >= cut[0] and cut[3] >= cut[1] else None

    def visit(obj, kind, m: Matrix) -> None:
        clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
        seen = _clip_box(clip, m, height) if clip else None
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            # an image's own matrix maps its unit square: its bounds are that square in parent space
            if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom_, right, top_):
                return
            drawn = clipped(box_top_left(m, height, left.value, bottom_.value, right.value, top_.value), seen)
            if drawn is None:
                return
            x0, y0, x1, y1 = drawn
            box = (max(0.0, x0), max(0.0, y0), min(width, x1), min(height, y1))
            if box[2] - box[0] < 2 or box[3] - box[1] < 2:
                return
            w_px, h_px = ctypes.c_uint(), ctypes.c_uint()
            pdfium_c.FPDFImageObj_GetImagePixelSize(obj, w_px, h_px)
            images.append(Graphic("image", box, (int(w_px.value), int(h_px.value))))
            return
        if not pdfium_c.FPDFPath_GetDrawMode(obj, fill_mode, stroke):
            return
        filled, stroked = fill_mode.value != 0, bool(stroke.value)
        if not filled and not stroked:
            return  # invisible geometry
        if filled and not stroked and _is_white_fill(obj):
            return  # white boxes used as knock-outs/backgrounds
        for subpath in _subpath_boxes(obj, concat(_object_matrix(obj), m), height):
            drawn = clipped(subpath, seen)  # a map's coastline runs on under the clip that frames it
            if drawn is None:
                continue
            x0, y0, x1, y1 = drawn
            box = (max(0.0, x0), max(0.0, y0), min(width, x1), min(height, y1))
            w, h = box[2] - box[0], box[3] - box[1]
            if w < 0 or h < 0 or (w * h) > 0.5 * page_area:
                continue  # off-page, or a page background
            paths.append(Graphic("path", box, thin=min(w, h) < 2.0))

    _walk(page.raw, False, display, 0, visit)
    return images + paths  # pdfplumber's order: images first, then paths


def _clip_box(clip, m: Matrix, height: float) -> PointBox | None:
    """The box a clip path leaves visible (the intersection of its paths' boxes), mapped by ``m``;
    None for no clip."""
    x, y = ctypes.c_float(), ctypes.c_float()
    visible: PointBox | None = None
    for p in range(max(0, pdfium_c.FPDFClipPath_CountPaths(clip))):
        xs, ys = [], []
        for s in range(max(0, pdfium_c.FPDFClipPath_CountPathSegments(clip, p))):
            pdfium_c.FPDFPathSegment_GetPoint(pdfium_c.FPDFClipPath_GetPathSegment(clip, p, s), x, y)
            xs.append(x.value)
            ys.append(y.value)
        if not xs:
            continue
        box = box_top_left(m, height, min(xs), min(ys), max(xs), max(ys))
        visible = box if visible is None else (max(visible[0], box[0]), max(visible[1], box[1]),
                                               min(visible[2], box[2]), min(visible[3], box[3]))
    return visible


def text_clips(page, display: Matrix, height: float) -> dict[int, PointBox]:
    """Text object (its PDFium handle's address) -> the part of the displayed page its clip path
    leaves visible, for the text objects that have one. A page embedded as a form XObject (MDPI
    schemes drawn with their own caption) brings its text along, clipped away: the reader sees
    the publisher's caption once, the text layer holds it three times."""
    clips: dict[int, PointBox] = {}

    def visit(obj, kind, m: Matrix) -> None:
        clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
        if clip:
            box = _clip_box(clip, m, height)
            if box is not None:
                clips[ctypes.cast(obj, ctypes.c_void_p).value or 0] = box

    _walk(page.raw, False, display, 0, visit, (pdfium_c.FPDF_PAGEOBJ_TEXT,))
    return clips
