r"""Figure mentions in plain text: ``Fig. 2A–C``, ``Figures 1 and 2``, ``Figure S2``, ...

Grammar (``re`` pieces, matched left to right from each head; ``DASH`` is any of
``- ‐ ‑ ‒ – — −``)::

    mention   := [SUPP] HEAD item (SEP item | RANGE item)*
    SUPP      := "Supplementary" | "Supplemental" | "Suppl." | "Supp." | "Extended Data"
    HEAD      := "Fig" ["ure"] ["s"] ["."]         case-insensitive, no letter just before
    item      := NUMBER (ESUPP supp-items | [panels])
    NUMBER    := ["S"] digits | roman (I, II, IV, ...; only after a capitalised head)
    ESUPP     := DASH "figure supplement" ["s"]   eLife: "Figure 2—figure supplement 1"
    supp-items:= digits [panels] ((SEP | RANGE) digits [panels])*
    panels    := letters | parens
    letters   := L ((PRANGE | PSEP) L)*           directly after the number: 1A, 2A–C, 1A, B and D
    parens    := [" "] "(" T ((PRANGE | PSEP) T)* ")" ((PRANGE | PSEP) "(" ... ")")*
                                                   1(a), 1(a,b), 2(a)–(c), 1(a) and (b), 1(ii)
    L         := one letter a–z / A–Z not followed by a letter
    T         := L | lower-case roman numeral (i, ii, iii, iv, ...)
    PRANGE    := DASH | "to" | "through"           PSEP := "," | "and" | "&" | ", and"
    SEP       := "," | "and" | "or" | "&" | ", and"    RANGE := DASH | "to" | "through"

Decisions worth knowing:
- One :class:`~medfig.records.Mention` per figure-number *item*: ``Figs. 3(b) and 4`` gives
  two, ``Figures 1(a) and 1(b)`` gives two (both number ``"1"``); nothing is merged.
- ``number`` is as written (``"2"``, ``"S2"``, ``"IV"``). eLife figure supplements get
  ``"<figure>-S<supplement>"``: ``Figure 2—figure supplement 1`` is ``"2-S1"``.
- ``supplementary`` is true for a SUPP prefix, an ``S`` number or an eLife supplement.
  ``Supplementary Fig. 3`` keeps number ``"3"``.
- ``panels`` keep the case as written (records.py): ``1D`` → ``["D"]``, ``1(d)`` → ``["d"]``.
  Letter ranges are expanded (``A–C`` → A, B, C; at most a–z, so never more than 26);
  a reversed range keeps its two ends. Roman sub-panels are kept, never expanded.
- Spans: the first item's span starts at the head (``"Figs. 3(b)"``), later items cover
  their own text (``"4"``); every number of a range shares the range's span, so
  ``Figures 2–4`` gives three mentions whose text is ``"Figures 2–4"``.
- Precision guards: after a singular head (``Fig.``, ``Figure``) a listed number must carry
  panels (``Fig. 5A, 6B``) so ``Figure 1 and 2 patients`` names figure 1 only; plural
  heads (``Figs.``, ``Figures``) list bare numbers. A panel continuation after ``,``/``and``
  must be a later letter of the same case, not followed by ``=``/``<``/``>``, so
  ``Figure 1A and a control`` and ``Figure 5E, F = 28.7`` name one panel only.
  Number ranges longer than 20 keep their two ends only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from medfig.records import Mention

_DASH = "-\u2010\u2011\u2012\u2013\u2014\u2212"
DASH = f"[{_DASH}]"
MAX_NUMBER_RANGE = 20

_HEAD = re.compile(
    r"(?<![A-Za-z])"  # "configuration" is not a head
    r"(?:(?P<supp>(?i:supplementa(?:ry|l)|suppl?\.|extended\s+data))\s+)?"
    r"(?P<head>(?i:fig(?:ure)?(?P<plural>s)?)\.?)\s*"
)
_NUMBER = re.compile(r"(?P<s>S)?(?P<n>\d+)(?![\d]|\.\d)|(?P<roman>[IVX]+)(?![A-Za-z0-9])")
_DIGITS = re.compile(r"(?P<n>\d+)(?![\d]|\.\d)")
_ESUPP = re.compile(rf"\s*{DASH}\s*(?i:figure\s+supplements?)\s*")
_LETTER = re.compile(r"[A-Za-z](?![A-Za-z])")
# A listed panel letter must not start a formula: "Figure 5E, F = 28.72" names panel E only.
_NEXT_LETTER = re.compile(r"[A-Za-z](?![A-Za-z])(?!\s*[=<>≤≥±])")
_PAREN_TOKEN = re.compile(r"(?:ix|iv|vi{0,3}|i{1,3}|x|[A-Za-z])(?![A-Za-z])")
_OPEN = re.compile(r" ?\(")
_CLOSE = re.compile(r"\)")
_OPEN_AFTER = re.compile(r"\(")
_PRANGE = re.compile(rf"\s*{DASH}\s*|\s+(?:to|through)\s+")
_PSEP = re.compile(r"\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+|\s*&\s*")
_RANGE = re.compile(rf"\s*{DASH}\s*|\s+(?:to|through)\s+")
_SEP = re.compile(r"\s*,\s*(?:(?:and|or)\s+|&\s*)?|\s+(?:and|or)\s+|\s*&\s*")


@dataclass(slots=True)
class _Item:
    number: str
    start: int
    end: int
    panels: list[str] = field(default_factory=list)
    supplementary: bool = False


# ---------------------------------------------------------------- panels


def _letter_range(first: str, last: str) -> list[str]:
    if first.islower() != last.islower() or last <= first:
        return [first, last]  # not a real range: keep what is written
    return [chr(c) for c in range(ord(first), ord(last) + 1)]


def _letters(text: str, pos: int) -> tuple[list[str], int]:
    """Letter panels right after a number: ``A``, ``A–C``, ``A, B and D``."""
    m = _LETTER.match(text, pos)
    if not m:
        return [], pos
    panels, pos = [m[0]], m.end()
    while True:
        sep = _PRANGE.match(text, pos)
        if sep and (nxt := _NEXT_LETTER.match(text, sep.end())) and _same_case_after(panels[-1], nxt[0]):
            panels += _letter_range(panels[-1], nxt[0])[1:]
            pos = nxt.end()
            continue
        sep = _PSEP.match(text, pos)
        if sep and (nxt := _NEXT_LETTER.match(text, sep.end())) and _same_case_after(panels[-1], nxt[0]):
            panels.append(nxt[0])
            pos = nxt.end()
            continue
        return panels, pos


def _same_case_after(previous: str, letter: str) -> bool:
    return previous.islower() == letter.islower() and letter > previous


def _paren_group(text: str, pos: int, opener: re.Pattern[str]) -> tuple[list[str], int] | None:
    """``(a)``, ``(a,b)``, ``(a–c)``, ``(ii)`` starting at ``pos``; None unless the group closes."""
    m = opener.match(text, pos)
    tok = m and _PAREN_TOKEN.match(text, m.end())
    if not tok:
        return None
    panels, pos = [tok[0]], tok.end()
    while True:
        close = _CLOSE.match(text, pos)
        if close:
            return panels, close.end()
        sep = _PRANGE.match(text, pos)
        is_range = bool(sep)
        sep = sep or _PSEP.match(text, pos)
        tok = sep and _PAREN_TOKEN.match(text, sep.end())
        if not tok:
            return None
        panels += _letter_range(panels[-1], tok[0])[1:] if is_range and len(tok[0]) == 1 == len(panels[-1]) else [tok[0]]
        pos = tok.end()


def _parens(text: str, pos: int) -> tuple[list[str], int]:
    """``(a)``, ``(a)–(c)``, ``(a) and (b)`` after a number."""
    group = _paren_group(text, pos, _OPEN)
    if group is None:
        return [], pos
    panels, pos = group
    while True:
        sep = _PRANGE.match(text, pos)
        is_range = bool(sep)
        sep = sep or _PSEP.match(text, pos)
        nxt = sep and _paren_group(text, sep.end(), _OPEN_AFTER)
        if not nxt:
            return panels, pos
        more, pos = nxt
        if is_range and len(more[0]) == 1 == len(panels[-1]):
            panels += _letter_range(panels[-1], more[0])[1:] + more[1:]
        else:
            panels += more


def _panels(text: str, pos: int) -> tuple[list[str], int]:
    panels, end = _letters(text, pos)
    if not panels:
        panels, end = _parens(text, pos)
    return panels, end


# ---------------------------------------------------------------- items


def _number_range(first: _Item, last: _Item) -> list[_Item] | None:
    """The items strictly between two numbers of a range (``2–4`` → ``3``); None if not a range."""
    a, b = first.number, last.number
    prefix = "S" if a.startswith("S") and b.startswith("S") else ""
    if prefix:
        a, b = a[1:], b[1:]
    if not (a.isdigit() and b.isdigit()) or int(b) <= int(a):
        return None
    if int(b) - int(a) > MAX_NUMBER_RANGE:
        return []
    return [_Item(f"{prefix}{n}", first.start, last.end, [], first.supplementary) for n in range(int(a) + 1, int(b))]


def _supplement_items(text: str, pos: int, figure: str, start: int) -> tuple[list[_Item], int]:
    """eLife ``supplement 1``, ``supplements 4–6``, ``supplement 3B,C`` after ``Figure 2—figure``."""
    items: list[_Item] = []
    m = _DIGITS.match(text, pos)
    while m:
        panels, end = _panels(text, m.end())
        item = _Item(f"{figure}-S{m['n']}", start if not items else m.start(), end, panels, True)
        items.append(item)
        pos = end
        rng = _RANGE.match(text, pos)
        nxt = rng and _DIGITS.match(text, rng.end())
        if nxt:
            first, last_n = int(m["n"]), int(nxt["n"])
            if 0 < last_n - first <= MAX_NUMBER_RANGE:
                panels, end = _panels(text, nxt.end())
                span_start = item.start
                middle = [_Item(f"{figure}-S{n}", span_start, end, [], True) for n in range(first + 1, last_n)]
                item.end = end
                items += middle + [_Item(f"{figure}-S{last_n}", span_start, end, panels, True)]
                pos = end
                m = (sep := _SEP.match(text, pos)) and _DIGITS.match(text, sep.end())
                continue
        sep = _SEP.match(text, pos)
        m = sep and _DIGITS.match(text, sep.end())
    return items, pos


def _item(text: str, m: re.Match[str], start: int, supplementary: bool) -> tuple[list[_Item], int]:
    """One number with its panels, or an eLife figure number with its supplements."""
    number = m[0]
    esupp = _ESUPP.match(text, m.end()) if m["n"] else None
    if esupp:
        supps, end = _supplement_items(text, esupp.end(), number, start)
        if supps:
            return supps, end
    panels, end = _panels(text, m.end()) if m["n"] else ([], m.end())
    return [_Item(number, start, end, panels, supplementary or bool(m["s"]))], end


def _items(text: str, pos: int, *, start: int, plural: bool, roman: bool, supplementary: bool) -> tuple[list[_Item], int]:
    """The figure items of one mention, from ``pos`` (just after the head)."""
    m = _NUMBER.match(text, pos)
    if not m or (m["roman"] and not roman):
        return [], pos
    items, pos = _item(text, m, start, supplementary)
    while True:
        rng = _RANGE.match(text, pos)
        nxt = rng and _NUMBER.match(text, rng.end())
        if nxt and nxt["n"]:
            more, end = _item(text, nxt, nxt.start(), supplementary)
            middle = _number_range(items[-1], more[0])
            if middle is not None:
                # every number of the range is named by the whole range text
                items[-1].end = more[0].end
                more[0].start = items[-1].start
                items += middle + more
                pos = end
                continue
        sep = _SEP.match(text, pos)
        nxt = sep and _NUMBER.match(text, sep.end())
        if nxt and not (nxt["roman"] and not roman):
            more, end = _item(text, nxt, nxt.start(), supplementary)
            if plural or more[0].panels or more[0].number.count("-S"):
                items += more
                pos = end
                continue
        return items, pos


# ---------------------------------------------------------------- public


def find_mentions(text: str) -> list[Mention]:
    """Every figure mention of ``text``, in order; ``text[m.start:m.end] == m.text``."""
    mentions: list[Mention] = []
    consumed = 0
    for head in _HEAD.finditer(text):
        if head.start() < consumed:
            continue
        head_word = head["head"]
        items, end = _items(
            text,
            head.end(),
            start=head.start(),
            plural=bool(head["plural"]),
            roman=head_word[0].isupper(),
            supplementary=bool(head["supp"]),
        )
        if not items:
            continue
        consumed = end
        for item in items:
            mentions.append(
                Mention(
                    text=text[item.start : item.end],
                    start=item.start,
                    end=item.end,
                    number=item.number,
                    panels=item.panels,
                    supplementary=item.supplementary,
                    kind="figure",
                )
            )
    return mentions


def panels_at(text: str, pos: int) -> tuple[list[str], int]:
    """Panels written right at ``pos`` (``(b)``, ``A–C`` after an xref holding only ``1``) and where they end."""
    return _panels(text, pos)


def panels_in_text(text: str) -> list[str]:
    """Panels named by a short text such as an xref's: ``1(a)``, ``Figure 2(a)``, ``2A–C``, ``(b)``, ``B``.

    Panels of every figure named are returned, in order, without repeats; ``[]`` when the
    text names none.
    """
    stripped = text.strip()
    offset = len(text) - len(text.lstrip())
    mentions = find_mentions(text)
    if mentions:
        found = [p for m in mentions for p in m.panels]
    else:
        items, _ = _items(text, offset, start=offset, plural=True, roman=False, supplementary=False)
        found = [p for item in items for p in item.panels]
        if not items and stripped:
            panels, end = _panels(text, offset)
            # a bare panel text must be only panels: "(b)", "A–C", not "a cell"
            found = panels if end == offset + len(stripped) else []
    return list(dict.fromkeys(found))
