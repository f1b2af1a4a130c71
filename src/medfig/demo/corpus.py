"""``medfig demo``: synthetic PMC-like articles with exact ground truth.

Each article is a folder in PMC's cloud layout::

    OUT/PMC9000001/PMC9000001.xml          JATS 1.3, graphic hrefs without extension
    OUT/PMC9000001/PMC9000001.pdf          two-column PDF, figures and a table as floats
    OUT/PMC9000001/PMC9000001-g001.tif     figure files (TIFF, JPEG and PNG mixed)
    OUT/PMC9000001/ground_truth.json       what is where, exactly

The same seed gives the same bytes in every file (reportlab ``invariant=1``,
fixed dates, fixed encoder settings). Every file is written to a temp name and
renamed, so an interrupted run never leaves a truncated file.

``ground_truth.json`` (also in ``docs/demo_ground_truth.md``)::

    {"schema_version": 1, "pmcid", "pmid", "doi", "title", "article_type",
     "licence": {"spdx", "url", "style"},        # style: href | ali | text
     "xml_file", "pdf_file", "n_pages",
     "page_size": [w, h],                          # PDF points
     "coordinates": "PDF points, origin top-left of the page, y down; boxes
                     [x0,y0,x1,y1]; image pixel boxes origin top-left",
     "figures": [{"figure_id", "label", "label_pdf", "caption", "caption_title",
                  "page",                          # 0-based
                  "box",                           # figure art on the page
                  "caption_box",                   # union of the caption's text lines
                  "image_file", "graphic_href", "image_size": [w, h],
                  "compound": bool, "kind": "raster" | "vector",
                  "layout": "column" | "full", "letters": "burned" | "pdf_text" | null,
                  "licence": {"spdx", "url"},      # the figure's own, else the article's
                  "panels": [{"label": "a" | null, "printed": "(a)", "modality",
                              "box_px", "box_page", "subcaption", "subcaption_span",
                              "letter_box_px", "letter_box_page"}]}],
     "tables": [{"table_id", "label", "caption", "page", "box", "caption_box"}],
     "inline_refs": [{"figure_id", "sentence", "mention", "panels", "section"}]}

Box conventions: page boxes follow pdfplumber (``x0, top, x1, bottom``); a text
box spans each glyph from ``baseline + descent`` up by the font size, as pdfminer
computes it. Pixel boxes are ``[x0, y0, x1, y1)`` with x1/y1 exclusive. A raster
figure's ``box`` is exactly the placed image; a vector figure's is the union of
its drawn paths and text.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np

from medfig.demo.figures import FigureArt, figure_float, raster_figure, raster_height, table_float, vector_figure
from medfig.demo.front import author_line, decorations, front_matter
from medfig.demo.jats import build_xml
from medfig.demo.pdf import CAPTION, CAPTION_GAP, FLOAT_SEP, Block, FloatBlock, Flow, Geometry, Placed
from medfig.demo.plan import plan_article
from medfig.demo.spec import ArticleSpec, FigureSpec
from medfig.demo.truth import ground_truth
from medfig.demo.typeset import wrap
from medfig.io import atomic_write_bytes

GROUND_TRUTH = "ground_truth.json"
MAX_FLOAT_SHARE = 0.8  # of the text height: a float never fills a whole page


def _figure_width(fig: FigureSpec, g: Geometry) -> float:
    """Width the figure is set at: its planned share of the slot, narrowed until the
    figure and its caption fit on one page (a tall 3×2 grid at full width would not)."""
    slot = g.text_w if fig.layout == "full" else g.col_w
    width = slot * fig.width_frac
    if fig.rendering == "vector":
        return width
    caption_lines = len(wrap([(CAPTION.font, f"{fig.label_pdf} {fig.caption}")], CAPTION.size, slot))
    caption_h = caption_lines * CAPTION.leading + CAPTION_GAP + FLOAT_SEP
    limit = MAX_FLOAT_SHARE * (g.bottom - g.margin_top) - caption_h
    while raster_height(fig, width) > limit:
        width *= 0.95
    return width


def _figure_art(fig: FigureSpec, g: Geometry, folder: Path, rng: np.random.Generator) -> FigureArt:
    make = vector_figure if fig.rendering == "vector" else raster_figure
    return make(fig, _figure_width(fig, g), folder, rng)


def _blocks(spec: ArticleSpec) -> list[Block]:
    """Body text in reading order; a paragraph triggers the floats it cites first."""
    blocks: list[Block] = []
    seen: set[str] = set()
    floats = {f.fig_id for f in spec.figures} | {t.table_id for t in spec.tables}
    for section in spec.sections:
        blocks.append(Block("heading", section.title))
        for para in section.paragraphs:
            new = [rid for rid in para.cited() if rid in floats and rid not in seen]
            # Supplements are never cited: they follow their main figure.
            new = [x for rid in new for x in [rid, *(f.fig_id for f in spec.figures if f.parent_id == rid)]]
            seen.update(new)
            blocks.append(Block("para", para.text, new))
    blocks.append(Block("heading", "References"))
    blocks += [Block("ref", f"{k}. {ref}") for k, ref in enumerate(spec.references, start=1)]
    return blocks


def _typeset(spec: ArticleSpec, g: Geometry, floats: dict[str, FloatBlock]) -> tuple[bytes, dict[str, Placed], int]:
    buf = io.BytesIO()
    meta = {"title": spec.title, "author": author_line(spec), "subject": f"{spec.journal[0]} {spec.year}; doi:{spec.doi}"}
    placed, n_pages = Flow(buf, g, floats, front_matter(spec), decorations(spec), meta).run(_blocks(spec))
    missing = set(floats) - set(placed)
    if missing:  # a float that never fitted would silently vanish from the PDF
        raise RuntimeError(f"{spec.pmcid}: floats not placed: {sorted(missing)}")
    return buf.getvalue(), placed, n_pages


def _remove_stale_figures(folder: Path, spec: ArticleSpec) -> None:
    """Drop figure files of an earlier run with another seed (it may have had more figures)."""
    keep = {f.file_name for f in spec.figures}
    for path in folder.glob(f"{spec.pmcid}-g*.*"):
        if path.name not in keep and path.suffix in (".jpg", ".png", ".tif"):
            path.unlink()


def write_article(out_dir: Path, seed: int, index: int) -> Path:
    """Write one article folder; returns its path."""
    spec = plan_article(seed, index)
    folder = out_dir / spec.pmcid
    folder.mkdir(parents=True, exist_ok=True)
    # Pixels get their own stream, derived from seed and index only: the text plan
    # and the images cannot shift each other when either changes.
    rng = np.random.default_rng([seed % 2**32, index])
    g = Geometry(*spec.page_size)
    arts = {f.fig_id: _figure_art(f, g, folder, rng) for f in spec.figures}
    floats = {fid: figure_float(art, g) for fid, art in arts.items()}
    floats |= {t.table_id: table_float(t, g) for t in spec.tables}
    pdf, placed, n_pages = _typeset(spec, g, floats)

    files = {"xml": f"{spec.pmcid}.xml", "pdf": f"{spec.pmcid}.pdf"}
    truth = ground_truth(spec, arts, placed, n_pages, files)
    atomic_write_bytes(folder / files["pdf"], pdf)
    atomic_write_bytes(folder / files["xml"], build_xml(spec))
    text = json.dumps(truth, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(folder / GROUND_TRUTH, text.encode("utf-8"))
    _remove_stale_figures(folder, spec)
    return folder


def write_demo_corpus(out_dir: Path | str, n: int = 5, seed: int = 0) -> list[Path]:
    """Write ``n`` synthetic articles into ``out_dir``; returns the article folders."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [write_article(out, seed, i) for i in range(n)]
