"""Sentences and clauses of a figure caption, and the sentences that describe no panel
(statistics boilerplate, scale bars): the boundaries the panel-marker finder and the subcaption
splitter both use. Offsets are character offsets into the caption as given.

Sentence ends follow captions' own habits: a full stop glued to the next panel letter ends one
("measurements.(A) C2-7 Cobb angle"); the dots of "Fig.", "e.g.", "vs." and of a single letter
do not.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(
    r"(?<!\b[Ff]ig)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bDr)(?<!\bet al)(?<!\b[A-Za-z])(?<!\bca)(?<!\bapprox)(?<!\b[Nn]o)"
    # "measurements.(A) C2–7 Cobb angle": a full stop glued to the next panel's letter ends too
    r"[.!?](?=\s+[A-Za-z(\[]|\s+\d|\s*$|\([A-Za-z](?:\)|[,\u2013-][A-Za-z]\))\s)"
)
_CLAUSE_PUNCT = ";:"
SCALE = re.compile(r"\b(?:scale\s+bars?|bars?\s*[,=:]|original\s+magnification)", re.IGNORECASE)
# Sentences of statistics boilerplate ("N = 3 per group.", "Statistic: unpaired t-test.",
# "Bars represent mean and error shown as s.e.m.", "Data are means ± SD.", "*P < 0.05.")
# describe the test, not the panel: MedICaT-style subcaptions leave them out.
STATISTICS = re.compile(
    r"(?:[nN]\s*=\s*\d|Statistics?\b|Statistical\s+(?:analysis|significance|test)|(?:Error\s+)?[Bb]ars\s+(?:represent|show|indicate|are)"
    r"|Circles\s+represent|Data\s+(?:are|were|is|represented|shown|presented|expressed)\b|Values\s+(?:are|were)\s+(?:mean|expressed|shown|presented)"
    r"|(?:Results\s+are\s+)?(?:[Rr]epresented|[Ee]xpressed|[Ss]hown)\s+as\s+(?:the\s+)?mean|Mean\s*±|[*∗]+\s*[pP]\s*[<=≤]|[pP]\s*[<≤]\s*0?\.\d"
    # '"*" denotes the statistical difference at P<0.05', "# indicates p < 0.01 vs control"
    r"|[\"“'‘]?[*∗#†‡§]+[\"”'’]?\s+(?:denotes?|indicates?|represents?|marks?|shows?)\b)"
)


def sentence_spans(caption: str, start: int) -> list[tuple[int, int]]:
    spans = []
    pos = start
    for m in _SENTENCE_END.finditer(caption, start):
        spans.append((pos, m.end()))
        pos = m.end()
    if pos < len(caption):
        spans.append((pos, len(caption)))
    return [(a, b) for a, b in spans if caption[a:b].strip()]


def clause_start(caption: str, pos: int, floor: int) -> int:
    """Start of the clause containing ``pos``: after the last ; : or sentence end before it."""
    best = floor
    for i in range(pos - 1, floor - 1, -1):
        ch = caption[i]
        if ch in _CLAUSE_PUNCT or (ch in ".!?" and _SENTENCE_END.match(caption, i)):
            best = i + 1
            break
    return best


def only_punct(text: str) -> bool:
    return not re.search(r"[A-Za-z0-9]", text)
