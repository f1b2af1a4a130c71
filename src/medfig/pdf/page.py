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
from medfig.pdf.page_objects import read_graphics, text_clips
from medfig.pdf.page_space import display_matrix
from medfig.pdf.page_text import group_words, read_chars
from medfig.pdf.printed_text import distinct_chars, distinct_lines, distinct_runs, distinct_words, printed_chars
from medfig.pdf.types import Line, PageData, Word

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
        pieces, wide = [[row[0]]], []  # wide[i]: pieces i and i+1 parted by a wide gap off any gutter
        for w in row[1:]:
            current = pieces[-1]
            gap = w.box[0] - current[-1].box[2]
            em = max(w.size, current[-1].size, 1.0)
            on_gutter = gap > _GUTTER_SPLIT_EM * em and any(
                x in gutters for x in range(int(current[-1].box[2]) + 1, int(w.box[0])))
            if gap > _LINE_SPLIT_EM * em or on_gutter:
                pieces.append([w])
                wide.append(not on_gutter)
            else:
                current.append(w)
        lines.extend(_make_line(words) for words in _join_justified(pieces, wide))
    lines = _join_row_fragments(lines, gutters)
    lines = [part for line in lines for part in _split_line_number(line)]
    for i, line in enumerate(lines):
        line.index = i
    return lines


# justification spreads a line's spare width evenly over its word gaps: a row whose gaps are all
# this close to each other is one line, however wide they are (a few long words in a narrow
# column); between columns the gutter is many times the word gaps on either side of it
_EVEN_GAPS = 1.25
_JUSTIFIED_MAX_EM = 3.0


def _justified(words: list[Word]) -> bool:
    """Three or more words whose gaps are all alike and under _JUSTIFIED_MAX_EM: one justified line."""
    if len(words) < 3:
        return False
    gaps = [b.box[0] - a.box[2] for a, b in zip(words, words[1:])]
    em = max(w.size for w in words) or 1.0
    return min(gaps) > 0 and max(gaps) <= _EVEN_GAPS * min(gaps) and max(gaps) <= _JUSTIFIED_MAX_EM * em


def _join_justified(pieces: list[list[Word]], wide: list[bool]) -> list[list[Word]]:
    """Consecutive pieces of a row that the wide-gap rule parted but whose words together are one
    justified line (:func:`_justified`), joined again; gutter splits always stand."""
    out: list[list[Word]] = []
    i = 0
    while i < len(pieces):
        last = i  # the longest run of pieces from i, parted by wide gaps only, that is one justified line
        for k in range(i + 1, len(pieces)):
            if not wide[k - 1]:
                break
            if _justified([w for piece in pieces[i:k + 1] for w in piece]):
                last = k
        out.append([w for piece in pieces[i:last + 1] for w in piece])
        i = last + 1
    return out


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
        # the raw handle: no per-call wrapper lookup
        chars = read_chars(textpage.raw, display, height, text_clips(pdf_page, display, height))
    finally:
        textpage.close()
    graphics = read_graphics(pdf_page, display, width, height)
    words = distinct_words(group_words(distinct_runs(distinct_chars(printed_chars(chars, graphics)))))
    lines = build_lines(words)
    lines, words = distinct_lines(lines, words)
    sizes: Counter = Counter()
    for w in words:
        sizes[round(w.size, 1)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    return PageData(index, width, height, words, lines, graphics, body, _line_gap(lines, body))


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
