"""Characters and words of a page, read with PDFium as pdfminer/pdfplumber reported them
(see :mod:`medfig.pdf.page` for the rules kept): characters boxed from the glyph origin,
one advance wide, one font size high from the descent line; words split on drawn space
glyphs that advance the text, font changes and gaps wider than 15% of the font size."""

from __future__ import annotations

import ctypes
import unicodedata
from dataclasses import dataclass
from itertools import groupby

import pypdfium2.raw as pdfium_c

from medfig.geometry import PointBox
from medfig.pdf.page_objects import fill_rgba
from medfig.pdf.page_space import Matrix, box_top_left, concat
from medfig.pdf.types import Word

# Words are split at gaps wider than 15% of the font size: some publishers (Hindawi)
# draw no space glyphs, and a fixed 3 pt tolerance glues whole lines together.
_X_TOLERANCE_RATIO = 0.15
# Characters whose tops are within this many points are on one line (pdfplumber's default).
_Y_TOLERANCE_PT = 3.0
_FONT_NAME_BYTES = 128
# A space glyph splits words only where the text moves on past it: some PDFs map the "fi" ligature
# to "fi " and set the next letter right at the ligature's end ("signifi cant" otherwise). A real
# space advances a quarter em or more; none at all (under 5% of the size) is no word break.
_NO_ADVANCE_RATIO = 0.05


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
    white: bool = False  # filled in white: visible only over something drawn (see page.read_page)


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
    white: bool  # filled (render mode 0) in white


# a fill at least this bright in every channel is the page's own white
_WHITE_LEVEL = 250


def _white_fill(obj) -> bool:
    if not obj or pdfium_c.FPDFTextObj_GetTextRenderMode(obj) != pdfium_c.FPDF_TEXTRENDERMODE_FILL:
        return False
    rgba = fill_rgba(obj)
    return rgba is not None and rgba[3] > 0 and min(rgba[:3]) >= _WHITE_LEVEL


def _font_name(font) -> str:
    buf = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    n = pdfium_c.FPDFFont_GetBaseFontName(font, buf, _FONT_NAME_BYTES)
    return buf.raw[:max(0, n - 1)].decode("utf-8", "replace") if n else ""


def _text_object(textpage, i: int, obj, display: Matrix) -> _TextObject:
    fsm = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFText_GetMatrix(textpage, i, fsm)
    matrix = (fsm.a, fsm.b, fsm.c, fsm.d, fsm.e, fsm.f)
    a, b, c, d = concat(matrix, display)[:4]
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
        upright=a * d > 0 and b * c <= 0, upward=b > 0, white=_white_fill(obj))


def _page_text(textpage, n: int) -> list[str]:
    """One code unit per character index (PDFium counts the halves of a surrogate pair)."""
    buf = (ctypes.c_ushort * (n + 1))()
    got = pdfium_c.FPDFText_GetText(textpage, 0, n, buf)
    if got - 1 != n:
        return [chr(pdfium_c.FPDFText_GetUnicode(textpage, i)) for i in range(n)]
    return [chr(u) for u in buf[:n]]


def read_chars(textpage, display: Matrix, height: float, clips: dict[int, PointBox] | None = None) -> list[_Char]:
    """Drawn characters in content order (PDFium's synthesised spaces and line breaks dropped),
    each boxed as pdfminer does: from the glyph origin, one advance wide, from the descent
    line (the bottom of PDFium's loose box) to one font size above it, mapped to the
    displayed page. ``clips`` (:func:`medfig.pdf.page_objects.text_clips`): a character wholly
    outside its text object's clip box is not printed and is left out."""
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
            x0, top, x1, bottom = box_top_left(display, height, *box)
        visible = clips.get(key) if clips else None
        if visible is not None and (x1 <= visible[0] or visible[2] <= x0 or bottom <= visible[1] or visible[3] <= top):
            continue  # wholly clipped away: not printed
        out.append(_Char(ch, x0, top, x1, bottom, info.size, info.font_name, info.upright, info.upward, info.white))
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


def group_words(chars: list[_Char]) -> list[Word]:
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
            if upright:
                line = _attach_accents(line)
            current: list[_Char] = []
            spaced = False  # a space glyph since the last character: a break if the next one starts further on
            for ch in line:
                if ch.text.isspace():
                    spaced = True
                    continue
                if current and ((spaced and _gap_along(current[-1], ch, upright) > _NO_ADVANCE_RATIO * ch.size)
                                or _begins_word(current[-1], ch, upright)):
                    _flush(current, out)
                    current = []
                spaced = False
                current.append(ch)
            _flush(current, out)
    return out


# spacing accents some PDFs draw over a letter as a glyph of their own ("Rondoˆnia", "Esp´ırito") -> the
# combining mark that composes with the letter under them
_SPACING_ACCENTS = {"´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303", "¨": "\u0308", "˚": "\u030a",
                    "¸": "\u0327", "ˇ": "\u030c", "˘": "\u0306", "˝": "\u030b", "¯": "\u0304", "˙": "\u0307",
                    "˛": "\u0328"}


def _attach_accents(line: list[_Char]) -> list[_Char]:
    """A spacing accent whose middle lies over a letter (before or after it in reading order) is that
    letter's accent: "a" + "´" over it is "á", "ı" + "´" is "í". Elsewhere (a quote mark) it stays."""
    out: list[_Char] = []
    pending: _Char | None = None
    for ch in line:
        mark = _SPACING_ACCENTS.get(ch.text)
        if mark is not None:
            if pending is not None:
                out.append(pending)
            pending = None
            if out and _under(out[-1], ch):
                out[-1] = _accented(out[-1], mark)
            else:
                pending = ch
            continue
        if pending is not None:
            if _under(ch, pending):
                ch = _accented(ch, _SPACING_ACCENTS[pending.text])
            else:
                out.append(pending)
            pending = None
        out.append(ch)
    if pending is not None:
        out.append(pending)
    return out


def _under(base: _Char, accent: _Char) -> bool:
    middle = (accent.x0 + accent.x1) / 2
    return len(base.text) == 1 and base.text.isalpha() and base.x0 <= middle <= base.x1


def _accented(base: _Char, mark: str) -> _Char:
    letter = {"ı": "i", "ȷ": "j"}.get(base.text, base.text)  # the accent replaces the dot
    return _Char(unicodedata.normalize("NFC", letter + mark), base.x0, base.top, base.x1, base.bottom,
                 base.size, base.font, base.upright, base.upward)


def _gap_along(prev: _Char, ch: _Char, upright: bool) -> float:
    """White space between two characters along the reading direction (negative: they overlap)."""
    if upright:
        return ch.x0 - prev.x1
    if ch.upward:
        return prev.top - ch.bottom
    return ch.top - prev.bottom


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

