"""The ground-truth record of one demo article, from the plan and the layout.

Every number here comes from the geometry the PDF was drawn with, not from
reading the PDF back, so it is exact by construction; ``tests/test_demo.py``
checks it against pdfplumber anyway. The schema is documented in
``docs/demo_ground_truth.md`` and in :mod:`medfig.demo.corpus`.
"""

from __future__ import annotations

from typing import Any

from medfig.demo.figures import FigureArt
from medfig.demo.pdf import Placed
from medfig.demo.spec import ArticleSpec, FigureSpec, LicenceSpec
from medfig.geometry import AnyBox, PointBox

COORDINATES = (
    "PDF points, origin top-left of the page, y down; boxes [x0,y0,x1,y1]; "
    "image pixel boxes origin top-left"
)
SCHEMA_VERSION = 1


def _r(box: AnyBox | None) -> list[float] | None:
    # Three decimals: far below the 1 pt tolerance, and short, stable JSON.
    return None if box is None else [round(float(v), 3) for v in box]


def _shift(box: PointBox | None, x: float, y: float) -> PointBox | None:
    return None if box is None else (box[0] + x, box[1] + y, box[2] + x, box[3] + y)


def _licence(lic: LicenceSpec) -> dict[str, str | None]:
    return {"spdx": lic.spdx, "url": lic.url}


def _figure(spec: ArticleSpec, fig: FigureSpec, art: FigureArt, at: Placed) -> dict[str, Any]:
    panels = []
    for p, px, pt, lpx, lpt in zip(fig.panels, art.panel_px, art.panel_pt, art.label_px, art.label_pt, strict=True):
        panels.append(
            {
                "label": p.letter,  # None for the one panel of a single-panel figure
                "printed": p.printed,  # as drawn: "a", "A" or "(a)"
                "modality": p.modality,
                "box_px": _r(px),
                "box_page": _r(_shift(pt, at.x, at.y)),
                "subcaption": p.subcaption or None,
                "subcaption_span": list(p.span) if p.subcaption else None,
                # Where the printed letter is: in the file's pixels (None when it is only
                # PDF text over the image) and on the page (None when there is no letter).
                "letter_box_px": _r(lpx),
                "letter_box_page": _r(_shift(lpt, at.x, at.y)),
            }
        )
    return {
        "figure_id": fig.fig_id,
        "fig_type": fig.fig_type,  # "figure-supplement" or None
        "parent_id": fig.parent_id,  # the main figure of a supplement
        "label": fig.label,
        "label_pdf": fig.label_pdf,
        "caption": fig.caption,
        "caption_title": fig.title,
        "page": at.page,
        "box": _r(at.content_box),
        "caption_box": _r(at.caption_box),
        "image_file": fig.file_name,
        "graphic_href": fig.href,
        "image_size": list(art.size_px),
        "compound": fig.compound,
        "kind": fig.rendering,
        "layout": fig.layout,  # column | full (spans both columns)
        "letters": fig.letter_mode,  # burned | pdf_text | None
        "licence": _licence(fig.licence or spec.licence),
        "panels": panels,
    }


def ground_truth(spec: ArticleSpec, arts: dict[str, FigureArt], placed: dict[str, Placed], n_pages: int, files: dict[str, str]) -> dict[str, Any]:
    figures = [_figure(spec, f, arts[f.fig_id], placed[f.fig_id]) for f in spec.figures]
    tables = [
        {
            "table_id": t.table_id,
            "label": t.label,
            "caption": t.caption,
            "page": placed[t.table_id].page,
            "box": _r(placed[t.table_id].content_box),
            "caption_box": _r(placed[t.table_id].caption_box),
        }
        for t in spec.tables
    ]
    inline_refs = [
        {
            "figure_id": c.figure_id,
            "sentence": s.text,
            "mention": c.mention,
            "panels": c.panels,
            "section": section.title,
        }
        for section in spec.sections
        for para in section.paragraphs
        for s in para.sentences
        for c in s.citations
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "pmcid": spec.pmcid,
        "pmid": spec.pmid,
        "doi": spec.doi,
        "title": spec.title,
        "article_type": spec.article_type,
        "licence": _licence(spec.licence) | {"style": spec.licence.style},
        "xml_file": files["xml"],
        "pdf_file": files["pdf"],
        "n_pages": n_pages,
        "page_size": [round(v, 4) for v in spec.page_size],
        "coordinates": COORDINATES,
        "figures": figures,
        "tables": tables,
        "inline_refs": inline_refs,
    }
