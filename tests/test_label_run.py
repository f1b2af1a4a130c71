"""Letters read in a figure whose caption names no panel label its panels only when they run
from a (the figure's own lettering); a lone "g" (a gel lane) or "t" (the T of "TLR 2") does not
(medfig.compound.align.label_alignment; scopemed PMC5061480 F3 and vetworld PMC5301171 Fig. 2
showed such labels)."""

from __future__ import annotations

from medfig.compound.align import label_alignment
from medfig.text.subcaptions import parse_subcaptions
from medfig.vision.panel_labels import PanelLabel

ROW = [(0, 0, 200, 200), (220, 0, 420, 200), (440, 0, 640, 200)]


def _letter(text: str, panel: tuple[int, int, int, int]) -> PanelLabel:
    x0, y0 = panel[0] + 4, panel[1] + 4
    return PanelLabel(text=text, box=(x0, y0, x0 + 14, y0 + 18), score=0.99, free=True, sub="")


def test_a_lone_letter_in_an_unnamed_figure_is_no_label():
    labels, read = label_alignment(ROW, [_letter("g", ROW[1])], parse_subcaptions("Histology of the three lesions."))
    assert labels == [None, None, None] and read == {}


def test_a_run_from_a_in_an_unnamed_figure_labels_its_panels():
    ocr = [_letter(t, p) for t, p in zip("abc", ROW)]
    labels, read = label_alignment(ROW, ocr, parse_subcaptions("Histology of the three lesions."))
    assert labels == ["a", "b", "c"] and sorted(read) == [0, 1, 2]
