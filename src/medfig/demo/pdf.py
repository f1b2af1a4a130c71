"""A small two-column page layout engine on top of the reportlab canvas.

Text flows down column 1, then column 2, then the next page. Figures and tables
are floats: a column-wide float goes where the text is if it fits (text above
and below it), else to the top of the next column; a page-wide float goes to
the top of the next page. Floats keep their order, as LaTeX does. Everything is
positioned in top-left page coordinates and converted only when drawing, so the
boxes this module reports are the boxes on the page.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from medfig.demo.typeset import Line, Style, draw_line, wrap
from medfig.geometry import PointBox, union

BODY = Style("Times-Roman", 9.2, 11.2)
HEADING = Style("Helvetica-Bold", 9.8, 13.0)
CAPTION = Style("Helvetica", 7.6, 9.3, bold="Helvetica-Bold")
SMALL = Style("Helvetica", 7.0, 8.6)
FLOAT_SEP = 12.0  # between a float and the text around it
CAPTION_GAP = 6.0  # between a figure and its caption


@dataclass(frozen=True, slots=True)
class Geometry:
    page_w: float
    page_h: float
    margin_x: float = 54.0
    margin_top: float = 62.0
    margin_bottom: float = 58.0
    col_gap: float = 18.0

    @property
    def text_w(self) -> float:
        return self.page_w - 2 * self.margin_x

    @property
    def col_w(self) -> float:
        return (self.text_w - self.col_gap) / 2

    @property
    def bottom(self) -> float:
        return self.page_h - self.margin_bottom

    def col_x(self, col: int) -> float:
        return self.margin_x + col * (self.col_w + self.col_gap)


DrawFn = Callable[[Canvas, float, float, float], None]  # (canvas, x, y_top, page_h)


@dataclass(slots=True)
class FloatBlock:
    """A figure or table ready to place: fixed size, draws itself at a given spot."""

    obj_id: str
    full: bool  # spans both columns
    slot_w: float  # column or text width; the caption is set to this width
    content_w: float
    content_h: float
    caption: list[Line]
    caption_above: bool
    draw: DrawFn

    @property
    def caption_h(self) -> float:
        return (len(self.caption) - 1) * CAPTION.leading + CAPTION.size

    @property
    def height(self) -> float:
        return self.content_h + CAPTION_GAP + self.caption_h


@dataclass(slots=True)
class Placed:
    obj_id: str
    page: int
    content_box: PointBox  # top-left page coordinates, points
    caption_box: PointBox
    x: float  # content origin (top-left), for mapping panel boxes
    y: float


@dataclass(slots=True)
class Block:
    """A unit of body text: a heading, a paragraph, or a reference list entry."""

    kind: str  # heading | para | ref
    text: str
    triggers: list[str] = field(default_factory=list)  # floats first cited here


FrontFn = Callable[[Canvas, "Geometry"], float]  # draws page-1 front matter, returns y below it
DecorFn = Callable[[Canvas, "Geometry", int], None]  # running header/footer for a page


class Flow:
    def __init__(self, target: Path | BinaryIO, geom: Geometry, floats: dict[str, FloatBlock], front: FrontFn, decor: DecorFn, meta: dict[str, str]):
        # invariant=1: no creation date, fixed document id, so a seed gives the same bytes.
        # A file object as target lets the caller write the finished bytes atomically.
        self.c = Canvas(str(target) if isinstance(target, Path) else target, pagesize=(geom.page_w, geom.page_h), invariant=1, pageCompression=1)
        self.c.setTitle(meta["title"])
        self.c.setAuthor(meta["author"])
        self.c.setSubject(meta["subject"])
        self.c.setCreator("medfig demo")
        self.g, self.floats, self.front, self.decor = geom, floats, front, decor
        self.pending: deque[FloatBlock] = deque()
        self.placed: dict[str, Placed] = {}
        self.page = -1
        self.col = 0
        self.y = 0.0
        self.col_top = 0.0
        self._start_page()

    # --- pages and columns ----------------------------------------------------------

    def _start_page(self) -> None:
        if self.page >= 0:
            self.decor(self.c, self.g, self.page)
            self.c.showPage()
        self.page += 1
        y = self.g.margin_top
        if self.page == 0:
            y = self.front(self.c, self.g)
        while self.pending and self.pending[0].full and y + self.pending[0].height <= self.g.bottom:
            fb = self.pending.popleft()
            self._place(fb, self.g.margin_x, y)
            y += fb.height + FLOAT_SEP + 4
        self.col, self.col_top, self.y = 0, y, y
        self._fill_column_top()

    def _fill_column_top(self) -> None:
        while self.pending and not self.pending[0].full and self.y + self.pending[0].height <= self.g.bottom:
            fb = self.pending.popleft()
            self._place(fb, self.g.col_x(self.col), self.y)
            self.y += fb.height + FLOAT_SEP

    def _next_column(self) -> None:
        if self.col == 0:
            self.col, self.y = 1, self.col_top
            self._fill_column_top()
        else:
            self._start_page()

    def _place_here(self) -> None:
        """After a paragraph: set the next float in the column if it fits below the text."""
        while self.pending and not self.pending[0].full:
            fb = self.pending[0]
            if self.y + FLOAT_SEP + fb.height > self.g.bottom:
                return
            self.pending.popleft()
            self._place(fb, self.g.col_x(self.col), self.y + FLOAT_SEP)
            self.y += 2 * FLOAT_SEP + fb.height

    # --- drawing --------------------------------------------------------------------

    def _place(self, fb: FloatBlock, x: float, y: float) -> None:
        cap_y = y if fb.caption_above else y + fb.content_h + CAPTION_GAP
        content_y = y + fb.caption_h + CAPTION_GAP if fb.caption_above else y
        content_x = x + (fb.slot_w - fb.content_w) / 2
        fb.draw(self.c, content_x, content_y, self.g.page_h)
        boxes = [
            draw_line(self.c, line, x, cap_y + CAPTION.size * 0.8 + i * CAPTION.leading, self.g.page_h, fb.slot_w, justify=True)
            for i, line in enumerate(fb.caption)
        ]
        content = (content_x, content_y, content_x + fb.content_w, content_y + fb.content_h)
        self.placed[fb.obj_id] = Placed(fb.obj_id, self.page, content, union(boxes), content_x, content_y)

    def _lines(self, lines: list[Line], style: Style, justify: bool, keep: int = 1) -> None:
        for i, line in enumerate(lines):
            need = style.leading * (keep if i == 0 else 1)
            if self.y + need > self.g.bottom:
                self._next_column()
            draw_line(self.c, line, self.g.col_x(self.col), self.y + style.size * 0.8, self.g.page_h, self.g.col_w, justify)
            self.y += style.leading

    def run(self, blocks: list[Block]) -> tuple[dict[str, Placed], int]:
        first = True
        for b in blocks:
            if b.kind == "heading":
                self.y += 4
                # keep the heading with two lines of its paragraph
                self._lines(wrap([(HEADING.font, b.text)], HEADING.size, self.g.col_w), HEADING, False, keep=4)
                self.y += 2
                first = True
                continue
            style = SMALL if b.kind == "ref" else BODY
            indent = 0.0 if first or b.kind == "ref" else 10.0
            self._lines(wrap([(style.font, b.text)], style.size, self.g.col_w, indent), style, justify=True)
            self.y += 1.5 if b.kind == "ref" else 0
            first = False
            for fid in b.triggers:
                self.pending.append(self.floats[fid])
            self._place_here()
        while self.pending:  # floats cited near the end go wherever they fit next
            if self.pending[0].full:
                self._start_page()
            else:
                self._place_here()
                if self.pending:
                    self._next_column()
        self.decor(self.c, self.g, self.page)
        self.c.showPage()
        self.c.save()
        return self.placed, self.page + 1
