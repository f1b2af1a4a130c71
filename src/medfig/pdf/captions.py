"""Find caption paragraphs: lines that start with a label, extended over following lines.

A label-led line is a caption start when the layout says so, not only the text:
a delimiter after the number, a label set in a different (bold) font from the rest,
the label alone on its line, a font smaller than the body text, white space above.
A label-led line in the middle of a body paragraph (close below a line of the same
size that does not end a sentence) is an in-text mention and is never taken.

The caption's text reads as the article's caption, from the page's own evidence:
words that touch (a ligature glyph set in another font, "con fl ict"; an italic letter
before "-axis") are one word; a line-end hyphen before a lower-case letter is a break, dropped ("lev- ofloxacin"),
unless the page prints the hyphenated word elsewhere or the break sits next to a
capital or digit ("COVID-19"); a line that is only a URL or DOI (the publisher's figure
link under the caption) ends the caption. A caption that stops mid-sentence at the bottom
of its column goes on in the next column when a line of its size starts there level with
its first line, both smaller than the body text (Springer sets captions of full-width
figures in two columns). A figure legend that stops mid-sentence where the page prints
"Figure 5. Continued on next page" goes on with the text under "Figure 5. Continued"
overleaf (eLife); a caption stops at a row of level cells (a table's header row).
"""

from __future__ import annotations

import re
from dataclasses import replace

from medfig.geometry import horizontal_overlap, union
from medfig.pdf.labels import Label, parse_label
from medfig.pdf.types import Line, PageData, PdfCaption

_MAX_CAPTION_LINES = 80
_TOUCH_RATIO = 0.1  # a gap under a tenth of the font size is no space: the words were split by a font change
# the publisher's figure link under a caption: a URL, or a DOI ("doi: 10.x", "DOI 10.x" without the colon)
_LINK_LINE = re.compile(r"^(https?://\S+|doi:\s*\S+|doi\s+10\.\d+/\S+|www\.\S+)$", re.IGNORECASE)
_LINE_END_HYPHEN = re.compile(r"(\w+)-$")
_PANEL_LETTER = re.compile(r"\(?[A-Za-z]\)?")
_MARKER_SCORE = 0.0  # a "continued" line taken as a start only to end or join a legend; never a caption itself


def line_text(line: Line) -> str:
    """The line's words joined with a space only where the page shows one."""
    parts: list[str] = []
    for prev, word in zip([None, *line.words[:-1]], line.words):
        touching = (prev is not None and (prev.font != word.font or abs(prev.size - word.size) > 0.1)
                    and word.box[0] - prev.box[2] < _TOUCH_RATIO * max(prev.size, word.size))
        parts.append(word.text if prev is None or touching else " " + word.text)
    return "".join(parts)


def join_lines(texts: list[str], page_words: set[str]) -> str:
    """Caption lines as one paragraph; line-end hyphens resolved with the page's own words."""
    out = ""
    for text in texts:
        text = text.strip()
        head = _LINE_END_HYPHEN.search(out)
        nxt = text.split(" ", 1)[0]
        if head and nxt[:1].isalnum():
            before = head.group(1)
            hyphenated = f"{before}-{nxt}".lower().strip(".,;:)")
            # a syllable break goes on in lower case; "COVID-" "19", "anti-" "HCV" are compounds
            keep = (not nxt[:1].islower() or hyphenated in page_words or before[-1:].isupper()
                    or before[-1:].isdigit())
            out = (out if keep else out[:-1]) + text
        else:
            out = f"{out} {text}" if out else text
    return " ".join(out.split())


def _label_font_differs(line: Line, label: Label) -> bool:
    """True when the label's words use another font than the words after it (bold label).

    A panel letter right after the label is set in the label's font ("Fig. 1 a ISSR profile ...
    b RAPD profile", Springer): it is the first panel's label, not the caption's text, and is
    not compared."""
    n_label_chars = len(label.printed.replace(" ", ""))
    seen, label_fonts, rest_fonts = 0, set(), set()
    for w in line.words:
        if seen < n_label_chars:
            label_fonts.add(w.font)
            seen += len(w.text)
        elif not rest_fonts and _PANEL_LETTER.fullmatch(w.text) and w.font in label_fonts and w is not line.words[-1]:
            continue
        else:
            rest_fonts.add(w.font)
    if any(w.bold for w in line.words[:1]) and not all(w.bold for w in line.words[1:] if seen >= n_label_chars):
        return True
    return bool(rest_fonts) and not (label_fonts & rest_fonts)


def _line_above(page: PageData, line: Line) -> Line | None:
    best, best_gap = None, None
    for other in page.lines:
        if other is line or other.box[3] > line.box[1] + 1:
            continue
        if horizontal_overlap(other.box, line.box) < 0.3 * min(other.box[2] - other.box[0], line.box[2] - line.box[0]):
            continue
        gap = line.box[1] - other.box[3]
        if best_gap is None or gap < best_gap:
            best, best_gap = other, gap
    return best


def score_start(page: PageData, line: Line, label: Label) -> float | None:
    """How caption-like a label-led line is; None when it is an in-text mention."""
    score = 0.0
    bold = _label_font_differs(line, label)
    alone = not label.rest
    smaller = line.size < page.body_size - 0.4
    if label.delimiter:
        score += 2
    if bold:
        score += 2
    if alone:
        score += 1
    if smaller:
        score += 1
    if label.printed[:1].isupper() and label.printed.split()[0].isupper() and len(label.printed.split()[0]) > 2:
        score += 1  # FIGURE 1
    above = _line_above(page, line)
    leading = 0.6 * line.size
    if above is None or line.box[1] - above.box[3] > leading or abs(above.size - line.size) > 0.4:
        score += 1  # starts a block
    elif not bold and not smaller and not above.text.rstrip().endswith((".", ":", ")")):
        return None  # mid-sentence in a body paragraph
    if not (label.delimiter or bold or alone or smaller):
        return None  # "Figure 3 shows ..." in running text
    if label.rest[:1].islower() and not bold and not label.delimiter:
        return None
    return score


def _next_line(page: PageData, current: tuple[float, float, float, float], size: float, used: set[int],
               starts: set[int]) -> Line | None:
    best = None
    for other in page.lines:
        if other.index in used or other.index in starts:
            continue
        top_gap = other.box[1] - current[3]
        if top_gap < -0.5 * size or top_gap > max(0.9 * size + 1.5, 1.15 * page.line_gap):
            continue
        if abs(other.size - size) > 1.1:
            continue
        width = min(other.box[2] - other.box[0], current[2] - current[0])
        if horizontal_overlap(other.box, current) < 0.5 * width:
            continue
        if other.box[0] < current[0] - 3 * size:
            continue  # starts left of the caption block: another column or paragraph
        if other.box[0] > current[0] + 2 * size and \
                abs((other.box[0] + other.box[2]) - (current[0] + current[2])) > 3 * size:
            continue  # indented and not centred under the caption: a table header row, not caption text
        if best is None or other.box[1] < best.box[1]:
            best = other
    if best is not None and _graphic_between(page, current, best.box):
        return None  # a rule or image separates them: a table caption ends at the table's top rule
    if best is not None and _row_of_cells(page, best, current):
        return None  # "Unigene | Gene symbol | Fold change": the table's header row, not caption text
    return best


def _row_of_cells(page: PageData, line: Line, block: tuple[float, float, float, float]) -> bool:
    """True when other text sits level with ``line`` inside the caption block's width: the line is one
    cell of a row (a table's header under its caption), where a caption's line is alone on its row."""
    tol = 0.35 * line.size
    for other in page.lines:
        if other is line or abs(other.box[1] - line.box[1]) > tol or abs(other.box[3] - line.box[3]) > tol:
            continue
        if other.box[0] < block[2] and other.box[2] > block[0] and sum(c.isalpha() for c in other.text) >= 2:
            return True
    return False


def _graphic_between(page: PageData, upper: tuple[float, float, float, float], lower: tuple[float, float, float, float]) -> bool:
    y0, y1 = upper[3] - 0.5, lower[1] + 0.5
    for g in page.graphics:
        if g.box[1] >= y0 and g.box[3] <= y1 and horizontal_overlap(g.box, upper) > 0 and not _underline(g, upper):
            return True
    return False


def _underline(g, upper: tuple[float, float, float, float]) -> bool:
    """A hairline under part of the text above it, inside its width: a link's underline (a URL in the
    caption), not a rule that ends the caption (a table's top rule spans the table)."""
    return (g.thin and g.box[1] - upper[3] <= 2.0 and g.box[0] >= upper[0] - 0.5 and g.box[2] <= upper[2] + 0.5
            and g.box[2] - g.box[0] < 0.8 * (upper[2] - upper[0]))


def _column_continuation(page: PageData, first: Line, box, size: float, last: Line, used: set[int],
                         starts: set[int]) -> Line | None:
    """The first line of a caption's second column, or None.

    A caption under a full-width figure may be set in two columns (Springer): its text stops
    mid-sentence at the bottom of the first column and goes on at the top of the next, level
    with the caption's first line, in the caption's font size, just across the gutter."""
    if box[2] - box[0] > 0.6 * page.width or line_text(last).rstrip().endswith((".", "!", "?")):
        return None
    if size > page.body_size - 0.4:
        return None  # set like body text: the line across the gutter could be body text, not caption
    for other in page.lines:
        if other.index in used or other.index in starts or abs(other.size - size) > 0.6:
            continue
        if abs(other.box[1] - first.box[1]) <= 0.5 * size and 0 < other.box[0] - box[2] <= 3 * size:
            return other
    return None


def find_captions(page: PageData) -> list[PdfCaption]:
    """Every caption paragraph on the page, each with its full multi-line text and box."""
    starts: list[tuple[Line, Label, float]] = []
    for line in page.lines:
        label = parse_label(line.text)
        if label is None:
            continue
        score = score_start(page, line, label)
        if (score is None or score < 2) and _CONTINUED.match(label.rest):
            score = _MARKER_SCORE  # "Figure 6 continued (on next page)": not a caption, but where one stops or goes on
        if score is not None and (score >= 2 or score == _MARKER_SCORE):
            starts.append((line, label, score))
    start_ids = {line.index for line, _, _ in starts}
    page_words = {w.text.lower().strip(".,;:()") for w in (w for ln in page.lines for w in ln.words) if "-" in w.text}
    captions: list[PdfCaption] = []
    for line, label, score in starts:
        used = {line.index}
        lines = [line]
        box = line.box
        # the body size of the caption: a bold label line may be one size off, use the continuation
        size = line.size
        for _ in range(_MAX_CAPTION_LINES):
            nxt = _next_line(page, box, size, used, start_ids)
            if nxt is None or _LINK_LINE.match(nxt.text.strip()):
                break
            used.add(nxt.index)
            lines.append(nxt)
            box = union([box, nxt.box])
        cont = _column_continuation(page, line, box, size, lines[-1], used, start_ids)
        column = cont.box if cont is not None else None
        while cont is not None and len(lines) < _MAX_CAPTION_LINES:
            used.add(cont.index)
            lines.append(cont)
            box = union([box, cont.box])
            column = union([column, cont.box])
            cont = _next_line(page, column, size, used, start_ids)
            if cont is not None and _LINK_LINE.match(cont.text.strip()):
                break
        text = join_lines([line_text(ln) for ln in lines], page_words)
        captions.append(PdfCaption(name=label.name, fig_type=label.fig_type, kind=label.kind, number=label.number,
                                   label=label.printed, page=page.index, box_pt=box, text=text, score=score))
    return captions


_CONTINUED = re.compile(r"^\W*(continued|cont(?:'d|\.)?)(?=\W|$)\W*", re.IGNORECASE)
# "Figure 5. Continued on next page": the publisher says the legend goes on under "Figure 5. Continued" overleaf
_GOES_ON = re.compile(r"^\W*continued\s+(on\s+)?(the\s+)?(next|following)\s+page\W*$", re.IGNORECASE)


def _after_label(caption: PdfCaption) -> str:
    return caption.text[len(caption.label):]


def _is_continuation(caption: PdfCaption) -> bool:
    """"Fig. 1. (continued)", "Table 2 (cont.)", "Figure 5. Continued ...": the rest of a figure or table
    started on an earlier page, or the marker that says it goes on ("Figure 5. Continued on next page")."""
    return bool(_CONTINUED.match(_after_label(caption)))


def _legend_overleaf(caption: PdfCaption, captions: list[PdfCaption]) -> str:
    """The rest of a legend the page says goes on overleaf: when the caption's page also prints "<label>
    Continued on next page", the text of "<label> Continued ..." on the next page (and so on while that page
    says the same), when the page's part stops mid-sentence. eLife sets long legends this way; without
    it the caption stops mid-sentence. Figures only: what goes on overleaf under a table's label is the
    table (its header row), not its caption."""
    parts, page = [], caption.page
    while caption.fig_type == "Figure" and not (parts[-1] if parts else caption.text).rstrip().endswith((".", "!", "?")):
        # a legend that ends its sentence is whole: what goes on is the rest of the figure's block
        # (eLife lists the figure supplements overleaf), not of the legend
        same = [c for c in captions if c.name == caption.name]
        if not any(c.page == page and _GOES_ON.match(_after_label(c)) for c in same):
            break
        overleaf = [c for c in same if c.page == page + 1 and _is_continuation(c) and not _GOES_ON.match(_after_label(c))]
        rest = _CONTINUED.sub("", _after_label(overleaf[0]), count=1).strip() if overleaf else ""
        if not rest:
            break
        parts.append(rest)
        page += 1
    return join_lines([caption.text, *parts], set()) if parts else caption.text


def dedupe_captions(captions: list[PdfCaption]) -> list[PdfCaption]:
    """One caption per name per document: the most caption-like start wins (ties: first).

    A repeated label is either a mention that passed the layout tests or a figure or table
    continued on the next page ("Table 2 (continued)"), which keeps its first caption; a legend
    the page says goes on overleaf takes the continued text (:func:`_legend_overleaf`).
    """
    best: dict[str, PdfCaption] = {}
    for cap in captions:
        kept = best.get(cap.name)
        # a "(continued)" caption never displaces the caption that starts the figure or table
        if kept is None or (_is_continuation(kept), cap.score) > (_is_continuation(cap), kept.score):
            best[cap.name] = cap
    keep = {id(c) for c in best.values()}
    out = []
    for c in captions:
        if id(c) in keep and not (c.score == _MARKER_SCORE and _is_continuation(c)):
            text = _legend_overleaf(c, captions)
            out.append(c if text == c.text else replace(c, text=text))
    return out
