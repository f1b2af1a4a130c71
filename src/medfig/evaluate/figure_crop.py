"""Whitespace cropping of predicted boxes, as pdffigures2's evaluation does before IoU.

A predicted region padded with white margin is shrunk to the ink it contains on the page
rendered at ``dpi`` (grey < ``threshold``; 200, as pdffigures2 binarises its page images),
so padding does not cost IoU. Boxes in PDF points, origin top-left, [x0, y0, x1, y1]; a cropped box never grows.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium


class WhitespaceCropper:
    """Crops boxes on the pages of one PDF; pages are rendered once, on first use."""

    def __init__(self, pdf: str | Path | bytes, dpi: float = 100.0, threshold: int = 200) -> None:
        self.dpi = dpi
        self.threshold = threshold
        self._doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
        self._pages: dict[int, np.ndarray] = {}

    def close(self) -> None:
        self._doc.close()

    def __enter__(self) -> WhitespaceCropper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _gray(self, page: int) -> np.ndarray | None:
        if page not in self._pages:
            if not 0 <= page < len(self._doc):
                return None
            img = self._doc[page].render(scale=self.dpi / 72.0, grayscale=True).to_numpy()
            self._pages[page] = img if img.ndim == 2 else img[:, :, 0]
        return self._pages[page]

    def crop(self, page: int, box: list[float]) -> list[float]:
        """``box`` shrunk to the ink inside it (unchanged when the page or any ink is missing)."""
        gray = self._gray(page)
        if gray is None:
            return list(box)
        s = self.dpi / 72.0
        h, w = gray.shape
        x0, y0 = max(0, math.floor(box[0] * s)), max(0, math.floor(box[1] * s))
        x1, y1 = min(w, math.ceil(box[2] * s)), min(h, math.ceil(box[3] * s))
        if x1 <= x0 or y1 <= y0:
            return list(box)
        ink = gray[y0:y1, x0:x1] < self.threshold
        rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        if rows.size == 0:
            return list(box)
        out = [(x0 + cols[0]) / s, (y0 + rows[0]) / s, (x0 + cols[-1] + 1) / s, (y0 + rows[-1] + 1) / s]
        # never grow: pixel rounding may step outside the original box by < 1 px
        return [max(out[0], box[0]), max(out[1], box[1]), min(out[2], box[2]), min(out[3], box[3])]
