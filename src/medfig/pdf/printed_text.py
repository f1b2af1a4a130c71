"""What the reader of a PDF page sees, from what the file holds.

Text the page does not print is left out, and text printed twice is read once:

- white text counts only over something drawn (old BMC PDFs repeat each figure's title in white
  over its "Figure 1" heading; Springer hides "Vol.:(0123456789)"): :func:`printed_chars`;
- the same glyph drawn again on half of itself, a fraction of an em off (a second content stream,
  a fake bold): :func:`distinct_chars`;
- the same run of text drawn again less than half an em off (MDPI sets its text twice, a third of
  an em apart, in two metric-compatible fonts): :func:`distinct_runs`;
- the same word on half of itself: :func:`distinct_words`; the same line over itself, shifted by
  less than its height: :func:`distinct_lines`.

No page prints two copies of its text on top of each other; a repeat in the text itself stands
beside the first. Boxes: PDF points, origin top-left.
"""

from __future__ import annotations

from medfig.geometry import area, centre, horizontal_overlap, intersection, vertical_overlap
from medfig.pdf.types import Graphic, Line, Word


# words of a printed line sit side by side; the same word covering half of another is drawn twice
_TWIN_OVERLAP = 0.5
# a second drawing sits a fraction of a point off; letters of slanted text step a quarter em and more
_TWIN_SHIFT_EM = 0.15


def distinct_words(words: list[Word]) -> list[Word]:
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


def distinct_lines(lines: list[Line], words: list[Word]) -> tuple[list[Line], list[Word]]:
    """A line printed over a copy of itself (the same letters), shifted by less than its own
    height (MDPI's second layer, several points off on some pages), is read once: no page prints
    two lines on top of each other."""
    kept: list[Line] = []
    dropped: set[int] = set()
    for line in lines:
        if len(line.words) >= 3 and any(
                vertical_overlap(line.box, k.box) > 0 and horizontal_overlap(line.box, k.box) > 0.5 * (line.box[2] - line.box[0])
                and _letters(line) == _letters(k) for k in kept):
            dropped.update(id(w) for w in line.words)
            continue
        kept.append(line)
    if not dropped:
        return lines, words
    return kept, [w for w in words if id(w) not in dropped]


def _letters(line: Line) -> str:
    return "".join(w.text for w in line.words)  # word breaks may differ between the two drawings


def distinct_chars(chars: list) -> list:
    """Each glyph once where the same glyph is drawn again on half of itself, a fraction of an em
    off (a second copy of the text in another content stream or a metric-compatible font, a fake
    bold); interleaved, the two copies read "FFiigguurree", "arrangementofof"."""
    seen: dict[tuple[str, int, int], list] = {}
    out = []
    for ch in chars:
        key = (ch.text, int(ch.x0 // 8), int(ch.top // 8))
        near = (o for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for o in seen.get((ch.text, key[1] + dx, key[2] + dy), ()))
        if ch.upright and any(_covers((o.x0, o.top, o.x1, o.bottom), (ch.x0, ch.top, ch.x1, ch.bottom))
                              and abs(o.x0 - ch.x0) <= _TWIN_SHIFT_EM * ch.size and abs(o.top - ch.top) <= _TWIN_SHIFT_EM * ch.size
                              for o in near):
            continue
        seen.setdefault(key, []).append(ch)
        out.append(ch)
    return out


_MIN_RUN = 4  # letters: shorter strings repeat by chance
_RUN_SHIFT_EM = 0.5  # a copy this close overprints the first; the text's own repeats stand apart


def distinct_runs(chars: list) -> list:
    """Each run of text once where the same string is drawn again less than half an em off,
    upright, as a whole (MDPI sets its text a second time a third of an em away in a
    metric-compatible font, too far apart for the glyph test; read twice it gives "Figure1.1.",
    "arrangementofof"). A run is a stretch of characters in drawing order along one baseline."""
    runs: list[list] = []
    for ch in chars:
        last = runs[-1][-1] if runs else None
        if last is not None and ch.upright and last.upright and abs(ch.top - last.top) <= 0.1 * ch.size \
                and 0 <= ch.x0 - last.x1 + 0.1 * ch.size <= 0.6 * ch.size:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    seen: dict[str, list] = {}
    out = []
    for run in runs:
        text = "".join(ch.text for ch in run if not ch.text.isspace())
        if len(text) >= _MIN_RUN and run[0].upright:
            first, em = run[0], run[0].size
            if any(abs(o.x0 - first.x0) <= _RUN_SHIFT_EM * em and abs(o.top - first.top) <= _RUN_SHIFT_EM * em
                   for o in seen.get(text, ())):
                continue
            seen.setdefault(text, []).append(first)
        out.extend(run)
    return out


def _covers(a, b) -> bool:
    overlap, smaller = intersection(a, b), min(area(a), area(b))
    return overlap > 0 and smaller > 0 and overlap >= _TWIN_OVERLAP * smaller


def printed_chars(chars: list, graphics: list[Graphic]) -> list:
    """The characters a reader sees: white text shows only over something drawn (a dark photo, a
    coloured banner); white text on the white page is a hidden layer (old BMC PDFs repeat each
    figure's title in white over its "Figure 1" heading, which then reads as interleaved letters)."""
    if not any(ch.white for ch in chars):
        return chars
    backdrops = [g.box for g in graphics if not g.thin]

    def over_drawing(ch) -> bool:
        cx, cy = centre((ch.x0, ch.top, ch.x1, ch.bottom))
        return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in backdrops)

    return [ch for ch in chars if not ch.white or over_drawing(ch)]
