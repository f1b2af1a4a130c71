"""The caption-label grammar: which line starts are figure/table captions.

Wider than pdffigures2's ``(Figure|Fig|Table)\\s*\\d+`` rule. Accepted, case-insensitive
for the kind word: ``Fig`` ``Fig.`` ``Figs.`` ``Figure`` ``FIGURE`` ``fig.``, ``Table``,
``Box``, ``Scheme``, ``Chart``, ``Plate``; numbers ``3``, ``3A`` (panel suffix dropped from
the name), ``S1``, roman ``IV``; prefixes ``Supplementary``/``Supplemental``/``Suppl.``/
``Extended Data``/``Appendix 1—``; eLife's ``Figure 2—figure supplement 1``. PDFs that
draw no space glyphs give ``Figure1:``; the grammar allows it. What follows the number
decides caption or mention (:func:`parse_label`): a delimiter (``.`` ``:`` ``|`` dash),
nothing (the label alone on its line) or a capitalised word right after a bold label.
The kind word may be Portuguese, Spanish, French or German (``Figura``, ``Tabela``,
``Tabla``, ``Tableau``, ``Abbildung``/``Abb.``): SciELO and European journals print them.
An article with a single figure may print no number at all (``FIGURE.`` in MMWR,
``Figure:`` in The Lancet): a full kind word followed by a delimiter and more text is a
label named ``Figure`` (number ""), which matches the XML's unnumbered label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_KIND = r"(?P<kind>figures?|figs?\.?|figuras?|table|tabela|tabla|tableau|abbildung|abb\.|box|scheme|chart|plate)"
_PREFIX = r"(?P<prefix>(?:supplementa(?:ry|l)|suppl\.?|extended\s*data|appendix\s*\d+\s*[—–-])\s*)?"
_NUMBER = r"(?P<num>S?\d{1,3}(?![\d,])|[IVX]{1,5}\b)(?P<panel>[A-Za-z](?![A-Za-z]))?"
_SUPPLEMENT = r"(?P<supp>\s*[—–-]\s*figure\s*supplement\s*(?P<suppnum>\d{1,3}))?"
# "Figure-1", "Table-2": some journals join kind and number with a hyphen
_LABEL = re.compile(r"^\s*" + _PREFIX + _KIND + r"\s*(?:[-‐–]\s*)?" + _NUMBER + _SUPPLEMENT, re.IGNORECASE)
# After the number: "." ":" "|" or a dash, then a space/end (not "1.5" and not "2—Source data 1").
_DELIM = re.compile(r"^\s*(?P<d>[.:|]|[—–-](?!\s*(?:source|video|figure)))(?!\d)")
_NOT_A_FIGURE = re.compile(r"^\s*[—–-]?\s*(source\s*(data|code)|video|audio|animation)", re.IGNORECASE)
_UNNUMBERED = re.compile(r"^\s*(?P<kind>figure|figura|table|tabela|tabla|tableau|abbildung)\s*(?P<d>[.:|]|[—–])\s*(?=\w|$)",
                         re.IGNORECASE)
_MENTION_FOLLOWERS = re.compile(r"^\s*[),;\]]|^\s*(and|or|to|&)\b|^\s*[–-]\s*\d", re.IGNORECASE)

KINDS = {"fig": "figure", "figs": "figure", "figure": "figure", "figures": "figure", "table": "table",
         "figura": "figure", "figuras": "figure", "abbildung": "figure", "abb": "figure",
         "tabela": "table", "tabla": "table", "tableau": "table",
         "box": "box", "scheme": "scheme", "chart": "chart", "plate": "plate"}


@dataclass(slots=True, frozen=True)
class Label:
    """A parsed caption label. ``name`` is canonical: "Figure 3", "Figure S1", "Table 2"."""

    kind: str  # figure | table | box | scheme | chart | plate
    number: str  # "3", "S1", "IV", "2—figure supplement 1"
    name: str
    printed: str  # the label text as printed, delimiter included
    delimiter: str  # "." ":" "|" "—" or "" (label alone or followed by a word)
    rest: str  # the text after the label
    supplementary: bool

    @property
    def fig_type(self) -> str:
        return "Table" if self.kind == "table" else "Figure"


def parse_label(text: str) -> Label | None:
    """Parse a line start as a caption label; None when the line is not label-led.

    Returns a Label also for label-led lines without a delimiter ("Figure 3 shows ...");
    the caller decides with layout evidence (bold label, line alone, gap above), because
    only the text cannot tell "Figure 3 Axial CT ..." from "Figure 3 shows ...".
    Mentions that cannot be captions ("Figure 3), ...", "Figs. 2 and 3", source data /
    videos) return None.
    """
    m = _LABEL.match(text)
    if not m:
        return _unnumbered(text)
    kind_word = m.group("kind").lower().rstrip(".")
    kind = KINDS.get(kind_word)
    if kind is None:
        return None
    rest = text[m.end():]
    if _NOT_A_FIGURE.match(rest) or _MENTION_FOLLOWERS.match(rest):
        return None
    if re.match(r"^[.,]\d", rest):
        return None  # "Figure 1.5 times": a decimal, not a label
    if kind_word in ("figs", "figures", "figuras"):
        return None  # "Figs. 2 and 3" is always a mention
    num = m.group("num")
    supplementary = bool(m.group("prefix")) or num.upper().startswith("S")
    prefix = " ".join((m.group("prefix") or "").split()).lower()
    if prefix.startswith("supp") and not num.upper().startswith("S"):
        num = "S" + num  # "Supplementary Figure 2" is named "Figure S2"
    number = num.upper() if num.upper().startswith("S") or num.isalpha() else num
    if m.group("supp"):
        number = f"{number}—figure supplement {m.group('suppnum')}"
    d = _DELIM.match(rest)
    delimiter = d.group("d") if d else ""
    printed = text[: m.end() + (d.end() if d else 0)].strip()
    rest = rest[d.end():] if d else rest
    name = f"{kind.capitalize()} {number}"
    if prefix.startswith("appendix"):
        name = f"{' '.join(m.group('prefix').split()).rstrip('—–- ')}—{name}"
    elif prefix.startswith("extended"):
        name = f"Extended Data {name}"
    return Label(kind=kind, number=number, name=name, printed=printed, delimiter=delimiter,
                 rest=rest.strip(), supplementary=supplementary)


def _unnumbered(text: str) -> Label | None:
    """"FIGURE. Percentage of ...", "Figure: Trial profile": a label with no number."""
    m = _UNNUMBERED.match(text)
    if not m:
        return None
    kind = KINDS[m.group("kind").lower()]
    return Label(kind=kind, number="", name=kind.capitalize(), printed=text[: m.end()].strip(),
                 delimiter=m.group("d"), rest=text[m.end():].strip(), supplementary=False)
