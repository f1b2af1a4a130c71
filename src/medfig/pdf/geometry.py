"""Small box helpers. Boxes are ``(x0, y0, x1, y1)`` in PDF points, origin top-left."""

from __future__ import annotations

from collections.abc import Iterable

from medfig.pdf.types import Box


def area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def intersection(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def iou(a: Box, b: Box) -> float:
    inter = intersection(a, b)
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def inside_fraction(inner: Box, outer: Box) -> float:
    """Share of ``inner``'s area that lies in ``outer`` (1.0 for a zero-area box inside)."""
    a = area(inner)
    if a <= 0:
        cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
        return 1.0 if outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3] else 0.0
    return intersection(inner, outer) / a


def union(boxes: Iterable[Box]) -> Box | None:
    boxes = list(boxes)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def expand(b: Box, d: float) -> Box:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def clip(b: Box, width: float, height: float) -> Box:
    return (max(0.0, b[0]), max(0.0, b[1]), min(width, b[2]), min(height, b[3]))


def edge_distance(a: Box, b: Box) -> float:
    """Euclidean distance between the closest edges (0 when the boxes touch or overlap).

    DeepFigures pairs captions and figures on this distance (its ``Box.distance_to_other``).
    """
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return (dx * dx + dy * dy) ** 0.5


def horizontal_overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0]))


def rounded(b: Box | None, ndigits: int = 2) -> list[float] | None:
    return None if b is None else [round(float(v), ndigits) for v in b]
