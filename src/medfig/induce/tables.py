"""Locate an XML table on its page: DeepFigures' bag-of-words interval search.

The words of the JATS ``<table>`` (header and cells; not the caption, not the footnotes)
are compared with runs of consecutive text lines on the page of the table's caption: the
run whose words overlap the table's best wins. Overlap is a multiset intersection,
scored as Dice = 2 |overlap| / (|run words| + |table words|), so the run neither stops
short nor swallows body text. Lines are taken page-wide, in the left half or in the
right half (two-column pages: a column table's rows share their height with body text of
the other column), or within the caption's column (layouts whose columns are not page halves). The box is the union of the run's lines, extended to the horizontal
rules that close it (within 8 pt above/below). Boxes: PDF points, origin top-left.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lxml import etree

from medfig.geometry import union
from medfig.induce.bands import page_objects, text_lines
from medfig.induce.pagetext import PageText

MIN_DICE = 0.5
RULE_REACH_PT = 8.0
_TOKEN = re.compile(r"[0-9a-z]+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _local(tag) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def table_tokens_from_jats(xml: bytes) -> dict[str, list[str]]:
    """``{table-wrap id: words of its <table> elements}`` (tables given only as images: no words)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
    root = etree.fromstring(xml, parser)
    out: dict[str, list[str]] = {}
    if root is None:
        return out
    for wrap in root.iter():
        if _local(wrap.tag) != "table-wrap":
            continue
        words: list[str] = []
        for el in wrap.iter():
            if _local(el.tag) == "table":
                words += tokens(" ".join(el.itertext()))
        out[wrap.get("id") or ""] = words
    return out


@dataclass(slots=True)
class TableMatch:
    """The best run of lines: ``box`` (PDF points, origin top-left), ``score`` (Dice, 0-1)."""

    box: list[float]
    score: float


def _best_run(lines: list[dict], table: Counter, n_table: int) -> tuple[float, int, int]:
    best = (0.0, -1, -1)
    line_tokens = [tokens(" ".join(w["text"] for w in line["words"])) for line in lines]
    for i in range(len(lines)):
        remaining = Counter(table)
        overlap = n_run = 0
        for j in range(i, len(lines)):
            for t in line_tokens[j]:
                if remaining[t] > 0:
                    remaining[t] -= 1
                    overlap += 1
            n_run += len(line_tokens[j])
            if overlap == 0:
                break  # a run must start on a line that shares a word with the table
            dice = 2 * overlap / (n_run + n_table)
            if dice > best[0]:
                best = (dice, i, j)
    return best


def locate_table(page, pt: PageText, table_words: list[str], caption_box=None) -> TableMatch | None:
    """The run of lines on ``page`` (pdfplumber) best matching ``table_words``; None when
    the table has no words or no run reaches MIN_DICE. ``caption_box`` (PDF points) adds
    the caption's own column as a candidate span (layouts whose columns are not page halves)."""
    if not table_words:
        return None
    table = Counter(table_words)
    lines = text_lines(pt.words)
    mid = page.width / 2
    spans = {"page": lambda b: True, "left": lambda b: b[2] <= mid + 2, "right": lambda b: b[0] >= mid - 2}
    if caption_box is not None and caption_box[2] - caption_box[0] > 0.25 * page.width:
        spans["caption"] = lambda b: b[0] >= caption_box[0] - 12 and b[2] <= caption_box[2] + 12
    best: tuple[float, list[dict]] = (0.0, [])
    for keep in spans.values():
        ls = sorted((line for line in lines if keep(line["box"])), key=lambda line: (line["box"][1], line["box"][0]))
        score, i, j = _best_run(ls, table, len(table_words))
        if score > best[0] + 1e-9:
            best = (score, ls[i:j + 1])
    score, run = best
    if score < MIN_DICE or not run:
        return None
    box = union(line["box"] for line in run)
    width = box[2] - box[0]
    for o in page_objects(page):
        if o[3] - o[1] >= 2 or min(o[2], box[2]) - max(o[0], box[0]) < 0.5 * width:
            continue  # not a horizontal rule under/over this table
        if box[1] - RULE_REACH_PT <= o[1] <= box[3] + RULE_REACH_PT:
            box = union([box, o])
    return TableMatch([round(v, 2) for v in box], round(score, 3))
