"""Line breaking and line drawing with exact text boxes.

Lines are drawn as real text with real space characters (justification uses the
PDF word-spacing operator, not positioned words), so pdfplumber's words and
pdfium's text match the source strings. Boxes follow pdfminer's convention for a
glyph: from ``baseline + descent`` up by the font size, advance-wide. That is what
pdfplumber reports, so ground truth and extraction agree to a fraction of a point.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from medfig.geometry import PointBox

Run = tuple[str, str]  # (font name, text); runs meet at spaces


@dataclass(frozen=True, slots=True)
class Style:
    font: str
    size: float
    leading: float
    bold: str | None = None


@dataclass(slots=True)
class Line:
    words: list[Run]
    size: float
    natural: float  # width with plain spaces
    spaces: int
    indent: float = 0.0
    last: bool = False  # last line of a paragraph: never stretched

    @property
    def text(self) -> str:
        return " ".join(w for _, w in self.words)


def _words(runs: list[Run]) -> list[Run]:
    return [(font, w) for font, text in runs for w in text.split()]


def wrap(runs: list[Run], size: float, width: float, indent: float = 0.0) -> list[Line]:
    """Greedy line breaking (no hyphenation, so extracted words equal source words)."""
    lines: list[Line] = []
    cur: list[Run] = []
    cur_w = 0.0
    for font, word in _words(runs):
        ww = stringWidth(word, font, size)
        sp = stringWidth(" ", font, size) if cur else 0.0
        avail = width - (indent if not lines else 0.0)
        if cur and cur_w + sp + ww > avail:
            lines.append(Line(cur, size, cur_w, len(cur) - 1, indent if not lines else 0.0))
            cur, cur_w, sp = [], 0.0, 0.0
        cur.append((font, word))
        cur_w += sp + ww
    if cur:
        lines.append(Line(cur, size, cur_w, len(cur) - 1, indent if not lines else 0.0))
    if lines:
        lines[-1].last = True
    return lines


def word_space(line: Line, width: float, justify: bool) -> float:
    """Extra space per blank that makes a justified line flush right."""
    if not justify or line.last or line.spaces == 0:
        return 0.0
    extra = (width - line.indent - line.natural) / line.spaces
    return extra if 0 < extra < 3 * line.size else 0.0


def line_box(line: Line, x: float, baseline: float, ws: float) -> PointBox:
    """Box of a drawn line, top-left page coordinates (baseline given top-left too)."""
    below = max(-getFont(f).face.descent / 1000 * line.size for f, _ in line.words)
    x0 = x + line.indent
    return (x0, baseline + below - line.size, x0 + line.natural + ws * line.spaces, baseline + below)


def draw_line(c: Canvas, line: Line, x: float, baseline: float, page_h: float, width: float, justify: bool, colour: tuple[float, float, float] = (0, 0, 0)) -> PointBox:
    ws = word_space(line, width, justify)
    t = c.beginText()
    t.setTextOrigin(x + line.indent, page_h - baseline)
    t.setFillColorRGB(*colour)
    t.setWordSpace(ws)
    prev = None
    for i, (font, word) in enumerate(line.words):
        if font != prev:
            t.setFont(font, line.size)
            prev = font
        t.textOut((" " if i else "") + word)
    c.drawText(t)
    return line_box(line, x, baseline, ws)
