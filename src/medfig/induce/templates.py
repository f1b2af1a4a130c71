"""Find a figure file on a rendered page: multi-scale template matching (OpenCV).

The page is rendered at 72 dpi (1 px = 1 pt, so the match is a box in PDF points, origin
top-left); the figure image, in grey, is resized to 45 widths from 10% to 95% of the
page width (aspect kept) and matched with ``TM_CCOEFF_NORMED``; the best score wins and
is rejected below 0.8 (as in the DeepFigures induction). Boxes are on a 1-pt grid.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from medfig.images import check_pixels

N_SCALES = 45
MIN_SCALE, MAX_SCALE = 0.10, 0.95
MIN_SCORE = 0.8
MAX_TEMPLATE_SIDE = 2000  # big TIFFs are shrunk first: every tried scale is far smaller


@dataclass(slots=True)
class TemplateMatch:
    """Best match: ``score`` (normalised correlation, -1..1), ``box`` (PDF points, origin
    top-left), ``page``; ``accepted`` = score >= MIN_SCORE."""

    page: int
    score: float
    box: list[float]

    @property
    def accepted(self) -> bool:
        return self.score >= MIN_SCORE


def load_gray(data: bytes) -> np.ndarray:
    """A figure file (TIFF/PNG/JPEG, any bit depth) as an 8-bit grey array."""
    old = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # the budget below applies instead of Pillow's (an exception, not a warning)
    try:
        with Image.open(io.BytesIO(data)) as im:
            check_pixels("figure file", im.width, im.height)  # medfig's one budget, before any pixel is decoded
            im.seek(0)
            if max(im.size) > MAX_TEMPLATE_SIDE:
                im.draft("L", (MAX_TEMPLATE_SIDE, MAX_TEMPLATE_SIDE))
            if im.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
                a = np.asarray(im, dtype=np.float64)
                a = (a - a.min()) / max(1e-9, a.max() - a.min()) * 255
                gray = a.astype(np.uint8)
            else:
                if im.mode in ("RGBA", "LA", "P"):
                    im = im.convert("RGBA")
                    bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
                    im = Image.alpha_composite(bg, im)
                gray = np.asarray(im.convert("L"))
    finally:
        Image.MAX_IMAGE_PIXELS = old
    h, w = gray.shape
    if max(h, w) > MAX_TEMPLATE_SIDE:
        f = MAX_TEMPLATE_SIDE / max(h, w)
        gray = cv2.resize(gray, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
    return gray


def render_gray(pdf_doc, page_index: int) -> np.ndarray:
    """Page ``page_index`` of a pypdfium2 document at 72 dpi, grey."""
    return pdf_doc[page_index].render(scale=1.0, grayscale=True).to_numpy().squeeze()


def match_on_page(page_gray: np.ndarray, template: np.ndarray, page_index: int = 0) -> TemplateMatch:
    """Best of the 45 scales; score 0 when no scale fits on the page."""
    best = TemplateMatch(page_index, 0.0, [0.0, 0.0, 0.0, 0.0])
    H, W = page_gray.shape
    th0, tw0 = template.shape
    for s in np.linspace(MIN_SCALE, MAX_SCALE, N_SCALES):
        tw = int(W * s)
        th = int(th0 * tw / tw0)
        if tw < 10 or th < 10 or th > H:
            continue
        t = cv2.resize(template, (tw, th), interpolation=cv2.INTER_AREA)
        if float(t.std()) < 1e-6:
            continue  # a flat template correlates with nothing
        r = cv2.matchTemplate(page_gray, t, cv2.TM_CCOEFF_NORMED)
        _, mx, _, loc = cv2.minMaxLoc(r)
        if np.isfinite(mx) and mx > best.score:
            best = TemplateMatch(page_index, float(mx), [float(loc[0]), float(loc[1]), float(loc[0] + tw), float(loc[1] + th)])
    return best
