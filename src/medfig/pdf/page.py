"""One PDF page as plain objects: words, text lines, embedded images, vector paths.

Read with pypdfium2 (PDFium), 3-5x faster than pdfminer/pdfplumber, which this module
replaced. Every box is converted from PDFium's page space (points, origin bottom-left,
unrotated) to the page as displayed and rendered: PDF points, origin top-left, /Rotate
and the crop box applied, the convention of pdfplumber's ``x0, top, x1, bottom`` that the
rest of :mod:`medfig.pdf` was built on. The words and drawn objects reproduce what
pdfplumber reported, rule for rule (see :func:`_words` and :func:`_graphics`), so the
caption, region and pairing rules tuned on pdfplumber's output hold unchanged:

- a character box spans the glyph's advance horizontally (PDFium's loose box also spans
  the glyph's ink: where the ink overhangs the advance, as for an italic f, the font's
  width table gives the advance) and, vertically, one font size up from the descent line
  (pdfminer's box; PDFium's loose box reaches the font's ascent instead);
- a ligature glyph that PDFium reports as one character per letter is one character;
- spaces PDFium synthesises between words are dropped: words are split on drawn space
  glyphs, on font changes and on gaps wider than 15% of the font size;
- each subpath of a vector path is its own object, boxed by its end points (no stroke
  width, no Bézier control points), inside form XObjects too.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from statistics import median

import pypdfium2.raw as pdfium_c

from medfig.geometry import PointBox

# Words are split at gaps wider than 15% of the font size: some publishers (Hindawi)
# draw no space glyphs, and a fixed 3 pt tolerance glues whole lines together.
_X_TOLERANCE_RATIO = 0.15
# Characters whose tops are within this many points are on one line (pdfplumber's default).
_Y_TOLERANCE_PT = 3.0
# A row of words is split into separate lines at gaps wider than this many font sizes:
# column gutters are >= 1.5 em, justified word gaps stay below it.
_LINE_SPLIT_EM = 1.5
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|\bbd\b|-bd|,b$|medi", re.IGNORECASE)
_FONT_NAME_BYTES = 128
_WHITE_255 = 252  # a fill at least this light in every RGB channel (of 255) is white paper


@dataclass(slots=True)
class Word:
    text: str
    box: PointBox
    size: float
    font: str
    upright: bool = True

    @property
    def bold(self) -> bool:
        return bool(_BOLD.search(self.font))


@dataclass(slots=True)
class Line:
    """Words on one baseline within one column. ``box`` in PDF points, origin top-left."""

    words: list[Word]
    box: PointBox = (0.0, 0.0, 0.0, 0.0)
    size: float = 0.0  # the most common font size of the line's words
    index: int = 0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(slots=True)
class Graphic:
    """A drawn object: ``kind`` is ``image`` (raster placement) or ``path`` (vector)."""

    kind: str
    box: PointBox
    # image only: source pixel size, for --native crops
    src_px: tuple[int, int] | None = None
    thin: bool = False  # a path thinner than 2 pt (a rule or hairline)


@dataclass(slots=True)
class PageData:
    index: int
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    graphics: list[Graphic] = field(default_factory=list)
    body_size: float = 10.0  # most common font size on the page (body text)
    line_gap: float = 0.0  # median white space between consecutive body lines (double-spaced manuscripts: ~1 em)


# --- page space -> displayed page, origin top-left -------------------------------------

Matrix = tuple[float, float, float, float, float, float]  # PDF order: a b c d e f


def _display_matrix(page) -> tuple[Matrix, float, float]:
    """The affine map from PDFium page space to the displayed page with the origin at the
    bottom-left (y up), and the displayed width and height. The same map pdfminer applies
    for /Rotate; y is flipped to top-left by :func:`_box_top_left`."""
    left, bottom, right, top = page.get_cropbox()
    rotation = page.get_rotation() % 360
    if rotation == 90:
        return (0.0, -1.0, 1.0, 0.0, -bottom, right), top - bottom, right - left
    if rotation == 180:
        return (-1.0, 0.0, 0.0, -1.0, right, top), right - left, top - bottom
    if rotation == 270:
        return (0.0, 1.0, -1.0, 0.0, top, -left), top - bottom, right - left
    return (1.0, 0.0, 0.0, 1.0, -left, -bottom), right - left, top - bottom


def _concat(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector convention: p' = p * m * n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _box_top_left(m: Matrix, height: float, x0: float, y0: float, x1: float, y1: float) -> PointBox:
    """Bounding box of the page-space rectangle (x0, y0, x1, y1) mapped by ``m``, y flipped."""
    a, b, c, d, e, f = m
    xs = (a * x0 + c * y0, a * x1 + c * y0, a * x0 + c * y1, a * x1 + c * y1)
    ys = (b * x0 + d * y0, b * x1 + d * y0, b * x0 + d * y1, b * x1 + d * y1)
    return (min(xs) + e, height - (max(ys) + f), max(xs) + e, height - (min(ys) + f))


# --- characters and words ---------------------------------------------------------------

@dataclass(slots=True)
class _Char:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    font: str
    upright: bool
    upward: bool = False  # rotated text read bottom to top (90 degrees counter-clockwise)


# PDFium marks a hyphen that ends a line with these code points; pdfminer reports the glyph: "-"
_HYPHEN_MARKS = {"\x02": "-", "\ufffe": "-"}


@dataclass(slots=True)
class _TextObject:
    """What all characters of one text object share."""

    tf: float  # font size operand (Tf), text space units
    matrix: Matrix  # text space -> page space, without Tf
    font: object  # FPDF_FONT handle (None: unknown)
    font_key: int
    font_name: str
    descent: float  # in text space units for Tf = 1 (negative)
    size: float  # effective font size on the displayed page, points
    upright: bool
    upward: bool


def _font_name(font) -> str:
    buf = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    n = pdfium_c.FPDFFont_GetBaseFontName(font, buf, _FONT_NAME_BYTES)
    return buf.raw[:max(0, n - 1)].decode("utf-8", "replace") if n else ""


def _text_object(textpage, i: int, obj, display: Matrix) -> _TextObject:
    fsm = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFText_GetMatrix(textpage, i, fsm)
    matrix = (fsm.a, fsm.b, fsm.c, fsm.d, fsm.e, fsm.f)
    a, b, c, d = _concat(matrix, display)[:4]
    tf = pdfium_c.FPDFText_GetFontSize(textpage, i)
    font = pdfium_c.FPDFTextObj_GetFont(obj) if obj else None
    name, descent = "", -0.2
    if font:
        name = _font_name(font)
        value = ctypes.c_float()
        if pdfium_c.FPDFFont_GetDescent(font, 1.0, value):
            descent = value.value
    return _TextObject(
        tf=tf, matrix=matrix, font=font or None, font_key=ctypes.cast(font, ctypes.c_void_p).value or 0 if font else 0,
        font_name=name, descent=descent, size=tf * (c * c + d * d) ** 0.5,
        # pdfminer's test: not turned by 90/270 degrees (nor mirrored)
        upright=a * d > 0 and b * c <= 0, upward=b > 0)


def _page_text(textpage, n: int) -> list[str]:
    """One code unit per character index (PDFium counts the halves of a surrogate pair)."""
    buf = (ctypes.c_ushort * (n + 1))()
    got = pdfium_c.FPDFText_GetText(textpage, 0, n, buf)
    if got - 1 != n:
        return [chr(pdfium_c.FPDFText_GetUnicode(textpage, i)) for i in range(n)]
    return [chr(u) for u in buf[:n]]


def _chars(textpage, display: Matrix, height: float) -> list[_Char]:
    """Drawn characters in content order (PDFium's synthesised spaces and line breaks dropped),
    each boxed as pdfminer does: from the glyph origin, one advance wide, from the descent
    line (the bottom of PDFium's loose box) to one font size above it, mapped to the
    displayed page."""
    n = pdfium_c.FPDFText_CountChars(textpage)
    if n <= 0:
        return []
    units = _page_text(textpage, n)
    loose = pdfium_c.FS_RECTF()
    ox, oy = ctypes.c_double(), ctypes.c_double()
    tl, tr, tb, tt = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    width = ctypes.c_float()
    objects: dict[int, _TextObject] = {}
    glyph_widths: dict[tuple[int, str], float] = {}
    out: list[_Char] = []
    last_key, last_origin, last_estimate, last_box, last_text = -1, (0.0, 0.0), 0.0, (0.0, 0.0, 0.0, 0.0), ""
    unrotated = display[:4] == (1.0, 0.0, 0.0, 1.0)
    de, df = display[4], display[5]
    i = 0
    while i < n:
        ch, index = units[i], i
        i += 1
        if "\ud800" <= ch <= "\udbff" and i < n and "\udc00" <= units[i] <= "\udfff":
            ch = (ch + units[i]).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            i += 1
        if ch.isspace() and pdfium_c.FPDFText_IsGenerated(textpage, index):
            continue
        ch = _HYPHEN_MARKS.get(ch, ch)
        obj = pdfium_c.FPDFText_GetTextObject(textpage, index)
        key = ctypes.cast(obj, ctypes.c_void_p).value or 0
        info = objects.get(key)
        if info is None:
            info = objects[key] = _text_object(textpage, index, obj, display)
        estimate = glyph_widths.get((info.font_key, ch))
        if estimate is None:
            estimate = 0.0
            if info.font is not None and len(ch) == 1 and pdfium_c.FPDFFont_GetGlyphWidth(info.font, ord(ch), 1.0, width):
                estimate = max(0.0, width.value)
            glyph_widths[(info.font_key, ch)] = estimate
        pdfium_c.FPDFText_GetCharOrigin(textpage, index, ox, oy)
        pdfium_c.FPDFText_GetLooseCharBox(textpage, index, loose)
        origin = (ox.value, oy.value)
        # a ligature glyph ("fi") that PDFium reports as one character per letter, all at the
        # glyph's origin: one character, as pdfminer reports it, one ligature advance wide
        ligature = bool(out) and key == last_key and origin == last_origin
        if ligature:
            estimate += last_estimate
        a, b, c, d, _, _ = info.matrix
        if info.tf > 0 and b == 0 and c == 0 and a > 0 and d > 0:
            # PDFium's loose box is the union of the glyph's advance box and its ink. Its right edge is
            # the advance's end unless the ink reaches past it (italic f): only then (the font's width
            # falls short of the edge) is the ink box read, and the font's width used if it is the ink
            end = loose.right
            advance = estimate * info.tf * a
            if advance > 0 and origin[0] + advance < loose.right - 0.01:
                pdfium_c.FPDFText_GetCharBox(textpage, index, tl, tr, tb, tt)
                if loose.right <= tr.value + 0.01:
                    end = origin[0] + advance
            low = loose.bottom
            box = (origin[0], low, max(origin[0], end), low + info.tf * d)
        elif info.tf > 0 and estimate > 0:
            # rotated or skewed text: the text-space box [0, advance] x [descent, descent + 1] (times Tf)
            # through the text matrix, as pdfminer boxes it
            along_x, along_y, up_x, up_y = a * info.tf, b * info.tf, c * info.tf, d * info.tf
            x_lo, y_lo = origin[0] + info.descent * up_x, origin[1] + info.descent * up_y
            xs = (x_lo, x_lo + estimate * along_x, x_lo + up_x, x_lo + estimate * along_x + up_x)
            ys = (y_lo, y_lo + estimate * along_y, y_lo + up_y, y_lo + estimate * along_y + up_y)
            box = (min(xs), min(ys), max(xs), max(ys))
        else:  # no font width for this code: PDFium's box
            box = (loose.left, loose.bottom, loose.right, loose.top)
        if ligature:
            box = (min(box[0], last_box[0]), min(box[1], last_box[1]), max(box[2], last_box[2]), max(box[3], last_box[3]))
            out.pop()
            ch = last_text + ch
        if unrotated:  # the common page: a shift and a flip, no corner mapping
            x0, top, x1, bottom = box[0] + de, height - (box[3] + df), box[2] + de, height - (box[1] + df)
        else:
            x0, top, x1, bottom = _box_top_left(display, height, *box)
        out.append(_Char(ch, x0, top, x1, bottom, info.size, info.font_name, info.upright, info.upward))
        last_key, last_origin, last_estimate, last_box, last_text = key, origin, estimate, box, ch
    return out


def _cluster(chars: list[_Char], key, tolerance: float) -> list[list[_Char]]:
    """pdfplumber's cluster_objects: sort by ``key``, chain values within ``tolerance``."""
    ordered = sorted(chars, key=key)
    groups: list[list[_Char]] = []
    last = None
    for ch in ordered:
        v = key(ch)
        if last is None or v > last + tolerance:
            groups.append([])
        groups[-1].append(ch)
        last = v
    return groups


def _words(chars: list[_Char]) -> list[Word]:
    """pdfplumber's ``extract_words(x_tolerance_ratio=0.15, extra_attrs=[size, fontname, upright])``:
    runs of characters with one font, size and orientation; within a run, lines by top
    (upright) or x0 (rotated); within a line, a new word at a space glyph or a gap."""
    out: list[Word] = []
    for (upright, _, _), run in groupby(chars, key=lambda ch: (ch.upright, ch.size, ch.font)):
        run = list(run)
        if upright:
            lines = _cluster(run, lambda ch: ch.top, _Y_TOLERANCE_PT)
            along = lambda ch: ch.x0  # noqa: E731
        else:
            lines = _cluster(run, lambda ch: ch.x0, _Y_TOLERANCE_PT)
            # read along the baseline: top to bottom, or bottom to top for upward text
            along = (lambda ch: -ch.bottom) if run[0].upward else (lambda ch: ch.top)  # noqa: E731
        for line in lines:
            line.sort(key=along)
            current: list[_Char] = []
            for ch in line:
                if ch.text.isspace():
                    _flush(current, out)
                    current = []
                    continue
                if current and _begins_word(current[-1], ch, upright):
                    _flush(current, out)
                    current = []
                current.append(ch)
            _flush(current, out)
    return out


def _begins_word(prev: _Char, ch: _Char, upright: bool) -> bool:
    """pdfplumber's test: the character steps back, or leaves a gap wider than 15% of the
    font size, or is on another line (tops, or x0 for rotated text, 3 pt apart)."""
    tolerance = _X_TOLERANCE_RATIO * prev.size
    if upright:  # left to right
        return ch.x0 < prev.x0 or ch.x0 > prev.x1 + tolerance or abs(ch.top - prev.top) > _Y_TOLERANCE_PT
    if ch.upward:  # bottom to top
        return ch.bottom > prev.bottom or ch.bottom < prev.top - tolerance or abs(ch.x0 - prev.x0) > _Y_TOLERANCE_PT
    return ch.top < prev.top or ch.top > prev.bottom + tolerance or abs(ch.x0 - prev.x0) > _Y_TOLERANCE_PT


def _flush(chars: list[_Char], out: list[Word]) -> None:
    if not chars:
        return
    text = "".join(ch.text for ch in chars)
    if not text.strip():
        return
    box = (min(ch.x0 for ch in chars), min(ch.top for ch in chars), max(ch.x1 for ch in chars), max(ch.bottom for ch in chars))
    first = chars[0]
    out.append(Word(text, box, float(first.size), first.font, first.upright))


def build_lines(words: list[Word]) -> list[Line]:
    """Group upright words into lines: same baseline row, split at column gutters."""
    upright = sorted((w for w in words if w.upright), key=lambda w: (w.box[1], w.box[0]))
    rows: list[list[Word]] = []
    for w in upright:
        if rows:
            ref = rows[-1][0]
            tol = 0.35 * max(ref.size, w.size, 1.0)
            if abs(w.box[3] - ref.box[3]) <= tol or abs(w.box[1] - ref.box[1]) <= tol:
                rows[-1].append(w)
                continue
        rows.append([w])
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda w: w.box[0])
        current = [row[0]]
        for w in row[1:]:
            gap = w.box[0] - current[-1].box[2]
            if gap > _LINE_SPLIT_EM * max(w.size, current[-1].size, 1.0):
                lines.append(_make_line(current))
                current = [w]
            else:
                current.append(w)
        lines.append(_make_line(current))
    lines = [part for line in lines for part in _split_line_number(line)]
    for i, line in enumerate(lines):
        line.index = i
    return lines


def _split_line_number(line: Line) -> list[Line]:
    """Preprints (medRxiv, bioRxiv) number every line in the margin: "558 Table 1. ..."
    A leading 1-4 digit word set apart from the text is its own line, so the caption
    starts where the caption starts."""
    w = line.words
    if len(w) > 1 and w[0].text.isdigit() and len(w[0].text) <= 4 and \
            (w[1].box[0] - w[0].box[2] >= 0.6 * w[1].size or w[0].font != w[1].font):
        return [_make_line(w[:1]), _make_line(w[1:])]
    return [line]


def _make_line(words: list[Word]) -> Line:
    sizes = Counter(round(w.size, 1) for w in words)
    box = (min(w.box[0] for w in words), min(w.box[1] for w in words), max(w.box[2] for w in words), max(w.box[3] for w in words))
    return Line(words=words, box=box, size=sizes.most_common(1)[0][0])


# --- drawn objects ------------------------------------------------------------------------

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


def _is_white_fill(obj) -> bool:
    r, g, b, alpha = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    if not pdfium_c.FPDFPageObj_GetFillColor(obj, r, g, b, alpha):
        return False  # a pattern or shading fill: not white
    return min(r.value, g.value, b.value) >= _WHITE_255


def _walk(container, is_form: bool, m: Matrix, depth: int, visit) -> None:
    """Every object of the page, descending into form XObjects (their children's
    coordinates are in form space: the form's matrix is composed onto ``m``)."""
    count = pdfium_c.FPDFFormObj_CountObjects if is_form else pdfium_c.FPDFPage_CountObjects
    get = pdfium_c.FPDFFormObj_GetObject if is_form else pdfium_c.FPDFPage_GetObject
    for i in range(max(0, count(container))):
        obj = get(container, i)
        if not obj:
            continue
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            if depth < _MAX_FORM_DEPTH:
                _walk(obj, True, _concat(_object_matrix(obj), m), depth + 1, visit)
        elif kind in (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_PATH):
            visit(obj, kind, m)


_MAX_FORM_DEPTH = 15


def _graphics(page, display: Matrix, width: float, height: float) -> list[Graphic]:
    images: list[Graphic] = []
    paths: list[Graphic] = []
    page_area = width * height
    left, bottom_, right, top_ = (ctypes.c_float() for _ in range(4))
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()

    def visit(obj, kind, m: Matrix) -> None:
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            # an image's own matrix maps its unit square: its bounds are that square in parent space
            if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom_, right, top_):
                return
            x0, y0, x1, y1 = _box_top_left(m, height, left.value, bottom_.value, right.value, top_.value)
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
        for x0, y0, x1, y1 in _subpath_boxes(obj, _concat(_object_matrix(obj), m), height):
            box = (max(0.0, x0), max(0.0, y0), min(width, x1), min(height, y1))
            w, h = box[2] - box[0], box[3] - box[1]
            if w < 0 or h < 0 or (w * h) > 0.5 * page_area:
                continue  # off-page, or a page background
            paths.append(Graphic("path", box, thin=min(w, h) < 2.0))

    _walk(page.raw, False, display, 0, visit)
    return images + paths  # pdfplumber's order: images first, then paths


# --- the page -----------------------------------------------------------------------------

def read_page(pdf_page, index: int) -> PageData:
    """Words, lines and drawn objects of an open pypdfium2 ``PdfPage`` (closed by the caller)."""
    display, width, height = _display_matrix(pdf_page)
    textpage = pdf_page.get_textpage()
    try:
        words = _words(_chars(textpage.raw, display, height))  # the raw handle: no per-call wrapper lookup
    finally:
        textpage.close()
    lines = build_lines(words)
    sizes: Counter = Counter()
    for w in words:
        sizes[round(w.size, 1)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    return PageData(index, width, height, words, lines, _graphics(pdf_page, display, width, height), body, _line_gap(lines, body))


def _line_gap(lines: list[Line], body: float) -> float:
    """Median vertical gap between a body line and the body line right under it."""
    body_lines = sorted((ln for ln in lines if abs(ln.size - body) < 0.3), key=lambda ln: (ln.box[1], ln.box[0]))
    gaps = []
    for i, a in enumerate(body_lines):
        for b in body_lines[i + 1:i + 6]:
            gap = b.box[1] - a.box[3]
            if 0 <= gap <= 3 * body and min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > 0.5 * (a.box[2] - a.box[0]):
                gaps.append(gap)
                break
    return float(median(gaps)) if len(gaps) >= 5 else 0.0
