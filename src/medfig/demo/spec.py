"""What one demo article contains: the records planned up front from the seed.

Everything the XML, the PDF and the ground truth share lives in these records, so
the three are written from one source and agree by construction. The planning
itself (which figures, panels, captions, citations) is :mod:`medfig.demo.plan`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Xref:
    rid: str
    ref_type: str  # fig | table | bibr
    text: str


Piece = str | Xref


@dataclass(slots=True)
class Citation:
    """Ground truth for one figure cited by one sentence."""

    figure_id: str
    panels: list[str]
    mention: str


@dataclass(slots=True)
class Sentence:
    pieces: list[Piece]
    citations: list[Citation] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text for p in self.pieces)


@dataclass(slots=True)
class Paragraph:
    sentences: list[Sentence]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)

    def cited(self) -> list[str]:
        """Ids of figures and tables cited here, in order of first citation."""
        out: list[str] = []
        for s in self.sentences:
            for p in s.pieces:
                if isinstance(p, Xref) and p.ref_type in ("fig", "table") and p.rid not in out:
                    out.append(p.rid)
        return out


@dataclass(slots=True)
class Section:
    sec_id: str
    title: str
    paragraphs: list[Paragraph]


@dataclass(frozen=True, slots=True)
class LicenceSpec:
    spdx: str | None
    url: str | None
    text: str
    style: str = "href"  # href: <license xlink:href>; ali: <ali:license_ref>; text: URL only inside <license-p>


@dataclass(slots=True)
class PanelSpec:
    letter: str | None  # bare letter, "a"; None for a single-panel figure
    printed: str | None  # as drawn on the figure, "(a)"
    modality: str  # raster generator name or chart kind
    subcaption: str = ""
    span: tuple[int, int] = (0, 0)  # subcaption's [start, end) in FigureSpec.caption
    grid: tuple[int, int, int, int] = (0, 0, 1, 1)  # row, col, rowspan, colspan


@dataclass(slots=True)
class FigureSpec:
    fig_id: str
    number: int
    label: str  # <label> in the XML
    label_pdf: str  # how the PDF caption starts, "Figure 1." / "Fig. 1:"
    title: str
    paragraphs: list[str]
    panels: list[PanelSpec]
    rendering: str  # raster | vector
    layout: str  # column | full
    width_frac: float
    ext: str  # figure file extension: jpg | png | tif
    href: str  # <graphic xlink:href>, no extension as in PMC
    letter_mode: str | None = None  # burned | pdf_text, for compound figures
    gap: int = 10
    gap_colour: str = "white"
    border: int = 0
    cell_aspect: float = 0.8
    licence: LicenceSpec | None = None  # figure-level <permissions>, overriding the article's
    parent_id: str | None = None  # set for a figure supplement: the main figure's id

    @property
    def fig_type(self) -> str | None:
        return "figure-supplement" if self.parent_id else None

    @property
    def compound(self) -> bool:
        return len(self.panels) > 1

    @property
    def caption(self) -> str:
        return " ".join([self.title, *self.paragraphs])

    @property
    def file_name(self) -> str:
        return f"{self.href}.{self.ext}"


@dataclass(slots=True)
class TableSpec:
    table_id: str
    number: int
    label: str
    label_pdf: str
    title: str
    header: list[str]
    rows: list[list[str]]

    @property
    def caption(self) -> str:
        return self.title


@dataclass(slots=True)
class ArticleSpec:
    index: int
    pmcid: str
    pmid: str
    doi: str
    journal: tuple[str, str]
    article_type: str
    title: str
    authors: list[tuple[str, str]]  # (given, surname)
    affiliations: list[str]
    year: int
    month: int
    day: int
    licence: LicenceSpec
    abstract: list[tuple[str | None, str]]  # (section title or None, text)
    keywords: list[str]
    sections: list[Section]
    figures: list[FigureSpec]
    tables: list[TableSpec]
    references: list[str]
    page_size: tuple[float, float]
    disease: str

    def paragraphs(self) -> list[Paragraph]:
        return [p for s in self.sections for p in s.paragraphs]


LICENCES = {
    "CC-BY-4.0": ("https://creativecommons.org/licenses/by/4.0/", "Creative Commons Attribution 4.0 International License", "which permits unrestricted use, distribution, and reproduction in any medium, provided the original work is properly cited."),
    "CC-BY-NC-4.0": ("https://creativecommons.org/licenses/by-nc/4.0/", "Creative Commons Attribution-NonCommercial 4.0 International License", "which permits non-commercial use, distribution, and reproduction in any medium, provided the original work is properly cited."),
    "CC-BY-NC-ND-4.0": ("https://creativecommons.org/licenses/by-nc-nd/4.0/", "Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International License", "which permits non-commercial use and distribution without modification, provided the original work is properly cited."),
}


def licence_spec(spdx: str, style: str) -> LicenceSpec:
    url, name, terms = LICENCES[spdx]
    return LicenceSpec(spdx, url, f"This is an open access article distributed under the terms of the {name}, {terms}", style)
