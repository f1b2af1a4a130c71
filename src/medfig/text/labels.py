"""Small text normalisations for comparing captions and figure labels across sources.

Shared by :mod:`medfig.induce` (locating JATS captions in page text, naming induced
figures) and :mod:`medfig.evaluate` (matching predicted and gold figures), so neither
package imports the other.
"""

from __future__ import annotations

import re

_NOT_ALNUM = re.compile(r"[^0-9a-z]")
_LABEL_WORD = re.compile(
    r"^\s*(?:supplementary|suppl\.?|extended\s+data|appendix)?\s*"
    r"(?:figures?|figs?\.?|tables?|tab\.?|(box|scheme|chart|plate))[\s\-\u2010-\u2015:]*", re.IGNORECASE)


def alnum(text: str) -> str:
    """Lower-case letters and digits only: hyphenation, missing spaces and punctuation vanish."""
    return _NOT_ALNUM.sub("", text.lower())


def figure_number(name: str | None) -> str:
    """The number part of a figure/table name, normalised: "Figure 3" / "Fig. 3." / "Figure-3:" / "3" -> "3".
    Boxes, schemes, charts and plates are numbered apart from figures: "Scheme 1" -> "scheme1"."""
    if not name:
        return ""
    found = _LABEL_WORD.match(str(name))
    kind = (found.group(1) or "").lower() if found else ""
    s = str(name)[found.end():] if found else str(name)
    return kind + re.sub(r"[\s.:|]+$", "", s.strip()).lower().replace(" ", "")
