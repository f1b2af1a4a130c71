"""Panels numbered instead of lettered: "(i) before surgery, (ii) after surgery", "(1) Axial CT.
(2) Coronal CT.", "Axial CT (1), coronal CT (2) and sagittal MRI (3)".

Some journals number a figure's panels with roman numerals or digits. A caption that names
no panel letter but runs such numbers from one, in order, names its panels with them. The
numbers are read as letters (1 or i as a, 2 or ii as b, ...) by rewriting each of them, in
place and at the same length, as the letter it stands for: the letter marker grammar of
:mod:`medfig.text.subcaptions` (leading and trailing markers, groups, ranges, shared text)
then reads the caption, and every span it gives is an offset into the caption as written.

The numbers name panels for subcaptions only: they never decide where a figure is cut (a
schematic's numbered steps "(1) cells are seeded, (2) ..." are not panels).
"""

from __future__ import annotations

import re


_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")
_DASH = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_NUMERALS = sorted(_ROMAN, key=len, reverse=True)
_NUMBER = "(?:1[0-2]|[1-9]|" + "|".join(_NUMERALS + [n.upper() for n in _NUMERALS]) + ")"
_SEP = rf"\s*(?:,|and|or|&|[{_DASH}]|to)\s*"
# "(ii)", "(1, 2)", "(2–4)", "[iii]"; "ii) ..." and "2) ..." at a clause start (a half bracket)
_GROUP = re.compile(
    rf"[\(\[]\s*({_NUMBER}(?:{_SEP}{_NUMBER})*)\s*[\)\]]"
    rf"|(?:(?<=^)|(?<=[.;:,]\s))({_NUMBER})\)(?=\s)"
)
_TOKEN = re.compile(rf"(?<![A-Za-z\d]){_NUMBER}(?![A-Za-z\d])")


def _value(token: str) -> int:
    return int(token) if token.isdigit() else _ROMAN.index(token.lower()) + 1


def numbers_as_letters(caption: str) -> tuple[str, dict[str, str]] | None:
    """The caption with each panel number rewritten as its letter, in place ("(ii)" -> "(b )"),
    and each letter's number as written in lower case ({"b": "ii"}); None when the caption
    runs no two numbers from 1 (or i) in order, or mixes roman numerals and digits."""
    rewritten = list(caption)
    values: list[int] = []
    kinds: set[bool] = set()
    for group in _GROUP.finditer(caption):
        tokens = list(_TOKEN.finditer(group[0]))
        for n, token in enumerate(tokens):
            kinds.add(token[0].isdigit())
            value = _value(token[0])
            between = group[0][tokens[n - 1].end() : token.start()] if n else ""
            if values and re.search(rf"[{_DASH}]|\bto\b", between) and values[-1] < value:
                values.extend(range(values[-1] + 1, value))  # "(1-3)": 2 is named too
            values.append(value)
            a, b = group.start() + token.start(), group.start() + token.end()
            rewritten[a:b] = [chr(ord("a") + value - 1)] + [" "] * (b - a - 1)
    firsts = list(dict.fromkeys(values))
    if len(kinds) != 1 or len(firsts) < 2 or firsts != list(range(1, len(firsts) + 1)):
        return None
    roman = not kinds.pop()
    names = {chr(ord("a") + v - 1): (_ROMAN[v - 1] if roman else str(v)) for v in firsts}
    return "".join(rewritten), names
