"""Read figure/table boxes from the JSON formats in use, for ``medfig evaluate figures``.

Every reader returns :class:`PaperFigures` with boxes in PDF points, origin top-left,
``[x0, y0, x1, y1]``, pages as written in the file (medfig and pdffigures2 output are
0-based). Formats, recognised by their shape:

- medfig: ``medfig extract --format medfig`` and ``medfig induce`` (``{"schema":
  "medfig.pdf_figures/1", "figures": [...], "regionless": [...]}``); regionless captions
  count as predicted captions without a region.
- medfig gold set: ``{"schema": "medfig.pdf_gold/1", "papers": [{key, pdf, pages, figures}]}``
  (several papers in one file; ``pages`` = the eye-checked pages, the only ones scored).
- pdffigures2 output (``medfig extract --format pdffigures2`` too): a list of
  ``{name, figType, page, caption, captionBoundary, regionBoundary}`` with ``{x1,y1,x2,y2}``
  boxes in points.
- pdffigures2's evaluation annotations: ``{doc_id: {figures: [{name, figure_type, page,
  caption, caption_bb, region_bb, dpi}], pages_annotated}}`` with boxes in pixels at ``dpi``.
- DeepFigures output: ``{"dpi", "figures": [{name, figure_type, page, caption_text,
  caption_boundary, figure_boundary}]}`` with boxes in pixels at ``dpi``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from medfig.text.labels import figure_number  # also imported from here by callers


class FigureFileError(ValueError):
    """A JSON file that is not one of the known figure formats (message names the file)."""


def normalise_type(t: str | None) -> str:
    return "Table" if (t or "").strip().lower().startswith("tab") else "Figure"


@dataclass(slots=True)
class FigureBox:
    """One figure or table. Boxes in PDF points, origin top-left, [x0, y0, x1, y1];
    ``box`` None for a caption without a region; ``page`` as in the source file."""

    name: str
    fig_type: str  # "Figure" | "Table"
    page: int
    box: list[float] | None
    caption_box: list[float] | None = None
    caption: str = ""

    @property
    def number(self) -> str:
        return figure_number(self.name)


@dataclass(slots=True)
class PaperFigures:
    """The figures of one paper. ``pages``: annotated pages (None: not stated, every page
    counts); ``pdf``: the PDF path recorded in the file, if any."""

    key: str
    items: list[FigureBox] = field(default_factory=list)
    pages: set[int] | None = None
    pdf: str | None = None
    source: str = ""  # the JSON file it came from


def _bound(b, scale: float = 1.0) -> list[float] | None:
    if not b:
        return None
    if isinstance(b, dict):
        v = [b["x1"], b["y1"], b["x2"], b["y2"]]
    else:
        v = list(b)[:4]
    return [float(x) * scale for x in v]


def _medfig_item(f: dict, with_box: bool = True) -> FigureBox:
    return FigureBox(name=str(f.get("name") or ""), fig_type=normalise_type(f.get("fig_type")), page=int(f["page"]),
                     box=_bound(f.get("box") or f.get("box_pt")) if with_box else None,
                     caption_box=_bound(f.get("caption_box") or f.get("caption_box_pt")), caption=f.get("caption") or "")


def _pdffigures2_item(f: dict) -> FigureBox:
    t = normalise_type(f.get("figType"))
    return FigureBox(name=f"{t} {f.get('name', '')}".strip(), fig_type=t, page=int(f["page"]),
                     box=_bound(f.get("regionBoundary")), caption_box=_bound(f.get("captionBoundary")),
                     caption=f.get("caption") or "")


def _pixel_item(f: dict, dpi: float, region: str, caption_box: str, caption: str) -> FigureBox:
    s = 72.0 / float(dpi or 72.0)
    t = normalise_type(f.get("figure_type") or f.get("figType"))
    return FigureBox(name=f"{t} {f.get('name', '')}".strip(), fig_type=t, page=int(f["page"]),
                     box=_bound(f.get(region), s), caption_box=_bound(f.get(caption_box), s), caption=f.get(caption) or "")


def parse_figure_json(doc, key: str, source: str = "") -> list[PaperFigures]:
    """Papers in one parsed JSON document (see the module docstring for the formats)."""
    where = source or key
    try:
        if isinstance(doc, list):  # pdffigures2 output
            return [PaperFigures(key, [_pdffigures2_item(f) for f in doc], source=source)]
        if isinstance(doc, dict) and isinstance(doc.get("papers"), list):  # medfig gold set
            out = []
            for p in doc["papers"]:
                out.append(PaperFigures(str(p["key"]), [_medfig_item(f) for f in p["figures"]],
                                        pages=set(p["pages"]) if p.get("pages") is not None else None,
                                        pdf=p.get("pdf"), source=source))
            return out
        if isinstance(doc, dict) and isinstance(doc.get("figures"), list):
            figs = doc["figures"]
            if figs and "figure_boundary" in figs[0] or "raw_detected_boxes" in doc:  # DeepFigures
                dpi = float(doc.get("dpi") or 100)
                items = [_pixel_item(f, f.get("dpi") or dpi, "figure_boundary", "caption_boundary", "caption_text")
                         for f in figs]
                return [PaperFigures(key, items, pdf=doc.get("pdf"), source=source)]
            items = [_medfig_item(f) for f in figs] + [_medfig_item(f, with_box=False) for f in doc.get("regionless", [])]
            pages = doc.get("pages_annotated", doc.get("checked_pages"))
            return [PaperFigures(key, items, pages=set(pages) if pages is not None else None, pdf=doc.get("pdf"),
                                 source=source)]
        if isinstance(doc, dict) and doc and all(isinstance(v, dict) and "figures" in v for v in doc.values()):
            out = []  # pdffigures2 evaluation annotations: {doc_id: {figures, pages_annotated}}
            for doc_id, v in doc.items():
                items = [_pixel_item(f, f.get("dpi", 72.0), "region_bb", "caption_bb", "caption") for f in v["figures"]]
                pages = v.get("pages_annotated")
                out.append(PaperFigures(str(doc_id), items, pages=set(pages) if pages is not None else None,
                                        source=source))
            return out
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise FigureFileError(f"{where}: malformed figure entry ({type(exc).__name__}: {exc})") from exc
    raise FigureFileError(f"{where}: not a medfig, pdffigures2 or DeepFigures figure JSON")


def load_figure_file(path: Path) -> list[PaperFigures]:
    """Papers in one JSON file; the paper key of a one-paper file is the file name without .json."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FigureFileError(f"{path}: cannot read JSON ({type(exc).__name__}: {exc})") from exc
    key = path.name[:-5] if path.name.endswith(".json") else path.stem
    return parse_figure_json(doc, key, str(path))


def load_figure_dir(path: Path) -> tuple[dict[str, PaperFigures], list[str]]:
    """All papers in a folder of JSON files (recursively) or in one JSON file; (papers by key, errors).

    A file that cannot be read is an error message naming it; the others are still loaded.
    """
    path = Path(path)
    if not path.exists():
        raise FigureFileError(f"{path}: not found")
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*.json") if p.is_file())
    papers: dict[str, PaperFigures] = {}
    errors: list[str] = []
    for f in files:
        try:
            for paper in load_figure_file(f):
                if paper.key in papers:
                    errors.append(f"{f}: paper {paper.key!r} already read from {papers[paper.key].source}; ignored")
                    continue
                papers[paper.key] = paper
        except FigureFileError as exc:
            errors.append(str(exc))
    return papers, errors


def _parts(key: str, pdf: str | None) -> set[str]:
    parts = set(re.split(r"__|/|\\", key))
    if pdf:
        parts |= set(Path(pdf).with_suffix("").parts)
    return {p for p in parts if p}


def match_papers(pred: dict[str, PaperFigures], gold: dict[str, PaperFigures]) -> dict[str, str | None]:
    """For each gold key, the predicted paper's key (None: no prediction).

    Exact key first; otherwise the one prediction whose file name parts (``medfig extract``
    writes ``folder__PMC1__fulltext.json``) or recorded PDF path contain the gold key, or
    whose recorded PDF path equals the gold's.
    """
    out: dict[str, str | None] = {}
    used: set[str] = set()
    for gk in gold:
        if gk in pred:
            out[gk] = gk
            used.add(gk)
    for gk, g in gold.items():
        if gk in out:
            continue
        cands = [pk for pk, p in pred.items() if pk not in used and (
            gk in _parts(pk, p.pdf) or (g.pdf and p.pdf and Path(g.pdf).name == Path(p.pdf).name
                                        and Path(g.pdf).parent.name == Path(p.pdf).parent.name))]
        out[gk] = cands[0] if len(cands) == 1 else None
        if out[gk]:
            used.add(out[gk])
    return out
