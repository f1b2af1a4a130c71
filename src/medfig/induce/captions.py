"""Locate a JATS caption in the PDF: fuzzy substring alignment, then a caption box.

The caption's label + text (alphanumerics only) is aligned to each page's text with
Wagner–Fischer free-end alignment (:func:`medfig.induce.align.semiglobal_align`); its
first 300 characters pick the page, the whole caption then gives the span on that page.
The matched words are trimmed to start at the label and keep the label's font size, and
the box is extended over the rest of its last line and up to 3 left-aligned lines below
(the alignment may stop a few words short). Boxes: PDF points, origin top-left.
"""

from __future__ import annotations

from dataclasses import dataclass

from medfig.geometry import union
from medfig.induce.align import semiglobal_align
from medfig.induce.pagetext import PageText, word_box
from medfig.text.labels import alnum

MIN_SCORE = 80.0  # 100 * (1 - edits / caption length); below: "caption not found in PDF text"
HEAD_CHARS = 300
SHORT_CAPTION_CHARS = 25  # a label-only caption ("Figure 3") also occurs as an in-text mention


@dataclass(slots=True)
class CaptionMatch:
    """Where a caption was found: ``page`` (0-based), ``box`` (PDF points, origin top-left),
    ``score`` (0-100, alignment quality), ``size`` (font size of the caption's words)."""

    page: int
    box: list[float]
    score: float
    size: float


def _align_words(pt: PageText, needle: str) -> tuple[float, list[int]]:
    if not needle or not pt.text:
        return 0.0, []
    al = semiglobal_align(needle, pt.text)
    return al.score, sorted(set(pt.owner[al.start:al.end]))


def _trim_to_label(words: list[dict], widx: list[int], label: str) -> list[int]:
    """Start at the label word; keep words of the label's font size (drops body text the
    alignment may have swallowed at the ends)."""
    first = alnum(label.split()[0])[:3] if label.strip() else ""
    if first:
        for k, i in enumerate(widx):
            if alnum(words[i]["text"]).startswith(first):
                widx = widx[k:]
                break
    if not widx:
        return []
    size = words[widx[0]]["size"]
    return [i for i in widx if abs(words[i]["size"] - size) < 0.5]


def _extend(words: list[dict], cap: list[float], size: float) -> list[float]:
    """Add the rest of the caption's last line, then up to 3 lines directly below that start
    at the caption's left edge with the same font size (captions are left-aligned)."""
    same = [w for w in words if abs(w["size"] - size) < 0.3 and w["x0"] >= cap[0] - 2 and w["x1"] <= cap[2] + 2]
    cap = union([cap, *[word_box(w) for w in same if abs(w["bottom"] - cap[3]) < 1.5]])
    for _ in range(3):
        below = [w for w in same if 0 < w["top"] - cap[3] < 0.4 * size]
        if not below:
            break
        row_bottom = min(w["bottom"] for w in below)
        row = [w for w in below if abs(w["bottom"] - row_bottom) < 1.5]
        if min(w["x0"] for w in row) > cap[0] + 3:
            break
        cap = union([cap, *[word_box(w) for w in row]])
    return list(cap)


def _short_caption(pages: list[PageText], needle: str) -> tuple[int, float, list[int]] | None:
    """A caption that is only its label: of its exact occurrences, the first that stands
    (almost) alone on its line or is set in another size than the page's body text;
    mentions in running text ("... shown in Figure 3 ...") are neither."""
    from medfig.induce.bands import text_lines

    first = None
    for p, pt in enumerate(pages):
        at = pt.text.find(needle)
        if at < 0:
            continue
        lines = text_lines(pt.words)
        line_of = {id(w): line for line in lines for w in line["words"]}
        body = pt.body_size()
        while at >= 0:
            widx = sorted(set(pt.owner[at:at + len(needle)]))
            hit = (p, 100.0, widx)
            first = first or hit
            w = pt.words[widx[0]]
            line = line_of.get(id(w))
            line_chars = len(alnum(" ".join(x["text"] for x in line["words"]))) if line else 0
            if line_chars <= len(needle) + 4 or abs(w["size"] - body) >= 0.5:
                return hit
            at = pt.text.find(needle, at + 1)
    return first


def locate_caption(pages: list[PageText], label: str, caption: str, min_score: float = MIN_SCORE) -> CaptionMatch | None:
    """The caption's page and box, or None when no page holds it at ``min_score``."""
    needle = alnum(f"{label or ''} {caption}")
    if not needle:
        return None
    head = needle[:HEAD_CHARS]
    best: tuple[int, float, list[int]] | None = None
    if len(needle) < SHORT_CAPTION_CHARS:
        best = _short_caption(pages, needle)
    for p, pt in enumerate(pages if best is None else []):
        score, widx = _align_words(pt, head)
        if best is None or score > best[1]:
            best = (p, score, widx)
    if best is None or best[1] < min_score:
        return None
    p, score, widx = best
    if len(needle) > len(head):  # the whole caption on that page gives the full span
        s2, w2 = _align_words(pages[p], needle)
        if s2 >= min_score:
            score, widx = s2, w2
    words = pages[p].words
    widx = _trim_to_label(words, widx, label or "")
    if not widx:
        return None
    box = union(word_box(words[i]) for i in widx)
    size = words[widx[-1]]["size"]
    return CaptionMatch(page=p, box=_extend(words, box, size), score=round(score, 1), size=size)
