"""Figure mentions in plain text and sentence splitting around them."""

from __future__ import annotations

import pytest

from medfig.text.mentions import find_mentions, panels_in_text
from medfig.text.sentences import sentence_at, split_sentences

# (text, [(number, panels, supplementary), ...])
CASES: list[tuple[str, list[tuple[str, list[str], bool]]]] = [
    ("Figure 1d", [("1", ["d"], False)]),
    ("Fig. 1D", [("1", ["D"], False)]),
    ("Fig 1(d)", [("1", ["d"], False)]),
    ("see Figure 1(a).", [("1", ["a"], False)]),
    ("FIG. 3 shows", [("3", [], False)]),
    ("Figures 1 and 2", [("1", [], False), ("2", [], False)]),
    ("Figures 1, 2, and 3 show", [("1", [], False), ("2", [], False), ("3", [], False)]),
    ("Figs. 3(b) and 4", [("3", ["b"], False), ("4", [], False)]),
    ("Figures 1(a) and 1(b)", [("1", ["a"], False), ("1", ["b"], False)]),
    ("Fig. 2A–C", [("2", ["A", "B", "C"], False)]),
    ("Fig. 2A-C", [("2", ["A", "B", "C"], False)]),
    ("Fig. 2(a)–(c)", [("2", ["a", "b", "c"], False)]),
    ("Fig. 2(a-c)", [("2", ["a", "b", "c"], False)]),
    ("Fig. 2A to C", [("2", ["A", "B", "C"], False)]),
    ("Fig. 1A,B", [("1", ["A", "B"], False)]),
    ("Fig. 1A, B and D", [("1", ["A", "B", "D"], False)]),
    ("Fig. 1A and B", [("1", ["A", "B"], False)]),
    ("Fig. 1(a) and (b)", [("1", ["a", "b"], False)]),
    ("Figure 1(ii)", [("1", ["ii"], False)]),
    ("Figures 2–4", [("2", [], False), ("3", [], False), ("4", [], False)]),
    ("Fig. 5A, 6B", [("5", ["A"], False), ("6", ["B"], False)]),
    ("(Figure 3, left)", [("3", [], False)]),
    ("Supplementary Figure S2", [("S2", [], True)]),
    ("Figure S2", [("S2", [], True)]),
    ("Fig. S2B", [("S2", ["B"], True)]),
    ("Figures S2–S4", [("S2", [], True), ("S3", [], True), ("S4", [], True)]),
    ("Supplementary Fig. 3", [("3", [], True)]),
    ("Extended Data Fig. 4", [("4", [], True)]),
    ("Figure 2—figure supplement 1", [("2-S1", [], True)]),
    ("Figure 2–figure supplement 3C", [("2-S3", ["C"], True)]),
    ("Figure 2—figure supplement 3B,C", [("2-S3", ["B", "C"], True)]),
    ("Figure 3—figure supplements 4–6", [("3-S4", [], True), ("3-S5", [], True), ("3-S6", [], True)]),
    ("Figure IV", [("IV", [], False)]),
    ("Figure 1A–Z", [("1", [chr(c) for c in range(ord("A"), ord("Z") + 1)], False)]),
    # precision guards
    ("Figure 1 and 2 patients", [("1", [], False)]),
    ("Figure 1A and a control", [("1", ["A"], False)]),
    ("Figure 5E, F = 28.72", [("5", ["E"], False)]),
    ("Figure 1—source data 1", [("1", [], False)]),
    # negatives
    ("Table 2", []),
    ("as figured above", []),
    ("the configuration 2", []),
    ("p. 1", []),
    ("in this figure I show", []),
    ("Figure 1.5", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_find_mentions(text: str, expected: list[tuple[str, list[str], bool]]) -> None:
    mentions = find_mentions(text)
    assert [(m.number, m.panels, m.supplementary) for m in mentions] == expected
    for m in mentions:
        assert text[m.start : m.end] == m.text
        assert m.kind == "figure"


def test_mention_spans() -> None:
    text = "As in Figs. 3(b) and 4, and Figures 2–4."
    assert [m.text for m in find_mentions(text)] == ["Figs. 3(b)", "4", "Figures 2–4", "Figures 2–4", "Figures 2–4"]


@pytest.mark.parametrize(
    ("text", "panels"),
    [("1(a)", ["a"]), (" Figure 1(c)", ["c"]), ("Figure 2(a)", ["a"]), ("2A–C", ["A", "B", "C"]),
     ("(b)", ["b"]), ("B", ["B"]), ("Figure 3", []), ("", []), ("a cell", [])],
)
def test_panels_in_text(text: str, panels: list[str]) -> None:
    assert panels_in_text(text) == panels


def test_sentences_keep_figure_abbreviations() -> None:
    text = "We saw this (cf. Fig. 2). Next, Figs. 3(b) and 4 show it, as Smith et al. reported.  Done."
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [
        "We saw this (cf. Fig. 2).",
        "Next, Figs. 3(b) and 4 show it, as Smith et al. reported.",
        "Done.",
    ]
    assert sentence_at(spans, text.index("4 show")) == (1, 2)
    assert sentence_at(spans, text.index("Done") - 1) == (2, 3)  # whitespace belongs to the next sentence
    assert split_sentences("") == []
