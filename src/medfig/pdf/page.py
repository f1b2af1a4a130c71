"""One PDF page as plain objects: words, text lines, embedded images, vector paths.

Read with pypdfium2 (PDFium), 3-5x faster than pdfminer/pdfplumber, which this module
replaced. Every box is converted from PDFium's page space (points, origin bottom-left,
unrotated) to the page as displayed and rendered: PDF points, origin top-left, /Rotate
and the crop box applied, the convention of pdfplumber's ``x0, top, x1, bottom`` that the
rest of :mod:`medfig.pdf` was built on. The words and drawn objects reproduce what
pdfplumber reported, rule for rule (characters and words: :mod:`medfig.pdf.page_text`;
drawn objects: :mod:`medfig.pdf.page_objects`), so the caption, region and pairing rules
tuned on pdfplumber's output hold unchanged:

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

from collections import Counter
from statistics import median

from medfig.geometry import union
from medfig.pdf.page_objects import read_graphics
from medfig.pdf.page_space import display_matrix
from medfig.pdf.page_text import group_words, read_chars
from medfig.pdf.types import Graphic, Line, PageData, Word

# A row of words is split into separate lines at gaps wider than this many font sizes:
# column gutters are >= 1.5 em, justified word gaps stay below it.
_LINE_SPLIT_EM = 1.5
# A narrower gap (>= half an em) splits the row too when it lies on one of the page's gutters:
# an x band that (almost) no word on the page crosses. Narrow gutters (Dove: ~1.3 em) otherwise
# join a body line and the caption beside it into one line, and the caption is lost.
_GUTTER_SPLIT_EM = 0.5
_GUTTER_MAX_SHARE = 0.03  # a full-width title or table row may cross a gutter; 3% of rows may
_GUTTER_MIN_ROWS = 10  # rows ending just left of it and rows starting just right: two columns, not chance


def page_gutters(words: list[Word]) -> set[int]:
    """Whole-point x positions inside the text block's middle 60% that at most a few words cross."""
    upright = [w for w in words if w.upright]
    if len(upright) < 20:
        return set()
    x0, x1 = min(w.box[0] for w in upright), max(w.box[2] for w in upright)
    lo, hi = int(x0 + 0.2 * (x1 - x0)), int(x1 - 0.2 * (x1 - x0))
    crossing = Counter()
    for w in upright:
        for x in range(max(lo, int(w.box[0])), min(hi, int(w.box[2])) + 1):
            crossing[x] += 1
    rows: dict[int, list[Word]] = {}
    for w in upright:
        rows.setdefault(round(w.box[3]), []).append(w)
    allowed = max(1, int(_GUTTER_MAX_SHARE * len(rows)))
    candidates = [x for x in range(lo, hi + 1) if crossing[x] <= allowed]
    if not candidates:
        return set()
    # a gutter has column edges on both sides: many rows end just left of it and many start just
    # right of it. A few short lines can leave chance gaps between their words that line up
    # (a caption alone on a page); they have no such edges.
    reach = 3 * median(w.size for w in upright)
    ends, starts = Counter(), Counter()
    for row in rows.values():
        row_ends = [w.box[2] for w in row]
        row_starts = [w.box[0] for w in row]
        for x in candidates:
            if any(x - reach <= e < x for e in row_ends):
                ends[x] += 1
            if any(x < b <= x + reach for b in row_starts):
                starts[x] += 1
    return {x for x in candidates if min(ends[x], starts[x]) >= _GUTTER_MIN_ROWS}


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
    gutters = page_gutters(upright)
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda w: w.box[0])
        current = [row[0]]
        for w in row[1:]:
            gap = w.box[0] - current[-1].box[2]
            em = max(w.size, current[-1].size, 1.0)
            on_gutter = gap > _GUTTER_SPLIT_EM * em and any(
                x in gutters for x in range(int(current[-1].box[2]) + 1, int(w.box[0])))
            if gap > _LINE_SPLIT_EM * em or on_gutter:
                lines.append(_make_line(current))
                current = [w]
            else:
                current.append(w)
        lines.append(_make_line(current))
    lines = _join_row_fragments(lines, gutters)
    lines = [part for line in lines for part in _split_line_number(line)]
    for i, line in enumerate(lines):
        line.index = i
    return lines


def _splits(left: Line, right: Line, gutters: set[int]) -> bool:
    """The gap rule of :func:`build_lines` between two pieces of one row, ``left`` before ``right``."""
    gap = right.box[0] - left.box[2]
    em = max(left.size, right.size, 1.0)
    return gap > _LINE_SPLIT_EM * em or (gap > _GUTTER_SPLIT_EM * em and any(
        x in gutters for x in range(int(left.box[2]) + 1, int(right.box[0]))))


def _level(a: Line, b: Line) -> bool:
    """Two pieces on one printed line: the row rule of :func:`build_lines` (tops or bottoms within
    0.35 em) on the boxes of each piece's words of its own most common size, so a glyph set lower
    or higher in another size or font (the "=" of a math font) neither joins nor stretches it."""
    tol = 0.35 * max(a.size, b.size, 1.0)
    ta, ba = _main_span(a)
    tb, bb = _main_span(b)
    return abs(ba - bb) <= tol or abs(ta - tb) <= tol


def _main_span(line: Line) -> tuple[float, float]:
    """Top and bottom of the line's words of its most common size."""
    main = [w for w in line.words if round(w.size, 1) == line.size] or line.words
    return min(w.box[1] for w in main), max(w.box[3] for w in main)


def _bridged(left: Line, right: Line, pieces: list[Line], gutters: set[int]) -> bool:
    """The gap between two level pieces is filled by glyphs set off their baseline ("t0 ≤ ti ≤ 45":
    the lowered "≤" of a math font between "ti" and "45"): no uncovered stretch of it is wider than
    the gap rule allows, and it crosses no gutter."""
    lo, hi = left.box[2], right.box[0]
    if any(x in gutters for x in range(int(lo) + 1, int(hi))):
        return False
    top, bottom = _main_span(left)
    covered = sorted((max(lo, p.box[0]), min(hi, p.box[2])) for p in pieces
                     if p is not left and p is not right and p.box[2] > lo and p.box[0] < hi
                     and p.box[1] < bottom and p.box[3] > top)
    widest, x = 0.0, lo
    for start, end in covered:
        widest, x = max(widest, start - x), max(x, end)
    return max(widest, hi - x) <= _LINE_SPLIT_EM * max(left.size, right.size, 1.0)


def _join_row_fragments(lines: list[Line], gutters: set[int]) -> list[Line]:
    """Pieces of one printed line that the row grouping put into different rows, joined again.

    Rows are grouped against their first word, page-wide: where the two columns' baselines are
    offset, or inline math sets a glyph higher or lower (a subscript, a symbol font's box), a row
    takes part of the neighbouring column's line, or a line loses its middle, and the caption is
    read up to the first piece only ("choroidal ," for "choroidal thicknesses in the SDT rats.
    r_s = 0.81"). Two pieces join when they are level with each other (:func:`_level`) and nothing
    but a word gap separates them (the gap rule above; a subscript may tuck under the letter
    before it, up to an em), so a column gutter keeps its lines apart as before. Joined pieces
    are tested again: a subscript piece bridges the main text on both sides of it."""
    for _ in range(3):
        joined = _join_pass(lines, gutters)
        if len(joined) == len(lines):
            break
        lines = joined
    return lines


def _join_pass(lines: list[Line], gutters: set[int]) -> list[Line]:
    ordered = sorted(lines, key=lambda ln: ln.box[1])
    parent = list(range(len(ordered)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            if b.box[1] > a.box[3]:
                break  # starts below a's bottom: no later piece is level with a
            if not _level(a, b):
                continue
            left, right = (a, b) if a.box[0] <= b.box[0] else (b, a)
            if right.box[0] < left.box[2] - max(a.size, b.size):
                continue  # pieces on top of each other are two texts
            if _splits(left, right, gutters) and not _bridged(left, right, ordered[max(0, i - 20):j + 20], gutters):
                continue  # a wide gap is two columns
            parent[root(j)] = root(i)
    groups: dict[int, list[Line]] = {}
    for i, ln in enumerate(ordered):
        groups.setdefault(root(i), []).append(ln)
    if len(groups) == len(ordered):
        return lines
    joined = [_make_line(sorted((w for ln in g for w in ln.words), key=lambda w: w.box[0])) if len(g) > 1 else g[0]
              for g in groups.values()]
    return sorted(joined, key=lambda ln: (ln.box[1], ln.box[0]))


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
    return Line(words=words, box=union(w.box for w in words), size=sizes.most_common(1)[0][0])


def read_page(pdf_page, index: int) -> PageData:
    """Words, lines and drawn objects of an open pypdfium2 ``PdfPage`` (closed by the caller)."""
    display, width, height = display_matrix(pdf_page)
    textpage = pdf_page.get_textpage()
    try:
        chars = read_chars(textpage.raw, display, height)  # the raw handle: no per-call wrapper lookup
    finally:
        textpage.close()
    graphics = read_graphics(pdf_page, display, width, height)
    words = _distinct(group_words(_distinct_chars(_printed(chars, graphics))))
    lines = build_lines(words)
    lines, words = _distinct_lines(lines, words)
    sizes: Counter = Counter()
    for w in words:
        sizes[round(w.size, 1)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    return PageData(index, width, height, words, lines, graphics, body, _line_gap(lines, body))


# words of a printed line sit side by side; the same word covering half of another is drawn twice
_TWIN_OVERLAP = 0.5
# a second drawing sits a fraction of a point off; letters of slanted text step a quarter em and more
_TWIN_SHIFT_EM = 0.15


def _distinct(words: list[Word]) -> list[Word]:
    """Each printed word once. Some PDFs draw their text twice, at nearly the same places in two
    fonts (MDPI: Palatino Linotype and URW PalladioL, about a point apart), or offset a fraction of
    a point for a fake bold; read twice, "Figure 2." becomes "Figure Figure 2. 2." and is no caption
    label. A word whose box covers half of an earlier identical word's box is dropped (a word
    repeated in the text stands beside the first, not on it)."""
    by_text: dict[str, list[Word]] = {}
    out = []
    for w in words:
        if not w.upright or len(w.text) < 2:
            # turned text's page-aligned boxes overlap their neighbours anyway, and so do the
            # single letters of text set at a slant ("Ca f f e" along a 45-degree axis label)
            out.append(w)
            continue
        twins = by_text.setdefault(w.text, [])
        if any(_covers(o.box, w.box) for o in twins):
            continue
        twins.append(w)
        out.append(w)
    return out


def _distinct_lines(lines: list[Line], words: list[Word]) -> tuple[list[Line], list[Word]]:
    """A line printed over a copy of itself (the same letters), shifted by less than its own
    height (MDPI's second layer, several points off on some pages), is read once: no page prints
    two lines on top of each other."""
    kept: list[Line] = []
    dropped: set[int] = set()
    for line in lines:
        if len(line.words) >= 3 and any(
                _overlap_1d(line.box, k.box, 1) > 0 and _overlap_1d(line.box, k.box, 0) > 0.5 * (line.box[2] - line.box[0])
                and _letters(line) == _letters(k) for k in kept):
            dropped.update(id(w) for w in line.words)
            continue
        kept.append(line)
    if not dropped:
        return lines, words
    return kept, [w for w in words if id(w) not in dropped]


def _letters(line: Line) -> str:
    return "".join(w.text for w in line.words)  # word breaks may differ between the two drawings


def _overlap_1d(a, b, axis: int) -> float:
    return min(a[axis + 2], b[axis + 2]) - max(a[axis], b[axis])


def _distinct_chars(chars: list) -> list:
    """Each glyph once where the same glyph of the same font is drawn again on half of itself (a
    second copy of the text in another content stream, a fake bold); interleaved, the two copies
    read "FFiigguurree"."""
    seen: dict[tuple[str, str, int, int], list] = {}
    out = []
    for ch in chars:
        key = (ch.text, ch.font, int(ch.x0 // 8), int(ch.top // 8))
        near = (o for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for o in seen.get((ch.text, ch.font, key[2] + dx, key[3] + dy), ()))
        if ch.upright and any(_covers((o.x0, o.top, o.x1, o.bottom), (ch.x0, ch.top, ch.x1, ch.bottom))
                              and abs(o.x0 - ch.x0) <= _TWIN_SHIFT_EM * ch.size and abs(o.top - ch.top) <= _TWIN_SHIFT_EM * ch.size
                              for o in near):
            continue
        seen.setdefault(key, []).append(ch)
        out.append(ch)
    return out


def _covers(a, b) -> bool:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w > 0 and h > 0 and smaller > 0 and w * h >= _TWIN_OVERLAP * smaller


def _printed(chars: list, graphics: list[Graphic]) -> list:
    """The characters a reader sees: white text shows only over something drawn (a dark photo, a
    coloured banner); white text on the white page is a hidden layer (old BMC PDFs repeat each
    figure's title in white over its "Figure 1" heading, which then reads as interleaved letters)."""
    if not any(ch.white for ch in chars):
        return chars
    backdrops = [g.box for g in graphics if not g.thin]

    def over_drawing(ch) -> bool:
        cx, cy = (ch.x0 + ch.x1) / 2, (ch.top + ch.bottom) / 2
        return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in backdrops)

    return [ch for ch in chars if not ch.white or over_drawing(ch)]


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
