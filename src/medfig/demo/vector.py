"""Charts as a handful of drawing primitives, rendered twice: to the PDF as vector
graphics (lines, rectangles and real text, no raster) and to a Pillow image for
the figure file, so both come from one geometry and cannot drift apart.

Coordinates are PDF points in the chart's own frame, origin top-left, y down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from medfig.geometry import PointBox, union

RGB = tuple[float, float, float]
BLACK: RGB = (0, 0, 0)
PALETTE: list[RGB] = [(0.80, 0.15, 0.15), (0.15, 0.30, 0.75), (0.20, 0.60, 0.25), (0.55, 0.55, 0.55)]


@dataclass(frozen=True, slots=True)
class Path:
    points: tuple[tuple[float, float], ...]
    width: float = 0.8
    colour: RGB = BLACK


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: RGB


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    r: float
    fill: RGB


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float
    font: str = "Helvetica"
    anchor: str = "start"  # start | middle | end
    rotate: int = 0  # 0, or 90 for text reading bottom-to-top (y-axis titles)
    colour: RGB = BLACK


Primitive = Path | Rect | Dot | Text


def text_box(t: Text) -> PointBox:
    """Box of a text run as pdfminer/pdfplumber compute it: each glyph spans
    ``size`` points upwards from ``baseline + descent``; the width is the advance."""
    width = stringWidth(t.text, t.font, t.size)
    start = {"start": 0.0, "middle": -width / 2, "end": -width}[t.anchor]
    below = -getFont(t.font).face.descent / 1000 * t.size  # descender depth, positive
    if t.rotate == 0:
        return (t.x + start, t.y + below - t.size, t.x + start + width, t.y + below)
    # Rotated 90° anticlockwise: the advance runs up the page, glyph height to the left.
    return (t.x - t.size + below, t.y - start - width, t.x + below, t.y - start)


def bounds(p: Primitive) -> PointBox:
    if isinstance(p, Text):
        return text_box(p)
    if isinstance(p, Rect):
        return (p.x, p.y, p.x + p.w, p.y + p.h)
    if isinstance(p, Dot):
        return (p.x - p.r, p.y - p.r, p.x + p.r, p.y + p.r)
    xs = [x for x, _ in p.points]
    ys = [y for _, y in p.points]
    half = p.width / 2  # butt caps: only the sides stick out, by half the width
    return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)


@dataclass(slots=True)
class Chart:
    """A vector figure: primitives per panel, plus each panel's letter primitive."""

    panels: list[list[Primitive]] = field(default_factory=list)
    letters: list[Text | None] = field(default_factory=list)

    def primitives(self) -> list[Primitive]:
        out: list[Primitive] = []
        for prims, letter in zip(self.panels, self.letters, strict=True):
            out += prims + ([letter] if letter else [])
        return out

    def panel_boxes(self) -> list[PointBox]:
        return [
            union([bounds(p) for p in prims + ([letter] if letter else [])])
            for prims, letter in zip(self.panels, self.letters, strict=True)
        ]

    def box(self) -> PointBox:
        return union(self.panel_boxes())


# --- chart builders: data comes from rng, geometry from the panel rectangle ---------


def _axes(x: float, y: float, w: float, h: float, xlabel: str, ylabel: str, xt: list[str], yt: list[str]) -> tuple[list[Primitive], PointBox]:
    """Left/bottom axes with ticks and labels; returns primitives and the plot area."""
    px0, py0, px1, py1 = x + 30, y + 14, x + w - 4, y + h - 22
    prims: list[Primitive] = [Path(((px0, py0), (px0, py1), (px1, py1)))]
    for k, label in enumerate(yt):
        ty = py1 - (py1 - py0) * k / (len(yt) - 1)
        prims += [Path(((px0 - 3, ty), (px0, ty))), Text(px0 - 5, ty + 2, label, 6, anchor="end")]
    for k, label in enumerate(xt):
        tx = px0 + (px1 - px0) * k / (len(xt) - 1)
        prims += [Path(((tx, py1), (tx, py1 + 3))), Text(tx, py1 + 10, label, 6, anchor="middle")]
    prims.append(Text((px0 + px1) / 2, y + h - 3, xlabel, 7, anchor="middle"))
    prims.append(Text(x + 7, (py0 + py1) / 2, ylabel, 7, anchor="middle", rotate=90))
    return prims, (px0, py0, px1, py1)


def line_chart(rng: np.random.Generator, x: float, y: float, w: float, h: float) -> list[Primitive]:
    """Two treatment arms over time with error bars and a legend."""
    weeks = [0, 2, 4, 6, 8, 10, 12]
    prims, (px0, py0, px1, py1) = _axes(x, y, w, h, "Week", "Score", [str(t) for t in weeks[::2]], ["0", "20", "40", "60"])
    for arm in range(2):
        vals = np.clip(50 - np.cumsum(rng.uniform(0, 6 - 3 * arm, len(weeks))), 5, 58)
        pts = tuple((px0 + (px1 - px0) * k / (len(weeks) - 1), py1 - (py1 - py0) * v / 60) for k, v in enumerate(vals))
        colour = PALETTE[arm]
        prims.append(Path(pts, 1.2, colour))
        for px, py in pts:
            err = float(rng.uniform(2, 6))
            prims += [Path(((px, py - err), (px, py + err)), 0.6, colour), Dot(px, py, 1.8, colour)]
        ly = py0 + 4 + 9 * arm
        prims += [Path(((px1 - 52, ly), (px1 - 42, ly)), 1.2, colour), Text(px1 - 39, ly + 2, ["Control", "Treated"][arm], 6)]
    return prims


def bar_chart(rng: np.random.Generator, x: float, y: float, w: float, h: float) -> list[Primitive]:
    """Grouped bars (mean ± SD) for three groups and two conditions."""
    groups = ["Baseline", "Week 6", "Week 12"]
    prims, (px0, py0, px1, py1) = _axes(x, y, w, h, "Visit", "Volume (mL)", [], ["0", "50", "100"])
    slot = (px1 - px0) / len(groups)
    for g, name in enumerate(groups):
        for arm in range(2):
            v = float(rng.uniform(30, 95))
            bw = slot * 0.3
            bx = px0 + g * slot + slot * 0.15 + arm * bw * 1.1
            top = py1 - (py1 - py0) * v / 100
            prims.append(Rect(bx, top, bw, py1 - top, PALETTE[arm]))
            err = float(rng.uniform(3, 9))
            cx = bx + bw / 2
            prims.append(Path(((cx, top - err), (cx, top)), 0.6))
            prims.append(Path(((cx - 2, top - err), (cx + 2, top - err)), 0.6))
        prims.append(Text(px0 + (g + 0.5) * slot, py1 + 10, name, 6, anchor="middle"))
    return prims


def scatter_chart(rng: np.random.Generator, x: float, y: float, w: float, h: float) -> list[Primitive]:
    """Scatter with a fitted line: a correlation panel."""
    prims, (px0, py0, px1, py1) = _axes(x, y, w, h, "Lesion size (mm)", "SUVmax", ["0", "20", "40"], ["0", "5", "10"])
    slope = float(rng.uniform(0.12, 0.2))
    for _ in range(28):
        sx = float(rng.uniform(2, 38))
        sy = float(np.clip(slope * sx + rng.normal(1.5, 1.0), 0.3, 9.7))
        prims.append(Dot(px0 + (px1 - px0) * sx / 40, py1 - (py1 - py0) * sy / 10, 1.6, PALETTE[1]))
    prims.append(Path(((px0, py1 - (py1 - py0) * 1.5 / 10), (px1, py1 - (py1 - py0) * min(9.9, 1.5 + slope * 40) / 10)), 1.0, PALETTE[0]))
    return prims


def survival_chart(rng: np.random.Generator, x: float, y: float, w: float, h: float) -> list[Primitive]:
    """Kaplan–Meier step curves for two groups."""
    prims, (px0, py0, px1, py1) = _axes(x, y, w, h, "Months", "Survival (%)", ["0", "12", "24", "36", "48"], ["0", "50", "100"])
    for arm, hazard in enumerate((0.06, 0.025)):
        pts, s, t = [], 1.0, 0.0
        while t < 1:
            pts.append((px0 + (px1 - px0) * t, py1 - (py1 - py0) * s))
            t = min(1.0, t + float(rng.uniform(0.03, 0.09)))
            pts.append((px0 + (px1 - px0) * t, py1 - (py1 - py0) * s))
            s *= 1 - hazard * float(rng.uniform(0.5, 2))
        prims.append(Path(tuple(pts), 1.1, PALETTE[arm]))
    return prims


CHARTS = {"line": line_chart, "bar": bar_chart, "scatter": scatter_chart, "survival": survival_chart}


def build_chart(rng: np.random.Generator, kinds: list[str], letters: list[str | None], width: float, panel_h: float) -> Chart:
    """Panels side by side across ``width`` points; letters as bold PDF text in the corner."""
    chart = Chart()
    pw = width / len(kinds)
    for k, (kind, letter) in enumerate(zip(kinds, letters, strict=True)):
        x = k * pw
        chart.panels.append(CHARTS[kind](rng, x + 2, 12, pw - 6, panel_h))
        chart.letters.append(Text(x + 2, 9, letter, 9, font="Helvetica-Bold") if letter else None)
    return chart


# --- renderers ----------------------------------------------------------------------


def draw_pdf(c: Canvas, prims: list[Primitive], ox: float, oy: float, page_h: float) -> None:
    """Draw primitives with the chart frame's origin at (ox, oy), top-left page coordinates."""

    def pt(x: float, y: float) -> tuple[float, float]:
        return ox + x, page_h - (oy + y)

    c.saveState()
    c.setLineCap(0)
    for p in prims:
        if isinstance(p, Path):
            c.setStrokeColorRGB(*p.colour)
            c.setLineWidth(p.width)
            path = c.beginPath()
            path.moveTo(*pt(*p.points[0]))
            for q in p.points[1:]:
                path.lineTo(*pt(*q))
            c.drawPath(path, stroke=1, fill=0)
        elif isinstance(p, Rect):
            c.setFillColorRGB(*p.fill)
            x, y = pt(p.x, p.y + p.h)
            c.rect(x, y, p.w, p.h, stroke=0, fill=1)
        elif isinstance(p, Dot):
            c.setFillColorRGB(*p.fill)
            c.circle(*pt(p.x, p.y), p.r, stroke=0, fill=1)
        else:
            c.setFillColorRGB(*p.colour)
            c.setFont(p.font, p.size)
            x, y = pt(p.x, p.y)
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[p.anchor]
            if p.rotate:
                c.saveState()
                c.translate(x, y)
                c.rotate(90)
                draw(0, 0, p.text)
                c.restoreState()
            else:
                draw(x, y, p.text)
    c.restoreState()


def _rgb(colour: RGB) -> tuple[int, int, int]:
    return tuple(round(v * 255) for v in colour)  # type: ignore[return-value]


def rasterise(prims: list[Primitive], box: PointBox, scale: float, supersample: int = 2) -> Image.Image:
    """Render the chart region ``box`` (chart frame, points) at ``scale`` pixels per point.

    Drawn at ``supersample`` times the size and reduced, which stands in for the
    anti-aliasing a PDF renderer applies, so the file looks like the page.
    """
    s = scale * supersample
    x0, y0, x1, y1 = box
    size = (round((x1 - x0) * scale), round((y1 - y0) * scale))
    im = Image.new("RGB", (size[0] * supersample, size[1] * supersample), "white")
    d = ImageDraw.Draw(im)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * s, (y - y0) * s

    for p in prims:
        if isinstance(p, Path):
            d.line([px(*q) for q in p.points], fill=_rgb(p.colour), width=max(1, round(p.width * s)))
        elif isinstance(p, Rect):
            d.rectangle((*px(p.x, p.y), *px(p.x + p.w, p.y + p.h)), fill=_rgb(p.fill))
        elif isinstance(p, Dot):
            cx, cy = px(p.x, p.y)
            d.ellipse((cx - p.r * s, cy - p.r * s, cx + p.r * s, cy + p.r * s), fill=_rgb(p.fill))
        else:
            _draw_text(im, p, px(p.x, p.y), s)
    return im.resize(size, Image.Resampling.LANCZOS)


def _draw_text(im: Image.Image, t: Text, at: tuple[float, float], s: float) -> None:
    font = ImageFont.load_default(size=max(4, round(t.size * s)))
    anchor = {"start": "ls", "middle": "ms", "end": "rs"}[t.anchor]
    if not t.rotate:
        ImageDraw.Draw(im).text(at, t.text, fill=_rgb(t.colour), font=font, anchor=anchor)
        return
    # Pillow cannot rotate text in place: draw on a tile, rotate it, paste it.
    width = round(t.size * s * 0.6 * len(t.text)) + 20
    asc = round(t.size * s * 1.2)
    tile = Image.new("L", (width * 2, asc * 2), 0)
    ImageDraw.Draw(tile).text((width, asc), t.text, fill=255, font=font, anchor=anchor)
    tile = tile.rotate(90, expand=True)  # anchor (width, asc) moves to (asc, width)
    im.paste(_rgb(t.colour), (round(at[0] - asc), round(at[1] - width)), tile)
