"""One PDF page as plain objects: words, text lines, embedded images, vector paths.

Read with pdfplumber, whose coordinates already are PDF points with the origin at the
top-left (``x0, top, x1, bottom``), including for objects inside form XObjects.
"""

from __future__ import annotations

import re
from collections import Counter
from statistics import median
from dataclasses import dataclass, field

from medfig.pdf.types import Box

# Words are split at gaps wider than 15% of the font size: some publishers (Hindawi)
# draw no space glyphs, so pdfplumber's default 3 pt tolerance glues whole lines together.
_X_TOLERANCE_RATIO = 0.15
# A row of words is split into separate lines at gaps wider than this many font sizes:
# column gutters are >= 1.5 em, justified word gaps stay below it.
_LINE_SPLIT_EM = 1.5
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|\bbd\b|-bd|,b$|medi", re.IGNORECASE)


@dataclass(slots=True)
class Word:
    text: str
    box: Box
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
    box: Box = (0.0, 0.0, 0.0, 0.0)
    size: float = 0.0  # the most common font size of the line's words
    index: int = 0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(slots=True)
class Graphic:
    """A drawn object: ``kind`` is ``image`` (raster placement) or ``path`` (vector)."""

    kind: str
    box: Box
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


def _words(plumber_page) -> list[Word]:
    raw = plumber_page.extract_words(
        x_tolerance_ratio=_X_TOLERANCE_RATIO, keep_blank_chars=False, extra_attrs=["size", "fontname", "upright"]
    )
    out = []
    for w in raw:
        if not w["text"].strip():
            continue
        out.append(Word(w["text"], (w["x0"], w["top"], w["x1"], w["bottom"]), float(w["size"]), w["fontname"], bool(w["upright"])))
    return out


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


def _graphics(plumber_page, width: float, height: float) -> list[Graphic]:
    out: list[Graphic] = []
    page_area = width * height
    for im in plumber_page.images:
        box = (max(0.0, im["x0"]), max(0.0, im["top"]), min(width, im["x1"]), min(height, im["bottom"]))
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            continue
        src = im.get("srcsize") or (0, 0)
        out.append(Graphic("image", box, (int(src[0]), int(src[1]))))
    for obj in (*plumber_page.rects, *plumber_page.lines, *plumber_page.curves):
        box = (max(0.0, obj["x0"]), max(0.0, obj["top"]), min(width, obj["x1"]), min(height, obj["bottom"]))
        w, h = box[2] - box[0], box[3] - box[1]
        if w < 0 or h < 0 or (w * h) > 0.5 * page_area:
            continue  # off-page, or a page background
        if not obj.get("stroke") and not obj.get("fill"):
            continue  # clipping paths and other invisible geometry
        if obj.get("fill") and not obj.get("stroke") and _is_white(obj.get("non_stroking_color")):
            continue  # white boxes used as knock-outs/backgrounds
        out.append(Graphic("path", box, thin=min(w, h) < 2.0))
    return out


def _is_white(color) -> bool:
    if color is None:
        return False
    if isinstance(color, (int, float)):
        return color >= 0.99
    try:
        vals = list(color)
    except TypeError:
        return False
    if not vals or not all(isinstance(v, (int, float)) for v in vals):
        return False  # a pattern or separation colour space (named, not numeric): not white
    if len(vals) == 4:  # CMYK
        return all(v <= 0.01 for v in vals)
    return all(v >= 0.99 for v in vals)


def read_page(plumber_page, index: int) -> PageData:
    width, height = float(plumber_page.width), float(plumber_page.height)
    # pdfplumber measures from the (crop)box origin; keep its top-left convention.
    words = _words(plumber_page)
    lines = build_lines(words)
    sizes = Counter()
    for w in words:
        sizes[round(w.size, 1)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    return PageData(index, width, height, words, lines, _graphics(plumber_page, width, height), body, _line_gap(lines, body))


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
