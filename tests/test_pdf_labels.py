"""Caption-label grammar: wider than pdffigures2's, and mentions are never captions."""

import pytest

from medfig.pdf.labels import parse_label


@pytest.mark.parametrize(
    "text, name, delimiter",
    [
        ("Figure1:Subcellular localization", "Figure 1", ":"),  # Hindawi PDFs draw no space glyphs
        ("FIGURE 1 | Axial CT", "Figure 1", "|"),
        ("Fig. 1A. CT of the chest", "Figure 1", "."),
        ("Fig 1: x", "Figure 1", ":"),
        ("fig. 4. lower case", "Figure 4", "."),
        ("Supplementary Fig. 2. y", "Figure S2", "."),
        ("Figure S1. a", "Figure S1", "."),
        ("Extended Data Fig. 3 | z", "Extended Data Figure 3", "|"),
        ("Figure 3—figure supplement 1. Title", "Figure 3—figure supplement 1", "."),
        ("Table 1: Percent", "Table 1", ":"),
        ("Table I. Patient data", "Table I", "."),
        ("Box 1. Key points", "Box 1", "."),
        ("Scheme 2 Synthesis", "Scheme 2", ""),
        ("Table 3", "Table 3", ""),
    ],
)
def test_caption_labels(text, name, delimiter):
    label = parse_label(text)
    assert label is not None, text
    assert label.name == name
    assert label.delimiter == delimiter


@pytest.mark.parametrize(
    "text",
    [
        "Figs. 2 and 3 show",
        "Figure 2). The lesion",
        "Figure 1.5 times larger",
        "Figure 3—figure supplement 1—Source data 1. T",
        "Figure 4—Source code 1",
        "Figure 2—figure supplement 2). Figure 3 is",
        "The Figure 1 shows",
    ],
)
def test_mentions_are_not_labels(text):
    assert parse_label(text) is None


def test_table_kind_and_type():
    label = parse_label("Supplementary Table 2: x")
    assert label.name == "Table S2" and label.fig_type == "Table" and label.supplementary
