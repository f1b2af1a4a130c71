"""Synthetic, medical-looking raster panels drawn with numpy and Pillow.

Nothing here is anatomically faithful: the point is images whose statistics
resemble the real thing closely enough to exercise panel splitting, modality
classifiers and template matching (dark CT discs, fan-shaped ultrasound,
pink/purple histology, a white-background chart). Every generator is a pure
function of its ``numpy.random.Generator`` so a seed gives identical pixels.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

Array = np.ndarray
Generator = Callable[[np.random.Generator, int, int], Image.Image]


def _coords(h: int, w: int) -> tuple[Array, Array]:
    """Normalised coordinates in [-1, 1], aspect kept so discs stay round."""
    s = max(h, w) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return (xx - w / 2) / s, (yy - h / 2) / s


def _ellipse(u: Array, v: Array, cx: float, cy: float, rx: float, ry: float, angle: float = 0.0) -> Array:
    c, s = np.cos(angle), np.sin(angle)
    du, dv = u - cx, v - cy
    a = (du * c + dv * s) / rx
    b = (-du * s + dv * c) / ry
    return a * a + b * b


def _to_image(a: Array, blur: float = 0.0) -> Image.Image:
    """Float image in [0, 1] (grey or RGB) to an 8-bit Pillow image, optionally smoothed."""
    im = Image.fromarray(np.clip(a * 255 + 0.5, 0, 255).astype(np.uint8))
    return im.filter(ImageFilter.GaussianBlur(blur)) if blur > 0 else im


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> Array:
    """Low-frequency noise in [-1, 1]: upsampled random grid, cheap stand-in for Perlin noise."""
    gh, gw = max(2, int(h / scale)), max(2, int(w / scale))
    grid = (rng.random((gh, gw)) * 255).astype(np.uint8)
    up = Image.fromarray(grid).resize((w, h), Image.Resampling.BICUBIC)
    return np.asarray(up, dtype=np.float32) / 127.5 - 1.0


def ct_axial(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """Axial CT slice: black air, body ellipse with fat rim, lungs or liver, bright spine."""
    u, v = _coords(h, w)
    img = np.full((h, w), 0.03, np.float32)
    rx, ry = rng.uniform(0.78, 0.9), rng.uniform(0.55, 0.68)
    body = _ellipse(u, v, 0, 0.02, rx, ry)
    img[body < 1] = 0.28  # subcutaneous fat
    img[_ellipse(u, v, 0, 0.02, rx - 0.06, ry - 0.06) < 1] = 0.47  # muscle / soft tissue
    chest = rng.random() < 0.5
    if chest:
        for side in (-1, 1):
            lung = _ellipse(u, v, side * 0.36, -0.04, 0.27, 0.4, side * 0.2)
            img[lung < 1] = 0.07
            vessels = _smooth_noise(rng, h, w, 6) > 0.75
            img[(lung < 0.8) & vessels] = 0.3
        img[_ellipse(u, v, -0.05, 0.08, 0.22, 0.2) < 1] = 0.55  # heart
    else:
        img[_ellipse(u, v, -0.32, -0.05, 0.36, 0.33) < 1] = 0.56  # liver
        img[_ellipse(u, v, 0.3, 0.05, 0.16, 0.12) < 1] = 0.6  # stomach wall
        for side in (-1, 1):
            img[_ellipse(u, v, side * 0.3, 0.28, 0.09, 0.13) < 1] = 0.66  # kidneys
        lesion = _ellipse(u, v, -0.35 + rng.uniform(-0.08, 0.08), -0.1, 0.08, 0.07)
        img[lesion < 1] = 0.36
    img[_ellipse(u, v, 0, ry - 0.16, 0.1, 0.09) < 1] = 0.95  # vertebral body
    img[_ellipse(u, v, 0, ry - 0.3, 0.04, 0.035) < 1] = 0.4  # spinal canal
    table = np.abs(v - (ry + 0.12) - 0.05 * u * u) < 0.012
    img[table] = 0.6
    img += rng.normal(0, 0.025, img.shape).astype(np.float32)
    return _to_image(img, blur=1.0)


def mri_brain(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """Axial brain MRI: scalp ring, folded cortex, dark ventricles, a bright lesion."""
    u, v = _coords(h, w)
    img = np.zeros((h, w), np.float32)
    head = _ellipse(u, v, 0, 0, 0.7, 0.88)
    img[head < 1] = 0.85  # scalp fat, bright on T1
    img[head < 0.88] = 0.12  # skull
    brain = head < 0.78
    r = np.sqrt(u * u + v * v)
    theta = np.arctan2(v, u)
    folds = np.sin(14 * theta + 9 * r + 2.5 * _smooth_noise(rng, h, w, 20))
    img[brain] = (0.5 + 0.12 * folds)[brain]
    img[brain & (head < 0.35)] = 0.62  # white matter
    for side in (-1, 1):
        img[_ellipse(u, v, side * 0.1, -0.05, 0.06, 0.22, side * 0.3) < 1] = 0.08  # ventricles
    img[(np.abs(u) < 0.008) & brain] = 0.2  # falx
    t2 = rng.random() < 0.5
    if t2:  # T2: fluid bright, tissue contrast inverted
        img[brain] = 1.0 - img[brain] * 0.8
    cx, cy = rng.uniform(-0.35, 0.35), rng.uniform(-0.4, 0.3)
    img[_ellipse(u, v, cx, cy, 0.1, 0.08) < 1] = 0.95
    img += np.abs(rng.normal(0, 0.03, img.shape)).astype(np.float32)
    return _to_image(img, blur=0.8)


def ultrasound(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """B-mode ultrasound: speckle inside a fan-shaped sector on black, a dark cyst."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ax, ay = w / 2, -0.05 * h
    r = np.hypot(xx - ax, yy - ay) / h
    ang = np.degrees(np.arctan2(xx - ax, yy - ay))
    half = rng.uniform(30, 40)
    sector = (np.abs(ang) < half) & (r > 0.12) & (r < 1.0)
    speckle = rng.rayleigh(0.3, (h, w)).astype(np.float32)
    speckle = np.asarray(_to_image(speckle, blur=1.3), np.float32) / 255
    layers = 0.55 + 0.25 * np.sin(r * rng.uniform(18, 28)) * (r < 0.45)
    img = speckle * layers * np.exp(-1.2 * r)
    cyst = _ellipse(xx / h, yy / h, ax / h + rng.uniform(-0.12, 0.12), 0.62, 0.13, 0.09)
    img[cyst < 1] *= 0.12
    img[(cyst > 1) & (cyst < 1.6) & (yy / h > 0.62)] *= 1.6  # posterior acoustic enhancement
    img = np.where(sector, img * 2.4, 0.0)
    for k in range(1, 6):  # depth scale dots burned in like on a scanner screen
        y = int(h * k / 6)
        img[y - 1 : y + 2, w - 10 : w - 7] = 0.9
    return _to_image(img)


def xray_chest(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """PA chest radiograph: dark lungs, white mediastinum, rib arcs, clavicles."""
    u, v = _coords(h, w)
    img = np.full((h, w), 0.55, np.float32) - 0.25 * (u * u)
    lungs = np.zeros((h, w), bool)
    for side in (-1, 1):
        lungs |= _ellipse(u, v, side * 0.35, 0.0, 0.3, 0.62, side * -0.08) < 1
    img[lungs] = 0.18
    for k in range(9):  # ribs as parabolic arcs across the lung fields
        y0 = -0.55 + k * 0.13
        for side in (-1, 1):
            arc = np.abs(v - (y0 + 0.3 * np.abs(u) + 0.45 * u * u)) < 0.018
            img[arc & lungs & (side * u > 0)] += 0.22
    for side in (-1, 1):
        clav = np.abs(v - (-0.62 + 0.15 * u * side)) < 0.03
        img[clav & (np.abs(u) < 0.6)] = 0.75
    img[_ellipse(u, v, 0.06, 0.28, 0.24, 0.28) < 1] = 0.7  # heart shadow
    img[np.abs(u) < 0.06] = np.maximum(img[np.abs(u) < 0.06], 0.72)  # spine and mediastinum
    img[v > 0.66 - 0.2 * u * u] = 0.7  # diaphragm and abdomen
    if rng.random() < 0.6:  # a focal opacity somewhere in a lung
        cx = rng.choice([-1, 1]) * rng.uniform(0.25, 0.45)
        img[_ellipse(u, v, cx, rng.uniform(-0.2, 0.3), 0.1, 0.12) < 1] += 0.25
    img += 0.04 * _smooth_noise(rng, h, w, 10)
    img -= 0.25 * np.clip(np.abs(u) - 0.75, 0, 1)  # falls off at the edges like a cassette
    return _to_image(img, blur=2.0)


def _blobs(rng: np.random.Generator, h: int, w: int, n: int, rmin: float, rmax: float) -> Array:
    """A soft mask of n random ellipses (cell nuclei)."""
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    for _ in range(n):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a, b = rng.uniform(rmin, rmax), rng.uniform(rmin, rmax) * 0.7
        draw.ellipse((x - a, y - b, x + a, y + b), fill=int(rng.uniform(170, 255)))
    return np.asarray(mask.filter(ImageFilter.GaussianBlur(1.2)), np.float32) / 255


def histology(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """H&E section: pink eosin stroma with fibres, purple nuclei, white lumina."""
    stroma = 0.5 + 0.5 * _smooth_noise(rng, h, w, 12)
    fibres = 0.5 + 0.5 * np.sin(np.mgrid[0:h, 0:w][0] * 0.15 + 6 * _smooth_noise(rng, h, w, 40))
    pink = np.stack([0.93 - 0.06 * stroma, 0.62 + 0.12 * fibres, 0.8 - 0.05 * stroma], -1)
    nuclei = _blobs(rng, h, w, int(h * w / 900), 4, 9)[..., None]
    purple = np.array([0.33, 0.18, 0.52], np.float32)
    img = pink * (1 - nuclei) + purple * nuclei
    lumen = _blobs(rng, h, w, 4, 25, 55)[..., None]
    img = img * (1 - lumen) + np.array([0.97, 0.95, 0.97], np.float32) * lumen
    img += rng.normal(0, 0.015, img.shape).astype(np.float32)
    return _to_image(img, blur=0.6)


def fluorescence(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """Immunofluorescence: black background, green cytoplasm, blue DAPI nuclei."""
    cyto = _blobs(rng, h, w, int(h * w / 2500), 10, 20)
    nuclei = _blobs(rng, h, w, int(h * w / 2500), 4, 8)
    img = np.stack([0.1 * cyto, 0.85 * cyto, 0.15 * cyto + 0.95 * nuclei], -1)
    img += np.abs(rng.normal(0, 0.02, img.shape)).astype(np.float32)
    return _to_image(img, blur=0.7)


def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's bundled font: no system fonts needed, identical glyphs everywhere.
    return ImageFont.load_default(size=max(6, round(size)))


def survival_chart(rng: np.random.Generator, h: int, w: int) -> Image.Image:
    """A raster Kaplan–Meier plot, the kind of chart that arrives as a bitmap."""
    im = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(im)
    x0, y0, x1, y1 = int(0.2 * w), int(0.14 * h), int(0.96 * w), int(0.82 * h)
    lw = max(1, w // 250)
    d.line([(x0, y0), (x0, y1), (x1, y1)], fill="black", width=lw)
    font = _font(0.05 * h)
    for k in range(5):
        y = y1 - (y1 - y0) * k / 4
        d.line([(x0 - 5, y), (x0, y)], fill="black", width=lw)
        d.text((x0 - 8, y), f"{k * 25}", fill="black", font=font, anchor="rm")
        x = x0 + (x1 - x0) * k / 4
        d.line([(x, y1), (x, y1 + 5)], fill="black", width=lw)
        d.text((x, y1 + 8), f"{k * 12}", fill="black", font=font, anchor="mt")
    d.text(((x0 + x1) / 2, h - 2), "Months", fill="black", font=font, anchor="md")
    for colour, hazard in (((200, 30, 30), 0.05), ((30, 60, 200), 0.02)):
        pts, s, t = [], 1.0, 0.0
        while t < 1:
            pts.append((x0 + (x1 - x0) * t, y1 - (y1 - y0) * s))
            t += rng.uniform(0.02, 0.08)
            pts.append((x0 + (x1 - x0) * min(t, 1), y1 - (y1 - y0) * s))
            s *= 1 - hazard * rng.uniform(0.5, 2)
        d.line(pts, fill=colour, width=lw + 1)
    return im


GENERATORS: dict[str, Generator] = {
    "ct": ct_axial,
    "mri": mri_brain,
    "ultrasound": ultrasound,
    "xray": xray_chest,
    "histology": histology,
    "fluorescence": fluorescence,
    "chart": survival_chart,
}


def compose(
    rng: np.random.Generator,
    modalities: list[str],
    grid: list[tuple[int, int, int, int]],
    cell: tuple[int, int],
    gap: int,
    gap_colour: str,
    border: int,
) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """Lay panels on a grid of ``(row, col, rowspan, colspan)`` cells separated by gaps.

    Returns the figure and each panel's pixel box ``[x0, y0, x1, y1)`` (origin top-left,
    x1/y1 exclusive). Borders are drawn inside the panel box, so the box stays the
    visible panel including its frame, as an annotator would draw it.
    """
    cw, ch = cell
    rows = max(r + rs for r, _, rs, _ in grid)
    cols = max(c + cs for _, c, _, cs in grid)
    fig = Image.new("RGB", (cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap), gap_colour)
    boxes = []
    for modality, (r, c, rs, cs) in zip(modalities, grid, strict=True):
        x0, y0 = c * (cw + gap), r * (ch + gap)
        pw, ph = cs * cw + (cs - 1) * gap, rs * ch + (rs - 1) * gap
        panel = GENERATORS[modality](rng, ph, pw).convert("RGB")
        if border:
            ImageDraw.Draw(panel).rectangle((0, 0, pw - 1, ph - 1), outline=_border_colour(gap_colour), width=border)
        fig.paste(panel, (x0, y0))
        boxes.append((x0, y0, x0 + pw, y0 + ph))
    return fig, boxes


def _border_colour(gap_colour: str) -> str:
    return "white" if gap_colour == "black" else "black"


def corner_is_dark(img: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether the top-left corner of a panel is dark, to pick a readable letter colour."""
    x0, y0, x1, y1 = box
    size = max(8, (y1 - y0) // 6)
    corner = np.asarray(img.crop((x0, y0, x0 + size, y0 + size)).convert("L"), np.float32)
    return float(corner.mean()) < 128


def burn_letter(img: Image.Image, box: tuple[int, int, int, int], text: str) -> tuple[int, int, int, int]:
    """Write a panel letter into the pixels, top-left corner; returns its pixel box."""
    x0, y0, x1, y1 = box
    font = _font(0.11 * min(x1 - x0, y1 - y0))
    pad = max(4, (y1 - y0) // 30)
    draw = ImageDraw.Draw(img)
    colour = "white" if corner_is_dark(img, box) else "black"
    draw.text((x0 + pad, y0 + pad), text, fill=colour, font=font, anchor="lt")
    bx0, by0, bx1, by1 = draw.textbbox((x0 + pad, y0 + pad), text, font=font, anchor="lt")
    return (int(bx0), int(by0), int(bx1), int(by1))
