"""Boxes and the arithmetic on them, in one place for every package.

Every box is ``(x0, y0, x1, y1)`` with the origin at the top-left, y growing down.
Two kinds of box exist and are kept apart in the types (at run time both are plain
tuples, so there is no cost):

- :data:`PointBox`: PDF points (1/72 inch) on a page, as pdfplumber and the PDF
  extractor report them (page index 0-based, kept beside the box).
- :data:`PixelBox`: pixels of a stored image (a figure file, a crop, a rendered page).

Convert between them only with :func:`points_to_pixels` / :func:`pixels_to_points`,
which take the render resolution, so a box never changes unit silently.

The functions below accept either kind (anything indexable with four numbers); a
function that combines two boxes expects both in the same unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType, TypeVar

PointBox = NewType("PointBox", tuple[float, float, float, float])
PixelBox = NewType("PixelBox", tuple[int, int, int, int])

AnyBox = Sequence[float]
B = TypeVar("B", bound=Sequence[float])

POINTS_PER_INCH = 72.0


def point_box(x0: float, y0: float, x1: float, y1: float) -> PointBox:
    return PointBox((float(x0), float(y0), float(x1), float(y1)))


def pixel_box(x0: float, y0: float, x1: float, y1: float) -> PixelBox:
    return PixelBox((int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))))


def width(b: AnyBox) -> float:
    return b[2] - b[0]


def height(b: AnyBox) -> float:
    return b[3] - b[1]


def area(b: AnyBox) -> float:
    """Area; an inverted or empty box has area 0."""
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def intersection(a: AnyBox, b: AnyBox) -> float:
    """Area of the overlap of two boxes (0 when they do not overlap)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def iou(a: AnyBox, b: AnyBox) -> float:
    """Intersection over union (0 when both boxes are empty)."""
    inter = intersection(a, b)
    union_area = area(a) + area(b) - inter
    return inter / union_area if union_area > 0 else 0.0


def inside_fraction(inner: AnyBox, outer: AnyBox) -> float:
    """Share of ``inner``'s area that lies in ``outer`` (a zero-area box: 1.0 when its centre is inside)."""
    a = area(inner)
    if a <= 0:
        cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
        return 1.0 if outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3] else 0.0
    return intersection(inner, outer) / a


def union(boxes: Iterable[B]) -> tuple | None:
    """Smallest box holding every box (a tuple in the boxes' unit); None when there are none."""
    boxes = list(boxes)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def expand(b: AnyBox, d: float) -> tuple:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def clip(b: AnyBox, width: float, height: float) -> tuple:
    """``b`` cut to the rectangle ``(0, 0, width, height)``."""
    return (max(0.0, b[0]), max(0.0, b[1]), min(width, b[2]), min(height, b[3]))


def edge_distance(a: AnyBox, b: AnyBox) -> float:
    """Euclidean distance between the closest edges (0 when the boxes touch or overlap).

    DeepFigures pairs captions and figures on this distance (its ``Box.distance_to_other``).
    """
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return (dx * dx + dy * dy) ** 0.5


def horizontal_overlap(a: AnyBox, b: AnyBox) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0]))


def vertical_overlap(a: AnyBox, b: AnyBox) -> float:
    return max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def centre(b: AnyBox) -> tuple[float, float]:
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def rounded(b: AnyBox | None, ndigits: int = 2) -> list[float] | None:
    return None if b is None else [round(float(v), ndigits) for v in b]


def points_to_pixels(b: PointBox | AnyBox, dpi: float) -> tuple[float, float, float, float]:
    """A box in PDF points as pixels of a page rendered at ``dpi`` (not rounded)."""
    s = dpi / POINTS_PER_INCH
    return (b[0] * s, b[1] * s, b[2] * s, b[3] * s)


def pixels_to_points(b: PixelBox | AnyBox, dpi: float) -> PointBox:
    """A box in pixels of a page rendered at ``dpi`` as PDF points."""
    s = POINTS_PER_INCH / dpi
    return PointBox((b[0] * s, b[1] * s, b[2] * s, b[3] * s))
