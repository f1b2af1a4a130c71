"""Figure and table artwork: the figure file, its panels, and how it draws in the PDF.

A raster figure is one image placed once (as publishers do), so the figure file
and the page hold the same pixels; panel letters are either burned into those
pixels or set as PDF text on top, which the file then lacks (both happen in the
wild). A vector figure is drawn as PDF paths and text, and its figure file is a
rasterisation of the same primitives.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

import medfig.demo.images as images
import medfig.demo.vector as vector
from medfig.demo.pdf import CAPTION, FloatBlock, Geometry
from medfig.demo.spec import FigureSpec, TableSpec
from medfig.demo.typeset import draw_line, wrap
from medfig.geometry import PixelBox, PointBox
from medfig.io import atomic_write_bytes

GREY_MODALITIES = {"ct", "mri", "ultrasound", "xray"}
CHART_SCALE = 4.0  # pixels per point for rasterised vector charts (288 dpi)


@dataclass(slots=True)
class FigureArt:
    spec: FigureSpec
    file: Path
    size_px: tuple[int, int]
    width_pt: float
    height_pt: float
    panel_px: list[PixelBox] = field(default_factory=list)  # pixels of the figure file
    label_px: list[PixelBox | None] = field(default_factory=list)  # None: letter not in the file's pixels
    panel_pt: list[PointBox] = field(default_factory=list)  # points, relative to the figure's top-left
    label_pt: list[PointBox | None] = field(default_factory=list)
    chart: vector.Chart | None = None
    chart_origin: tuple[float, float] = (0.0, 0.0)
    letters: list[vector.Text] = field(default_factory=list)  # letters set as PDF text over a raster

    def draw(self, c: Canvas, x: float, y: float, page_h: float) -> None:
        if self.chart is not None:
            ox, oy = self.chart_origin
            vector.draw_pdf(c, self.chart.primitives(), x - ox, y - oy, page_h)
            return
        # An ImageReader on the file: reportlab still embeds a JPEG's bytes unchanged
        # (DCTDecode), and names the image by its pixels, not by its path (a path-derived
        # name would make the PDF bytes depend on the output folder).
        c.drawImage(ImageReader(str(self.file)), x, page_h - y - self.height_pt, self.width_pt, self.height_pt)
        vector.draw_pdf(c, list(self.letters), x, y, page_h)


def _save(im: Image.Image, path: Path) -> None:
    # Fixed encoder settings and no metadata, so the bytes depend on the pixels only;
    # encoded in memory and renamed into place, so a killed run leaves no half file.
    buf = io.BytesIO()
    if path.suffix == ".jpg":
        im.save(buf, "JPEG", quality=90, subsampling=0)
    elif path.suffix == ".tif":
        im.save(buf, "TIFF", compression="tiff_lzw")
    else:
        im.save(buf, "PNG", compress_level=6)
    atomic_write_bytes(path, buf.getvalue())


def _raster_geometry(fig: FigureSpec, width_pt: float) -> tuple[int, tuple[int, int], int]:
    """(dpi, cell size in pixels, gap) of a raster figure set ``width_pt`` wide."""
    dpi = (300, 250, 220)[fig.number % 3]
    cols = max(c + cs for _, c, _, cs in (p.grid for p in fig.panels))
    gap = fig.gap if fig.compound else 0
    cell_w = (round(width_pt * dpi / 72) - (cols - 1) * gap) // cols
    return dpi, (cell_w, round(cell_w * fig.cell_aspect)), gap


def raster_height(fig: FigureSpec, width_pt: float) -> float:
    """Height in points the figure will have at ``width_pt``, without drawing it
    (lets the caller shrink a figure that would not fit on a page)."""
    _, (cw, ch), gap = _raster_geometry(fig, width_pt)
    rows = max(r + rs for r, _, rs, _ in (p.grid for p in fig.panels))
    cols = max(c + cs for _, c, _, cs in (p.grid for p in fig.panels))
    w, h = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    return h * width_pt / w


def raster_figure(fig: FigureSpec, width_pt: float, out_dir: Path, rng: np.random.Generator) -> FigureArt:
    grid = [p.grid for p in fig.panels]
    _, cell, gap = _raster_geometry(fig, width_pt)
    im, boxes = images.compose(rng, [p.modality for p in fig.panels], grid, cell, gap, fig.gap_colour, fig.border)
    w, h = im.size
    scale = width_pt / w  # points per pixel, same both ways: the aspect ratio is kept
    art = FigureArt(fig, out_dir / fig.file_name, (w, h), width_pt, h * scale, panel_px=[tuple(map(float, b)) for b in boxes])
    art.panel_pt = [(b[0] * scale, b[1] * scale, b[2] * scale, b[3] * scale) for b in boxes]
    for p, b in zip(fig.panels, boxes, strict=True):
        if not fig.compound or p.printed is None:
            art.label_px.append(None)
            art.label_pt.append(None)
        elif fig.letter_mode == "burned":
            lb = images.burn_letter(im, b, p.printed)
            art.label_px.append(tuple(map(float, lb)))
            art.label_pt.append(tuple(v * scale for v in lb))  # type: ignore[arg-type]
        else:
            size = min(10.0, max(7.0, 0.09 * min(b[2] - b[0], b[3] - b[1]) * scale))
            pad = 3.0
            colour = (1.0, 1.0, 1.0) if images.corner_is_dark(im, b) else (0.0, 0.0, 0.0)
            t = vector.Text(b[0] * scale + pad, b[1] * scale + pad + size * 0.75, p.printed, size, "Helvetica-Bold", colour=colour)
            art.letters.append(t)
            art.label_px.append(None)
            art.label_pt.append(vector.text_box(t))
    if all(p.modality in GREY_MODALITIES for p in fig.panels):
        im = im.convert("L")  # greyscale radiology figures are stored as such
    _save(im, art.file)
    return art


def vector_figure(fig: FigureSpec, width_pt: float, out_dir: Path, rng: np.random.Generator) -> FigureArt:
    n = len(fig.panels)
    panel_h = min(150.0, width_pt / n * 0.72)
    chart = vector.build_chart(rng, [p.modality for p in fig.panels], [p.printed for p in fig.panels], width_pt, panel_h)
    x0, y0, x1, y1 = chart.box()
    im = vector.rasterise(chart.primitives(), (x0, y0, x1, y1), CHART_SCALE)
    sx, sy = im.size[0] / (x1 - x0), im.size[1] / (y1 - y0)
    art = FigureArt(fig, out_dir / fig.file_name, im.size, x1 - x0, y1 - y0, chart=chart, chart_origin=(x0, y0))
    for pb, letter in zip(chart.panel_boxes(), chart.letters, strict=True):
        rel = (pb[0] - x0, pb[1] - y0, pb[2] - x0, pb[3] - y0)
        art.panel_pt.append(rel)
        art.panel_px.append((rel[0] * sx, rel[1] * sy, rel[2] * sx, rel[3] * sy))
        if letter is None:
            art.label_pt.append(None)
            art.label_px.append(None)
        else:
            lb = vector.text_box(letter)
            lrel = (lb[0] - x0, lb[1] - y0, lb[2] - x0, lb[3] - y0)
            art.label_pt.append(lrel)
            art.label_px.append((lrel[0] * sx, lrel[1] * sy, lrel[2] * sx, lrel[3] * sy))
    _save(im, art.file)
    return art


def figure_float(art: FigureArt, g: Geometry) -> FloatBlock:
    fig = art.spec
    slot = g.text_w if fig.layout == "full" else g.col_w
    runs = [(CAPTION.bold or CAPTION.font, fig.label_pdf), (CAPTION.font, fig.caption)]
    return FloatBlock(fig.fig_id, fig.layout == "full", slot, art.width_pt, art.height_pt, wrap(runs, CAPTION.size, slot), False, art.draw)


# --- tables -------------------------------------------------------------------------

TABLE_SIZE = 7.4
ROW_H = 10.5
RULE = 0.8


def table_float(t: TableSpec, g: Geometry) -> FloatBlock:
    """A booktabs-style table (three rules, no verticals), caption above."""
    bold, regular = "Helvetica-Bold", "Helvetica"
    widths = [
        max([stringWidth(t.header[k], bold, TABLE_SIZE)] + [stringWidth(row[k], regular, TABLE_SIZE) for row in t.rows]) + 8
        for k in range(len(t.header))
    ]
    full = sum(widths) > g.col_w
    slot = g.text_w if full else g.col_w
    widths[0] += slot - sum(widths)  # first column takes the slack, as in most journals
    height = RULE + ROW_H + RULE / 2 + ROW_H * len(t.rows) + 2 + RULE

    def draw(c: Canvas, x: float, y: float, page_h: float) -> None:
        def rule(yy: float, lw: float) -> None:
            c.setLineWidth(lw)
            c.line(x, page_h - yy, x + slot, page_h - yy)

        rule(y + RULE / 2, RULE)
        rows = [(bold, t.header)] + [(regular, r) for r in t.rows]
        yy = y + RULE
        for k, (font, cells) in enumerate(rows):
            base = yy + ROW_H - 3
            cx = x
            c.setFont(font, TABLE_SIZE)
            for j, (cell, w) in enumerate(zip(cells, widths, strict=True)):
                if j == 0:
                    c.drawString(cx + 2, page_h - base, cell)
                else:
                    c.drawCentredString(cx + w / 2, page_h - base, cell)
                cx += w
            yy += ROW_H
            if k == 0:
                rule(yy + RULE / 4, RULE / 2)
                yy += RULE / 2
        rule(y + height - RULE / 2, RULE)

    runs = [(bold, t.label_pdf), (regular, t.title)]
    return FloatBlock(t.table_id, full, slot, slot, height, wrap(runs, CAPTION.size, slot), True, draw)


__all__ = ["FigureArt", "draw_line", "figure_float", "raster_figure", "raster_height", "table_float", "vector_figure"]
