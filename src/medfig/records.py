"""Typed records that flow through medfig.

Conventions (see DESIGN.md):
- PDF boxes: PDF points, origin top-left, ``[x0, y0, x1, y1]``, page index 0-based.
- Image boxes: pixels of the stored image, origin top-left, ``[x0, y0, x1, y1]``.
- Licences: SPDX ids (``CC-BY-4.0``) plus the original URL and text.
- Member names inside an article package are POSIX paths relative to the package root.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

LicenceSource = Literal["figure", "article", "none"]


@dataclass(slots=True)
class Licence:
    """A licence as read from JATS ``<permissions>``.

    ``spdx`` is an SPDX id when the version is known (``CC-BY-4.0``, ``CC0-1.0``),
    the bare family when the text names a Creative Commons licence without a
    version (``CC-BY``), and ``None`` when the licence is unknown: medfig never guesses.
    """

    spdx: str | None = None
    url: str | None = None
    text: str | None = None
    source: LicenceSource = "none"

    @property
    def known(self) -> bool:
        return self.spdx is not None


@dataclass(slots=True)
class Mention:
    """One figure mention found in running text, e.g. ``Fig. 2A–C``.

    ``start``/``end`` are character offsets into the text that was searched.
    ``number`` is the figure number as written (``"2"``, ``"S2"``); ``panels`` are
    the panel letters/digits it names, ranges expanded (``["A", "B", "C"]``), case kept.
    """

    text: str
    start: int
    end: int
    number: str
    panels: list[str] = field(default_factory=list)
    supplementary: bool = False
    kind: str = "figure"  # figure | table | box | scheme | ...


@dataclass(slots=True)
class InlineRef:
    """A body sentence that cites a figure (MedICaT's "inline reference")."""

    figure_id: str  # the cited <fig> id (xref @rid)
    sentence: str
    section: str | None = None  # nearest enclosing <sec><title>
    mention: str = ""  # the citing text as written, e.g. "Figure 1d"
    panels: list[str] = field(default_factory=list)
    paragraph_index: int = 0  # index of the <p> in document order
    sentence_index: int = 0  # index of the sentence inside that paragraph


@dataclass(slots=True)
class Figure:
    """One ``<fig>`` of an article (fig-group members and figure supplements included)."""

    figure_id: str
    label: str | None
    caption: str  # full caption: title and every paragraph, whitespace-normalised
    caption_title: str | None = None
    fig_type: str | None = None  # @fig-type, or "figure-supplement" for eLife supplements
    parent_id: str | None = None  # enclosing <fig-group> id or the main figure of a supplement
    graphic_href: str | None = None  # xlink:href as written
    graphic_file: str | None = None  # member name of the resolved file in the package, or None
    licence: Licence = field(default_factory=Licence)
    inline_refs: list[InlineRef] = field(default_factory=list)


@dataclass(slots=True)
class Table:
    table_id: str
    label: str | None
    caption: str


@dataclass(slots=True)
class Article:
    """A parsed article. ``key`` is the stable id of the article within a build."""

    key: str
    pmcid: str | None = None  # "PMC1234567"
    pmid: str | None = None
    doi: str | None = None
    title: str | None = None
    journal: str | None = None
    year: int | None = None
    article_type: str | None = None
    authors: list[str] = field(default_factory=list)  # "Given Surname"
    licence: Licence = field(default_factory=Licence)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    xml_file: str | None = None  # member name of the JATS XML in the package
    pdf_file: str | None = None  # member name of the PDF in the package
    n_fig_xrefs: int = 0  # <xref ref-type="fig"> elements in the body
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ErrorRecord:
    """Why an article (or a part of it) failed. ``file`` names the offending file."""

    article: str
    stage: str  # source | xml | image | pdf | write | ...
    message: str
    file: str | None = None


@dataclass(slots=True)
class Exclusion:
    """Why an article or a figure is not in a dataset or release, or a problem met on the way
    (one row of the exclusion ledger, :mod:`medfig.ledger`). ``figure_id`` None: the whole article."""

    article_key: str
    figure_id: str | None
    phase: str  # build | curate
    step: str  # the build step or curate step
    reason: str  # a short stable code (image_missing, not_allowed, duplicate ...)
    detail: str = ""
    file: str | None = None


class MedfigError(Exception):
    """Base of medfig's expected errors: the message names the file and the problem."""


class SourceError(MedfigError):
    """An article container cannot be read safely (bad archive, unsafe member, too large)."""


class JatsError(MedfigError):
    """A JATS XML file cannot be parsed into an Article."""


@dataclass(slots=True)
class Subfigure:
    """One panel of a compound figure (MedICaT's subfigure).

    ``box_px``: ``[x0, y0, x1, y1]`` in pixels of the stored figure image, origin top-left.
    ``subcaption_spans``: ``[start, end)`` character offsets into the figure's caption.
    ``label``: the panel letter, lower-cased (``"b"``), a position (``"left"``) or None.
    ``label_source``: ``ocr`` (read in the image), ``order`` (reading order) or ``none``.
    """

    figure_id: str
    box_px: list[int]
    score: float
    label: str | None = None
    label_source: str = "none"
    label_box_px: list[int] | None = None  # where the letter was read, image pixels
    subcaption: str = ""
    subcaption_spans: list[tuple[int, int]] = field(default_factory=list)
    inline_refs: list[InlineRef] = field(default_factory=list)  # sentences citing this panel
    crop_file: str | None = None  # relative to the dataset folder, set when the crop is written
    # calibrated probability that this panel is right (medfig.compound.confidence); None without a model
    confidence: float | None = None
