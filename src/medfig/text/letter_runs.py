"""Runs of bare panel letters ("a Schematic ... b Spectra ...", "A: ... B: ..."): which of the
letters found at clause starts (and, in Nature style, inside a sentence) name panels in order.
Offsets are character offsets into the caption.
"""

from __future__ import annotations

import re
from typing import Protocol, TypeVar


class _Marker(Protocol):  # medfig.text.panel_markers.Marker, which imports this module
    labels: list[str]
    start: int
    end: int


Marker = TypeVar("Marker", bound=_Marker)


def _printed_letter(caption: str, mk: Marker) -> str:
    return next((c for c in caption[mk.start : mk.end] if c.isalpha()), "")


def one_case(m: re.Match) -> tuple[str, int]:
    """A run of leading letters keeps one case: in "c , A spider plot of ..." the capital is
    the article opening c's words, not a panel listed with c. Returns the letters and where
    the marker ends."""
    text = m[1]
    letters = [(i, ch) for i, ch in enumerate(text) if ch.isalpha() and len(ch) == 1
               and (i == 0 or not text[i - 1].isalpha()) and (i + 1 == len(text) or not text[i + 1].isalpha())]
    other = next((i for i, ch in letters if ch.isupper() != text[0].isupper()), None)
    if other is None:
        return text, m.end()
    return text[:other], m.start(1) + other



def leading_run(caption: str, leading: list[Marker]) -> list[Marker]:
    """The bare leading letters that run in order: each starts at the letter after the last
    one (a, b, c), or at the first letter not yet used when a group skips ("A and D: ...
    B, C: ..."). A lower-case or punctuated letter of the group just before may come back to
    describe its own panel ("e, f A 73-year-old woman. e Bilateral GGOs. f 4 days later"); a
    capital followed by a space is the article "A" there."""
    run: list[Marker] = []
    seen: list[str] = []
    group: list[str] = []  # letters of the last multi-letter marker not yet come back to
    for mk in leading:
        first = mk.labels[0]
        expected = chr(ord(max(seen)) + 1) if seen else "a"
        unused = next(chr(c) for c in range(ord("a"), ord("z") + 1) if chr(c) not in seen)
        punctuated = caption[mk.end - 1 : mk.end].strip() != "" or _printed_letter(caption, mk).islower()
        if first in (expected, unused):
            run.append(mk)
            seen.extend(mk.labels)
            group = list(mk.labels) if len(mk.labels) > 1 else []
        elif group and punctuated and mk.labels == group[: len(mk.labels)] and caption[run[-1].end : mk.start].strip():
            # ... after the group's shared words: "A–B: a patch on ..." opens with the article
            run.append(mk)
            group = group[len(mk.labels) :]
    return run


def fill_gaps(leading: list[Marker], mid: list[Marker]) -> list[Marker]:
    """Clause-start letters with the letters inside sentences that fill their run's gaps, in
    caption order: Nature writes "a IR camera image. Light-induced b temperature changes and c
    ionic current changes ... d IR camera image". A letter inside a sentence counts only as the
    next letter of the run, with a clause-start letter after it further on; "a" never (the
    article)."""
    out: list[Marker] = []
    last = ""
    for mk in sorted(leading + mid, key=lambda m: m.start):
        letter = mk.labels[-1]
        if mk in mid:
            if not last or letter != chr(ord(last) + 1) or not any(o.start > mk.start and o.labels[0] > letter for o in leading):
                continue
        out.append(mk)
        last = max(last, letter)
    return out
