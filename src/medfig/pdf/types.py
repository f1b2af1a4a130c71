"""Typed records of PDF figure extraction: one page as read (:mod:`medfig.pdf.page`) and
what is extracted from a PDF.

Every box is ``[x0, y0, x1, y1]`` in PDF points with the origin at the top-left of
the page (y down), page indexes are 0-based.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from medfig.geometry import PointBox
from medfig.records import MedfigError

_BOLD = re.compile(r"bold|black|heavy|semibold|demi|\bbd\b|-bd|,b$|medi", re.IGNORECASE)

@dataclass(slots=True)
class Word:
    text: str
    box: PointBox
    size: float
    font: str
    upright: bool = True

    @property
    def bold(self) -> bool:
        return bool(_BOLD.search(self.font))


@dataclass(slots=True)
class Line:
    """Words on one baseline within one column. ``box`` in PDF points, origin top-left."""

    words: list[Word]
    box: PointBox = (0.0, 0.0, 0.0, 0.0)
    size: float = 0.0  # the most common font size of the line's words
    index: int = 0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(slots=True)
class Graphic:
    """A drawn object: ``kind`` is ``image`` (raster placement) or ``path`` (vector)."""

    kind: str
    box: PointBox
    # image only: source pixel size, for --native crops
    src_px: tuple[int, int] | None = None
    thin: bool = False  # a path thinner than 2 pt (a rule or hairline)


@dataclass(slots=True)
class PageData:
    index: int
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    graphics: list[Graphic] = field(default_factory=list)
    body_size: float = 10.0  # most common font size on the page (body text)
    line_gap: float = 0.0  # median white space between consecutive body lines (double-spaced manuscripts: ~1 em)



class PdfExtractionError(MedfigError):
    """A PDF cannot be read (not a PDF, truncated, encrypted, no pages); names the file."""


@dataclass(slots=True)
class PdfCaption:
    """A caption paragraph found on a page.

    ``name`` is the normalised label ("Figure 3", "Figure S1", "Table 2",
    "Figure 2—figure supplement 1"); ``label`` is the label as printed ("Fig. 3:").
    ``box_pt``: PDF points, origin top-left.
    """

    name: str
    fig_type: str  # "Figure" | "Table" (Box/Scheme/Chart/Plate count as "Figure")
    kind: str  # the printed kind word, normalised: figure | table | box | scheme | chart | plate
    number: str  # "3", "S1", "2—figure supplement 1"
    label: str
    page: int
    box_pt: PointBox
    text: str
    score: float = 0.0  # how caption-like the start line is (delimiter, bold label, gap above)


@dataclass(slots=True)
class ExtractedFigure:
    """One figure or table found in a PDF, or a caption whose region was not found.

    - ``box_pt`` / ``caption_box_pt``: PDF points, origin top-left, ``[x0, y0, x1, y1]``;
      ``box_pt`` is None when the caption is *regionless* (then ``regionless_reason`` says why).
    - ``page``: 0-based page index.
    - ``source``: which evidence produced the region: ``images`` (embedded raster
      placements), ``vector`` (clustered drawing paths), ``layout`` (the layout detector,
      snapped to PDF objects), ``layout-raw`` (detector box with nothing to snap to).
    - ``image_file``: path of the crop when one was written (relative to the output dir).
    - ``image_size_px``: ``[w, h]`` of that crop; ``render_dpi`` the resolution it was rendered at.
    - ``reading_turn_deg``: the clockwise turn (0, 90 or 270) that makes the region read upright;
      non-zero on pages set sideways (a landscape table on a portrait page). Boxes stay in the
      stored page's frame; crops are turned by it, so they read upright.
    """

    name: str
    fig_type: str
    page: int
    box_pt: PointBox | None
    caption_box_pt: PointBox
    caption: str
    label: str = ""
    number: str = ""
    source: str = ""
    pair_distance_pt: float | None = None
    regionless_reason: str | None = None
    image_file: str | None = None
    image_size_px: tuple[int, int] | None = None
    render_dpi: float | None = None
    reading_turn_deg: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class PdfExtraction:
    """Everything extracted from one PDF. ``page_sizes_pt``: ``[w, h]`` per page in points."""

    pdf: str
    n_pages: int
    page_sizes_pt: list[tuple[float, float]]
    figures: list[ExtractedFigure] = field(default_factory=list)  # with a region
    regionless: list[ExtractedFigure] = field(default_factory=list)  # captions without a region
    uncaptioned_regions: list[tuple[int, PointBox, str]] = field(default_factory=list)  # (page, box, source)
    seconds: float = 0.0
    seconds_by_stage: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
