"""PDFium page space -> the page as displayed: PDF points, origin top-left, /Rotate and the
crop box applied (the frame of every box in :mod:`medfig.pdf`)."""

from __future__ import annotations

from medfig.geometry import PointBox

Matrix = tuple[float, float, float, float, float, float]  # PDF order: a b c d e f


def display_matrix(page) -> tuple[Matrix, float, float]:
    """The affine map from PDFium page space to the displayed page with the origin at the
    bottom-left (y up), and the displayed width and height. The same map pdfminer applies
    for /Rotate; y is flipped to top-left by :func:`box_top_left`."""
    left, bottom, right, top = page.get_cropbox()
    rotation = page.get_rotation() % 360
    if rotation == 90:
        return (0.0, -1.0, 1.0, 0.0, -bottom, right), top - bottom, right - left
    if rotation == 180:
        return (-1.0, 0.0, 0.0, -1.0, right, top), right - left, top - bottom
    if rotation == 270:
        return (0.0, 1.0, -1.0, 0.0, top, -left), top - bottom, right - left
    return (1.0, 0.0, 0.0, 1.0, -left, -bottom), right - left, top - bottom


def concat(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector convention: p' = p * m * n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def box_top_left(m: Matrix, height: float, x0: float, y0: float, x1: float, y1: float) -> PointBox:
    """Bounding box of the page-space rectangle (x0, y0, x1, y1) mapped by ``m``, y flipped."""
    a, b, c, d, e, f = m
    xs = (a * x0 + c * y0, a * x1 + c * y0, a * x0 + c * y1, a * x1 + c * y1)
    ys = (b * x0 + d * y0, b * x1 + d * y0, b * x0 + d * y1, b * x1 + d * y1)
    return (min(xs) + e, height - (max(ys) + f), max(xs) + e, height - (min(ys) + f))

