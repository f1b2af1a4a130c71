r"""Panel markers in a figure caption: ``(a)``, ``A:``, ``(A–C)``, ``(left)``, ``Top row:``.

:func:`find_markers` finds them (the kinds recognised are listed in
:mod:`medfig.text.subcaptions`), expands ranges and lists ("A–C" -> a, b, c), groups
adjacent ones ("(a) and (b)") and drops letters that cannot be panels. Sentence and clause
boundaries come from :mod:`medfig.text.caption_clauses`.

Offsets are character offsets into the caption as given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medfig.text.caption_clauses import SCALE, clause_start, only_punct, sentence_spans
from medfig.text.letter_runs import fill_gaps, leading_run, one_case

_DASH = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_L = r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])"  # a one-letter word
_LIST_SEP = rf"\s*(?:[,;&/]|and|or|[{_DASH}]|to)\s*"
# a numbered sub-panel: the panel letter and its sub-number, "Ai", "A-ii", "a1", "B.2"
_SUB_NUMBER = r"(?:i{1,3}|iv|vi{0,3}|ix|x|\d{1,2})"
_SUB_ITEM = rf"(?<![A-Za-z])[A-Za-z][{_DASH}.]?{_SUB_NUMBER}(?![A-Za-z\d])"
_ITEM = rf"(?:{_SUB_ITEM}|{_L})"
# "(a)", "(a, b)", "(A–C)", "(a and c)", "[b]"; with sub-panels "(A-i)", "(a1–a3)", "(b1,b2)"
# "(H × 100)", "(B, ×400)": a letter with its magnification is a marker too
BRACKETED = re.compile(rf"[\(\[]\s*({_ITEM}(?:{_LIST_SEP}{_ITEM})*)(?:\s*[,;]?\s*[×x]\s*\d+)?\s*[\)\]]")
_ITEM_TOKEN = re.compile(
    rf"(?P<sub>(?<![A-Za-z])(?P<letter>[A-Za-z])(?P<sep>[{_DASH}.]?)(?P<number>{_SUB_NUMBER})(?![A-Za-z\d]))"
    rf"|(?P<single>{_L})|(?P<range>[{_DASH}]|\bto\b)"
)
# "(a, blue)", "(b, orange)": a panel letter with a note, inside the description
_BRACKETED_NOTE = re.compile(rf"[\(\[]\s*({_L})\s*,\s*[a-z][^()\[\]\d]{{0,30}}[\)\]]")
# "Panel (Ai) shows ...", "panels (a1–a3)": before a numbered sub-panel the word "panel" is part
# of the marker, so its text follows it
_SUB_PANEL = re.compile(rf"\b[Pp]anels?\s+[\(\[]\s*({_ITEM}(?:{_LIST_SEP}{_ITEM})*)\s*[\)\]]")
_PANEL_BEFORE = re.compile(r"\b[Pp]anels?\s*$")
# "Panel A and B Amplification plot ...", "Panels C-D: ...", "(Panel A) Left ventriculogram":
# letters after the word "panel" at a clause start; the text follows them (kind "half", as "B-F) ...")
_PANEL_WORD = re.compile(rf"(?:[\(\[]\s*)?\b[Pp]anels?\s+({_L}(?:{_LIST_SEP}{_L})*)(?:\s*[\)\]])?(?![\w(\[])")
# a lower-case letter standing alone inside the text ("with a diesel oil and b waste engine
# oil", "images a, signals b, and sequences c"; Springer/BMC inline style)
_INLINE_LETTER = re.compile(r"(?<![\w.\-\u2013(\[/])([a-z])(?![\w\-\u2013)\]/]|\.\w)")
# an inline letter after "a" sits in a list: after "and" / "," / ";" (it opens its words) or
# before "," / "." / ";" (it closes them); "a test of b vitamins" is no panel list
_LIST_BEFORE = re.compile(r"(?:,|;|\band|\bor)\s*$")
_LIST_AFTER = re.compile(r"\s*(?:[,.;)]|$)")
# "a)" at a clause start (not "(a)")
_LETTER_RUN_ONLY = re.compile(rf"\s*{_L}(?:{_LIST_SEP}{_L})*[\s:.,]*")
# "b)", "B–F)", "C and D)", "C, D)"
_HALF_BRACKET = re.compile(rf"(?<![\(\w])({_L}(?:(?:\s?[{_DASH}]\s?|\s*,\s*|\s+and\s+|\s*&\s*){_L})*)\)")
_HALF_B = re.compile(r"(?<![\(\w])[Bb]\)")
# "a, b Schematic", "c–e SEM", "A: ...", "B. ..." at a clause start
_LEADING_LETTERS = re.compile(rf"({_L}(?:{_LIST_SEP}{_L})*)(?:\s*[:.,]\s+|\s+)(?=[A-Z(\d\w])")
_POSITION_WORDS = r"(?:upper|lower|top|bottom|middle|center|centre|left|right|first|second|third|fourth)"
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_POSITION = re.compile(
    rf"[\(\[]\s*((?:{_POSITION_WORDS})(?:[\s-]+(?:{_POSITION_WORDS}))?(?:\s+(?:panel|image|row|column))?)\s*[\)\]]"
    rf"|(?:(?<=^)|(?<=[.;:]\s))((?:{_POSITION_WORDS})(?:[\s-]+(?:{_POSITION_WORDS}))?(?:\s+(?:panel|image|row|column)s?)?)\s*[:,]"
    # after a comma, or a full stop with no space ("in coronal view.Left: manual ..."), only
    # with a colon: "Left image: Original mammogram, Right: Expanded segment"
    rf"|(?:(?<=,\s)|(?<=[a-z)]\.))((?:{_POSITION_WORDS})(?:[\s-]+(?:{_POSITION_WORDS}))?(?:\s+(?:panel|image|row|column)s?)?)\s*:",
    re.IGNORECASE,
)
# "... in a. " or a dotted abbreviation ("... as s.e.m. ", "s.d. ") right before a marker
# "Light-induced b temperature changes": a lower-case letter other than a, then a lower-case word
_MID_SENTENCE_LETTER = re.compile(r" [b-z] [a-z]")  # a word of its own: not "BALB/c mice"
# a figure number right before a bracketed letter: "Fig. 5(b)", "Figure 2 (c)", "Figs. S3(a)"
_OTHER_FIGURE = re.compile(r"\b(?:Fig(?:ure)?s?\.?)\s*S?\d+\s*$", re.IGNORECASE)
_LETTER_SENTENCE_END = re.compile(r"(?:\s|[a-z]\.)[A-Za-z]\.\s+$")


@dataclass(slots=True)
class Marker:
    """A panel marker found in a caption. ``start``/``end``: character offsets."""

    labels: list[str]  # letters lower-cased, or position words ("left", "top-right")
    start: int
    end: int
    kind: str  # bracketed | half | leading | mid (a run's letter inside a sentence) | inline | position
    leading: bool = True


def _sub_panel(m: re.Match, caption: str) -> bool:
    """Is this letter + number a numbered sub-panel ("Ai", "A-i", "a1", "a-ii"), not a roman
    numeral ("iv") or a range between two letters ("a–i": panels a to i)?"""
    letter, sep, number = m["letter"], m["sep"], m["number"]
    if not sep and letter in "ivx" and re.fullmatch(r"[ivx]+", letter + number):
        return False  # "(iv)", "(xi)": a roman numeral
    if not sep or number.isdigit() or len(number) > 1:
        return True  # "Ai", "a1", "A-1", "A-ii": no letter range reads that way
    if letter.isupper():
        return True  # "A-i": a range runs between letters of one case ("A–I", "a–i")
    # "a–i" is a range of nine panels unless the caption numbers a's sub-panels ("a–ii")
    return re.search(rf"(?<![A-Za-z]){letter}[{_DASH}.]?(?:ii|iii|iv)(?![A-Za-z])", caption) is not None


def expand_labels(text: str, caption: str = "") -> list[str]:
    """``"a, b"`` -> [a, b]; ``"A–C"`` -> [a, b, c]; ``"b and c"`` -> [b, c]; lower-case, no repeats.

    Numbered sub-panels name their panel letter: ``"A-i"``, ``"Ai–Aiii"``, ``"a1–a3"``,
    ``"b1,b2"`` -> [a] or [b] (MedICaT labels sub-panels by their letter), never a range
    A..I; a range between sub-panels of two letters (``"a2–c1"``) covers the letters between.
    ``caption`` (the whole caption) tells "a–i" (a range) from "a–i ... a–ii" (sub-panels)."""
    out: list[str] = []
    range_next = False
    pos = 0
    for m in _ITEM_TOKEN.finditer(text):
        between = text[pos : m.start()]
        pos = m.end()
        if m["range"]:
            range_next = True
            continue
        if m["sub"] and not _sub_panel(m, caption or text):
            # not a sub-panel: a letter, a dash and a letter ("a–i"), read as a range
            items = [m["letter"], m["number"]] if m["sep"] else [m["letter"] + m["number"]]
            ranged = [range_next and not re.search(r"[,;&/]|\band\b|\bor\b", between), bool(m["sep"])]
            for item, is_range in zip(items, ranged):
                if re.fullmatch(r"[A-Za-z]", item):
                    _add_label(out, item.lower(), is_range)
            range_next = False
            continue
        low = (m["letter"] or m["single"]).lower()
        _add_label(out, low, range_next and not re.search(r"[,;&/]|\band\b|\bor\b", between))
        range_next = False
    return out


def _add_label(out: list[str], low: str, range_from_last: bool) -> None:
    if range_from_last and out and out[-1] < low and ord(low) - ord(out[-1]) <= 12:
        out.extend(chr(c) for c in range(ord(out[-1]) + 1, ord(low) + 1))
    elif low not in out:
        out.append(low)


def _numbered_like_sub_panels(inner: str) -> bool:
    """Sub-panels are numbered from 1 (or i): "(a1–a3)", "(b1, b2)". Several numbered items
    that do not start there ("C5–C6", "L4–L5": vertebrae) are names, not panels; a lone
    "(a2)" is taken as before."""
    numbers = [m["number"] for m in _ITEM_TOKEN.finditer(inner) if m["sub"] and m["number"].isdigit()]
    return len(numbers) < 2 or "1" in numbers


def marker_letter(caption: str, marker: Marker) -> str:
    """The first letter a marker prints ("A" of "(A)", of "Panel (Aii)" and of "A, B")."""
    text = caption[marker.start : marker.end]
    bracket = re.search(r"[\(\[]\s*([A-Za-z])", text)
    return bracket[1] if bracket else next((c for c in text if c.isalpha()), "")


def find_markers(caption: str, body_start: int = 0) -> list[Marker]:
    markers: list[Marker] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _SUB_PANEL.finditer(caption, body_start):
        labels = expand_labels(m[1], caption)
        if labels and _numbered_like_sub_panels(m[1]) and re.search(_SUB_ITEM, m[1]):
            markers.append(Marker(labels, m.start(), m.end(), "bracketed"))
            taken.append((m.start(), m.end()))
    for m in _PANEL_WORD.finditer(caption, body_start):
        labels = expand_labels(m[1], caption)
        if labels and free(m.start(), m.end()) and only_punct(caption[clause_start(caption, m.start(), body_start) : m.start()]):
            markers.append(Marker(labels, m.start(), m.end(), "half"))
            taken.append((m.start(), m.end()))
    for m in BRACKETED.finditer(caption, body_start):
        if _OTHER_FIGURE.search(caption, body_start, m.start()):
            continue  # "the cleaved Si in Fig. 5(b)": a panel of another figure
        labels = expand_labels(m[1], caption)
        # "(iv)" (a roman numeral) names no panel; "(C5–C6)" (vertebrae) no sub-panels
        if not labels or not free(m.start(), m.end()) or not _numbered_like_sub_panels(m[1]):
            continue
        # "Panel (A) shows ...": the word "panel" before the letter is part of the marker
        panel_word = _PANEL_BEFORE.search(caption, body_start, m.start())
        start, end = (panel_word.start(), m.end()) if panel_word else (m.start(), m.end())
        if panel_word and start > 0 and caption[start - 1] in "([" and caption[end : end + 1] in (")", "]"):
            start, end = start - 1, end + 1  # "CT (panel (A))"
        markers.append(Marker(labels, start, end, "bracketed"))
        taken.append((start, end))
    for m in _BRACKETED_NOTE.finditer(caption, body_start):
        if free(m.start(), m.end()):
            markers.append(Marker([m[1].lower()], m.start(), m.end(), "bracketed"))
            taken.append((m.start(), m.end()))
    after_comma: list[Marker] = []
    for m in _POSITION.finditer(caption, body_start):
        text = (m[1] or m[2] or m[3] or "").lower()
        parts = re.split(r"[\s-]+", text)
        words = [w for w in parts if w not in ("panel", "panels", "image", "images", "row", "rows", "column", "columns")]
        if not words or not free(m.start(), m.end()):
            continue
        kind = next((w.rstrip("s") for w in parts if w.rstrip("s") in ("row", "column")), None)
        words = [_ORDINALS.get(w, w) for w in words]
        label = f"{kind}-{'-'.join(words)}" if kind else "-".join(words)
        (after_comma if m[3] else markers).append(Marker([label], m.start(), m.end(), "position"))
        taken.append((m.start(), m.end()))
    # "..., Right: Expanded segment" continues a list of positions; alone ("(right: 2, left: 2)")
    # it is no panel
    if any(mk.kind == "position" for mk in markers):
        markers += after_comma
    half_run: list[str] = []
    for m in _HALF_BRACKET.finditer(caption, body_start):
        if not free(m.start(), m.end()):
            continue
        opened = caption[body_start : m.start()]
        if opened.count("(") > opened.count(")"):
            continue  # the bracket closes one opened before it: "(arrows; a-b)" is no half bracket
        before = caption[clause_start(caption, m.start(), body_start) : m.start()]
        # after nothing but punctuation, or after a bare letter run that heads the list ("A-H A) ...")
        opens_clause = only_punct(before) or bool(_LETTER_RUN_ONLY.fullmatch(before))
        # "a) The synthase uses ..., whereas b) monoterpene cyclases ...": inside a clause, a
        # half bracket counts only as the next letter of a run that opened a clause
        labels = expand_labels(m[1])
        continues = bool(half_run) and bool(labels) and labels[0] == chr(ord(half_run[-1]) + 1)
        # "Photograph of A) Gliderite stylet and B) Parker stylet": a run may open inside its
        # clause when it starts at a and its b) follows in the same sentence
        opens_run = not half_run and labels[:1] == ["a"] and _HALF_B.search(
            caption, m.end(), next((b for a, b in sentence_spans(caption, body_start) if a <= m.start() < b), len(caption))) is not None
        if labels and (opens_clause or continues or opens_run):
            markers.append(Marker(labels, m.start(), m.end(), "half"))
            taken.append((m.start(), m.end()))
            half_run.append(labels[-1])
    # Leading bare letters: only a run in alphabetical order counts.
    leading: list[Marker] = []
    mid: list[Marker] = []  # lower-case letters inside a sentence (Nature: "Light-induced b temperature")
    for m in _LEADING_LETTERS.finditer(caption, body_start):
        if not free(m.start(), m.end()):
            continue
        if m.start() > body_start and not only_punct(caption[clause_start(caption, m.start(), body_start) : m.start()]):
            # "... obtained at 0.30 V in a. d Chronoamperometric ...": a sentence that ends on a
            # panel letter is not taken for an initial; the run order below still guards it
            # "... acquisition data A–B: A patch ... C: 9 electrodes": a run that starts at a and
            # ends on a colon opens the panel list after a title without a full stop
            opens_list = m[1][:1].lower() == "a" and caption[m.start(1) : m.end()].rstrip().endswith(":")
            if not _LETTER_SENTENCE_END.search(caption, body_start, m.start()) and not opens_list:
                if _MID_SENTENCE_LETTER.fullmatch(caption, m.start() - 1, m.end() + 1):
                    mid.append(Marker([m[1]], m.start(), m.end(), "mid"))
                continue
        if m.start() > 0 and caption[m.start() - 1].isalnum():
            continue
        letters, end = one_case(m)
        leading.append(Marker(expand_labels(letters), m.start(), end, "leading"))
    markers += leading_run(caption, fill_gaps(leading, mid))
    seen = {l for m in markers if m.kind == "leading" for l in m.labels}
    if len(seen) < 2:
        markers = [m for m in markers if m.kind != "leading"]
    # "A-H A) Schematic ..., B) ...": a bare letter run with no words of its own before the next
    # marker heads the list that follows; it says nothing about how the caption marks its panels
    markers = [m for m in markers if m.kind != "leading" or not _heads_next_marker(caption, m, markers)]
    bare = [m for m in markers if m.kind == "leading"]
    bracketed = [m for m in markers if m.kind in ("bracketed", "half")]
    if bare and bracketed and min(l for m in bracketed for l in m.labels) > "b":
        # a stray "[E]" ("DA[E]: Deep Autoencoder") starts no panel run: it does not outvote a, b
        markers = [m for m in markers if m.kind not in ("bracketed", "half")]
        bracketed = []
    if bare and bracketed:
        bare_upper = sum(caption[m.start].isupper() for m in bare) > len(bare) / 2
        br_upper = sum(caption[m.start + 1].isupper() for m in bracketed) > len(bracketed) / 2
        if bare_upper == br_upper:
            # Nature style "a, b Schematic of the process (a) ...": brackets are in-text references
            markers = [m for m in markers if m.kind not in ("bracketed", "half")]
        else:
            # "(a) The retina ... A: optic nerve disc": capitals name structures inside panel a
            markers = [m for m in markers if m.kind != "leading"]
    # markers inside scale-bar statements ("Scale bars, 5 µm (c), 500 nm (d)") are not panel text
    for a, b in sentence_spans(caption, body_start):
        if SCALE.search(caption, a, b) and re.match(r"\s*(?:scale|bars?|original)", caption[a:b], re.IGNORECASE):
            markers = [m for m in markers if not a <= m.start < b]
    markers.sort(key=lambda m: m.start)
    markers = _drop_nested(caption, markers)
    markers = _drop_back_references(caption, markers)
    kept = _plausible(_group(caption, markers))
    if not any(m.kind != "position" for m in kept):
        # no letter marker, or none that names panels ("staining (H&E) of ... a left CPGL, b right")
        positions = [m for m in markers if m.kind == "position"]
        kept = _plausible(_group(caption, sorted(positions + _inline_letters(caption, body_start), key=lambda m: m.start)))
    return kept


def _heads_next_marker(caption: str, marker: Marker, markers: list[Marker]) -> bool:
    after = [m.start for m in markers if m.start >= marker.end]
    return bool(after) and only_punct(caption[marker.end:min(after)])


def _drop_nested(caption: str, markers: list[Marker]) -> list[Marker]:
    """Markers that name parts of a panel, not panels, when the caption letters its panels:
    "(C) (a) NMR spectra, (b) structure" -- bracketed letters in the other case that start
    again at "a" after a panel letter; "(A) Effect of pH. Left panel, PaLhpD; right panel, ..."
    -- position words after the first of two or more panel letters."""
    bracketed = [m for m in markers if m.kind in ("bracketed", "half")]
    upper = [m for m in bracketed if marker_letter(caption, m).isupper()]
    lower = [m for m in bracketed if marker_letter(caption, m).islower()]
    if upper and lower:
        major, minor = (upper, lower) if len(upper) >= len(lower) else (lower, upper)
        nested = len(major) > len(minor) and min(l for m in minor for l in m.labels) == "a" \
            and min(m.start for m in minor) > min(m.start for m in major)
        # "(a) Forehead (F); (b1,b2) Cheeks (C)": capitals that never start at "a" abbreviate
        # the words before them; the panels are the other case's run a, b, c
        with_a = [group for group in (upper, lower) if "a" in {l for m in group for l in m.labels}]
        abbreviations = len(with_a) == 1 and len(with_a[0]) >= 2
        if abbreviations:
            major, minor = with_a[0], (lower if with_a[0] is upper else upper)
            # a letter in the other case that just continues the run is a typo, not a word:
            # "... (D) ... (E) and one 12 mm trocar ... (f)."
            following = chr(ord(max(l for m in major for l in m.labels)) + 1)
            minor = [m for m in minor if m.labels != [following]]
        if len(major) >= 2 and (nested or abbreviations):
            gone = {id(m) for m in minor}
            markers = [m for m in markers if id(m) not in gone]
    letters = [m for m in markers if m.kind != "position"]
    if len({l for m in letters for l in m.labels}) >= 2:
        first = min(m.start for m in letters)
        markers = [m for m in markers if m.kind != "position" or m.start < first]
    return markers


# "the position marked 1 in (a)", "(scale bar in (b): 1 µm)", "same field as (a)": a word that
# points back to a panel already described
_REFERS_BACK = re.compile(r"\b(?:in|of|from|as|than|see|to|vs\.?|versus)\s*$", re.IGNORECASE)


def _drop_back_references(caption: str, markers: list[Marker]) -> list[Marker]:
    """A bracketed letter named before, inside the words a later letter opens, after a word that
    points back ("(b) HRTEM image of the position marked 1 in (a) at higher magnification"),
    refers to that panel: it is neither a marker nor the end of anyone's text. After trailing
    letters ("Postfacetectomy (a) and postlaminectomy (b) CT. The arrowheads in (a) ...") a
    second mention marks its panel's own words and stays."""
    out: list[Marker] = []
    named: set[str] = set()
    for m in markers:
        back = (m.kind == "bracketed" and out and set(m.labels) <= named
                and max(m.labels) < min(out[-1].labels)
                and only_punct(caption[clause_start(caption, out[-1].start, 0) : out[-1].start])
                and _REFERS_BACK.search(caption, out[-1].end, m.start)
                and len(re.findall(r"[A-Za-z]{2,}", caption[out[-1].end : m.start])) >= 2)
        if back:
            continue
        out.append(m)
        named.update(m.labels)
    return out


def _inline_letters(caption: str, body_start: int) -> list[Marker]:
    """Bare lower-case panel letters inside the text, used only when the caption has no
    other letter marker: the letters b, c, ... must each stand alone exactly once and run
    in order; "a" (also the article) is the last standing "a" before "b"."""
    found: dict[str, list[int]] = {}
    for m in _INLINE_LETTER.finditer(caption, body_start):
        found.setdefault(m[1], []).append(m.start())
    run: list[tuple[str, int]] = []
    letter = "b"
    while letter in found and len(found[letter]) == 1 and (not run or found[letter][0] > run[-1][1]):
        pos = found[letter][0]
        if not (_LIST_BEFORE.search(caption, 0, pos) or _LIST_AFTER.match(caption, pos + 1)):
            break
        run.append((letter, pos))
        letter = chr(ord(letter) + 1)
    if not run:
        return []
    articles = [p for p in found.get("a", []) if p < run[0][1]]
    if not articles:
        return []
    run.insert(0, ("a", articles[-1]))
    return [Marker([l], p, p + 1, "inline") for l, p in run]


_GROUP_GLUE = re.compile(rf"[{_DASH}\s,&()\[\]]*(?:(?:and|or|to)[\s()\[\]]*)?[{_DASH}\s()\[\]]*")


def _group(caption: str, markers: list[Marker]) -> list[Marker]:
    """``(a) and (b) Note ...``, ``(a)–(c) Reconstruction``, ``((a), (b))``: one marker."""
    out: list[Marker] = []
    for m in markers:
        prev = out[-1] if out else None
        if prev is not None and prev.kind != "position" and m.kind != "position":
            between = caption[prev.end : m.start]
            glue = _GROUP_GLUE.fullmatch(between)
            if glue is not None:
                labels = list(prev.labels)
                if re.search(rf"[{_DASH}]|\bto\b", between) and labels and m.labels and labels[-1] < m.labels[0]:
                    labels += [chr(c) for c in range(ord(labels[-1]) + 1, ord(m.labels[0]))]
                labels += [l for l in m.labels if l not in labels]
                # a closing bracket right after the group belongs to it: "((a), (b))"
                end = m.end
                if caption[end : end + 1] == ")" and caption[prev.start - 1 : prev.start] == "(":
                    end += 1
                    start = prev.start - 1
                else:
                    start = prev.start
                out[-1] = Marker(labels, start, end, prev.kind)
                continue
        out.append(m)
    return out


def _plausible(markers: list[Marker]) -> list[Marker]:
    """Drop letter markers that cannot be panels: panels run a, b, c... with few gaps."""
    letters = sorted({l for m in markers if m.kind != "position" for l in m.labels})
    if not letters:
        return markers
    allowed: set[str] = set()
    expected = "a"
    for l in letters:
        if ord(l) - ord(expected) <= 1:  # tolerate one missing letter
            allowed.add(l)
            expected = chr(ord(l) + 1)
    out = []
    for m in markers:
        if m.kind == "position":
            out.append(m)
            continue
        kept = [l for l in m.labels if l in allowed]
        if kept:
            m.labels = kept
            out.append(m)
    return out
