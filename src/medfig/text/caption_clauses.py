"""Sentences and clauses of a figure caption, the sentences that describe no panel
(statistics boilerplate, scale bars), and where the last panel's text ends: the boundaries the
panel-marker finder and the subcaption splitter use. Offsets are character offsets into the
caption as given.

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


# a sentence after the last panel's that speaks for the whole figure: abbreviations, notes,
# sources, data and statistics, a summing up, an aside in brackets ("(For interpretation of the
# references to color ...)"), or one that names panels ("Panels C and F are identical to B and E")
_SHARED_SENTENCE = re.compile(
    r"\s*(?:Abbreviations?|Notes?(?=\s*[:.])|Sources?|Key|Credit|Courtesy|Reproduced|Adapted|Modified|Copyright|Permission"
    r"|\u00a9|[(\[](?=[A-Za-z]{2})|Figure\s+appears|Images?\s+(?:are\s+)?(?:courtesy|adapted|reproduced)"
    r"|See\b|(?:All\s+)?[Dd]ata\s+(?:are|were|is|represent|show|pooled|from|points?)\b|Error\s+bars|Scale\s+bars?\b"
    r"|(?:All|Both)\s+(?:panels|images|figures)\b|Panels?\s+\(?[A-Za-z]\b|[A-Z]{2,}[\w-]*\s*[,:=]\s"
    r"|[A-Z]{2,}[\w-]*\s+(?:indicates|denotes|means|stands\s+for)\b"
    # a sentence summing up the figure: "Similar results were obtained ...", "In conclusion, ..."
    r"|Similar(?:ly)?\b|In\s+(?:conclusion|summary)\b|Overall\b|(?:Taken\s+)?[Tt]ogether\b"
    r"|These\s+(?:results|findings|data|images|figures|cases|observations)\b|.*\(data\s+not\s+shown\))")
# "On B, note ...", "In (c), the ...": a sentence opening on one panel speaks of it (bracketed,
# or before punctuation: "In a single experiment" names none); "Mice in (A) were ..." later
# in a sentence only points back
_A_PANEL_LETTER = r"(?:\(([A-Za-z])\)|([A-Za-z])(?=[,.;:]))"
_PANEL_REFERENCE = re.compile(r"\s*(?:On|In|[Ii]n\s+panels?|Panels?)\s+" + _A_PANEL_LETTER)


def last_panel_end(caption: str, sentences: list[tuple[int, int]], spans: dict[str, list[tuple[int, int]]],
                    sentence_end: int, end: int, opens_sentence: bool, labels: list[str]) -> int:
    """Where the last panel's text ends. Its marker opening its own sentence, as each panel's
    does in "(a) Schematic of .... (b) Example field of view. Note both the length ...",
    or the other panels having several sentences each, make the sentences after its own
    describe it too, up to the first one that speaks for the whole figure or names another
    panel (statistics and scale bars are left out later). A last marker inside a list ("(A)
    posterior view (B) left lateral view. It shows a focal uptake ...") ends with its
    sentence: what follows speaks of the figure, and so does a list's last item after a
    semicolon ("(b1,b2) Cheeks (C); (c) Neck (N). Some details are blurred ...")."""
    def several(pieces: list[tuple[int, int]]) -> bool:  # a sentence ends inside one of them
        return any(x < b < y - 1 for _, b in sentences for x, y in pieces)

    if not opens_sentence and not any(several(pieces) for pieces in spans.values()):
        return min(end, sentence_end)
    own = {label.lower() for label in labels}
    for a, b in sentences:
        if not sentence_end <= a < end:
            continue
        named = _PANEL_REFERENCE.match(caption, a, b)
        if _SHARED_SENTENCE.match(caption, a, b) or (named and (named.group(1) or named.group(2)).lower() in set(spans) - own):
            return a
    return end


# "... is shown in a, where ...", "... is seen in b.", "(red arrows on b)": a letter named
# after "in"/"on"/"of"/"see"/"panel", bracketed or before punctuation ("in a single" is none),
# a closing bracket or the caption's end
_NAMED_PANEL = re.compile(r"\b(?:[IiOo]n|of|see|[Pp]anels?)\s+(?:" + _A_PANEL_LETTER + r"|([A-Za-z])(?=\)|\s*$))")


def sentences_naming_one_panel(caption: str, sentences: list[tuple[int, int]], start: int,
                               labels: set[str]) -> dict[str, list[tuple[int, int]]]:
    """Sentences after ``start`` (where the panels' own text ends) that name exactly one panel
    describe it: "B-scan (a), A-scan (b). A typical section of the forearm is shown in a,
    where ... A representative A-scan is seen in b." Sentences speaking for the figure
    (credits, statistics, scale bars) are left alone."""
    out: dict[str, list[tuple[int, int]]] = {}
    for a, b in sentences:
        if a < start:
            continue
        named = {(m[1] or m[2] or m[3]).lower() for m in _NAMED_PANEL.finditer(caption, a, b)}
        text = caption[a:b]
        if (len(named) != 1 or not named <= labels or _SHARED_SENTENCE.match(caption, a, b)
                or STATISTICS.search(text) or SCALE.search(text)):
            continue
        x = a + len(text) - len(text.lstrip())
        out.setdefault(named.pop(), []).append((x, b - (len(text) - len(text.rstrip()))))
    return out
