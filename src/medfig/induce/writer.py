"""Write an induced paper in the JSON schema ``medfig extract --format medfig`` writes.

``figures``: every JATS figure/table with a box (``source`` and ``method`` = template /
bow-interval / band, ``score`` = that method's match score); ``regionless``: captions
found in the PDF without a region (``regionless_reason``); ``not_found``: JATS entries
whose caption is not in the PDF text (eLife figure supplements, for instance) or that
have no label; ``other_graphics``: images the XML shows outside figures (no caption, so
neither figures nor tables as gold), located by template matching. ``medfig evaluate figures`` reads the file as gold or as prediction.
Boxes: PDF points, origin top-left, [x0, y0, x1, y1]; pages 0-based.
"""

from __future__ import annotations

from pathlib import Path

from medfig.induce.run import InducedFigure, InducedPaper
from medfig.io import atomic_write_json
from medfig.text.labels import figure_number

SCHEMA = "medfig.pdf_figures/1"


def _item(f: InducedFigure) -> dict:
    return dict(name=f.name, fig_type=f.fig_type, label=f.label, number=figure_number(f.name), page=f.page,
                box=f.box, caption_box=f.caption_box, caption=f"{f.label or ''} {f.caption}".strip(),
                source=f.method, method=f.method, score=f.score, caption_score=f.caption_score,
                template_score=f.template_score, figure_id=f.figure_id, figure_file=f.figure_file,
                regionless_reason=f.reason if f.box is None else None)


def to_json(paper: InducedPaper) -> dict:
    return dict(
        schema=SCHEMA,
        induced=True,
        method="medfig induce: JATS captions by Wagner-Fischer free-end alignment; figure files by multi-scale "
               "template matching (TM_CCOEFF_NORMED, 45 scales, >= 0.8); XML tables by bag-of-words line "
               "intervals; otherwise whitespace bands. Independent of medfig's extractor.",
        pdf=paper.pdf,
        n_pages=paper.n_pages,
        page_sizes_pt=[[round(w, 2), round(h, 2)] for w, h in paper.page_sizes_pt],
        coordinates="PDF points, origin top-left of the page, [x0, y0, x1, y1]; page 0-based",
        figures=[_item(f) for f in paper.figures if f.box is not None],
        regionless=[_item(f) for f in paper.figures if f.box is None and f.page is not None],
        not_found=[dict(figure_id=f.figure_id, name=f.name, label=f.label, reason=f.reason)
                   for f in paper.figures if f.box is None and f.page is None],
        other_graphics=[dict(figure_file=g.figure_file, href=g.figure_id, page=g.page, box=g.box, method=g.method,
                             score=g.score, template_score=g.template_score, reason=g.reason)
                        for g in paper.other_graphics],
        uncaptioned_regions=[],
        seconds=paper.seconds,
        warnings=paper.warnings,
    )


def write_induced(paper: InducedPaper, out_dir: Path) -> Path:
    path = Path(out_dir) / f"{paper.key}.json"
    atomic_write_json(path, to_json(paper))
    return path
