"""What gets indexed: one search document per panel, or per figure when it has no panels.

A *document* is the unit a search returns. When ``subfigures.parquet`` exists
(the compound-figure stage ran), every panel it lists is a document of kind
``panel`` carrying its subcaption, its box in the figure image and the sentences
that cite it; figures without panel rows stay whole (kind ``figure``). Without
that file every figure is one document. Nothing here touches the index: this
module only turns dataset tables into plain records.

Figures whose caption the PDF does not print (``image_status`` ``not_in_pdf``: eLife's figure
supplements) are not documents: no image of them exists anywhere, so a figure search has nothing
to show for them. Figures that merely lack an image in this build (a text-only build, a missing
file) stay searchable; the web shows them with a "no image file" placeholder.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from medfig.dataset import DatasetFolder
from medfig.pipeline.article import NOT_IN_PDF
from medfig.search.modality import document_modalities
from medfig.search.subfigures import PanelRow, read_subfigures

TEXT_FIELDS = ("caption", "subcaption", "refs", "concepts", "title")


@dataclass(slots=True)
class SearchDoc:
    """One searchable panel or figure with everything a result page shows.

    ``box_px`` is the panel box [x0, y0, x1, y1] in pixels of the stored figure image
    (origin top-left); None for a whole figure. Paths are relative to the dataset folder.
    ``refs`` are inline references: dicts with sentence, section, mention, panels.
    """

    doc_key: str  # "{article_key}/{figure_id}" or "{article_key}/{figure_id}#{panel_label}"
    kind: str  # "figure" | "panel"
    article_key: str
    figure_id: str
    panel_label: str | None
    label: str | None  # figure label as printed, "Figure 2"
    caption: str
    subcaption: str | None = None
    refs: list[dict] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    modalities: list[str] = field(default_factory=list)
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    journal: str | None = None
    year: int | None = None
    doi: str | None = None
    pmcid: str | None = None
    licence_spdx: str | None = None
    licence_url: str | None = None
    licence_source: str | None = None
    image_path: str | None = None  # the whole figure image
    crop_path: str | None = None  # the panel crop, when the compound-figure stage wrote one
    box_px: list[float] | None = None
    image_width: int | None = None
    image_height: int | None = None
    pdf_page: int | None = None  # 0-based page of the figure in the article's PDF (when located there)
    pdf_source: str | None = None  # the article's PDF as the build read it (a source folder's file)

    def content_hash(self) -> str:
        """Changes whenever anything shown or searched changes: drives incremental indexing."""
        blob = json.dumps(asdict(self), sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def text_for(self, fields: tuple[str, ...]) -> dict[str, str]:
        """The searchable text of each field (empty when the field is not indexed)."""
        values = {
            "caption": self.caption or "",
            "subcaption": self.subcaption or "",
            "refs": " ".join(r.get("sentence") or "" for r in self.refs),
            "concepts": " ".join(self.concepts),
            "title": self.title or "",
        }
        return {name: (values[name] if name in fields else "") for name in TEXT_FIELDS}

    def dense_text(self, fields: tuple[str, ...]) -> str:
        """What the sentence model embeds: the panel's own words first (the model truncates long input)."""
        parts = [self.subcaption if "subcaption" in fields else None, self.caption if "caption" in fields else None]
        if "concepts" in fields and self.concepts:
            parts.append(", ".join(self.concepts))
        return " ".join(p for p in parts if p).strip()


def _concept_names(value) -> list[str]:
    if not value:
        return []
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            name = item.get("name") or item.get("cui")
            if name:
                out.append(str(name))
    return out


def _pdf_source(article: dict) -> str | None:
    """``source_container/pdf_file`` for an article built from a folder (a zip's PDF is not a file)."""
    if article.get("source_kind") != "folder" or not article.get("pdf_file") or not article.get("source_container"):
        return None
    return str(Path(article["source_container"]) / article["pdf_file"])


def _ref_dict(ref: dict) -> dict:
    return {
        "sentence": ref.get("sentence") or "",
        "section": ref.get("section"),
        "mention": ref.get("mention") or "",
        "panels": list(ref.get("panels") or []),
    }


def refs_for_panel(refs: list[dict], label: str | None) -> list[dict]:
    """Sentences naming this panel first, then those citing the whole figure; other panels' sentences left out."""
    if label is None:
        return refs
    wanted = label.lower()
    naming = [r for r in refs if wanted in {p.lower() for p in r["panels"]}]
    whole = [r for r in refs if not r["panels"]]
    return naming + whole


def _merge_refs(*lists: list[dict]) -> list[dict]:
    seen, out = set(), []
    for refs in lists:
        for ref in refs:
            key = (ref["sentence"], ref["mention"])
            if key not in seen:
                seen.add(key)
                out.append(ref)
    return out


def documents_from_dataset(root: str | Path, skipped: Counter | None = None) -> list[SearchDoc]:
    """Every search document of a built dataset folder, panels when ``subfigures.parquet`` exists;
    none for figures the PDF does not print (``not_in_pdf``), counted in ``skipped`` when given."""
    folder = DatasetFolder(root)
    figures = folder.read_rows("figures")
    articles = {a["article_key"]: a for a in folder.read_rows("articles")}
    panels_by_figure: dict[tuple[str | None, str], list[PanelRow]] = {}
    for panel in read_subfigures(folder.root) or []:
        panels_by_figure.setdefault((panel.article_key, panel.figure_id), []).append(panel)

    docs: list[SearchDoc] = []
    for fig in figures:
        if fig.get("image_status") == NOT_IN_PDF:
            if skipped is not None:
                skipped[NOT_IN_PDF] += 1
            continue
        article = articles.get(fig["article_key"], {})
        base = dict(
            article_key=fig["article_key"],
            figure_id=fig["figure_id"],
            label=fig.get("label"),
            caption=fig.get("caption") or "",
            concepts=_concept_names(fig.get("concepts")),
            title=article.get("title"),
            authors=list(article.get("authors") or []),
            journal=article.get("journal"),
            year=article.get("year"),
            doi=fig.get("doi") or article.get("doi"),
            pmcid=fig.get("pmcid") or article.get("pmcid"),
            licence_spdx=fig.get("licence_spdx"),
            licence_url=fig.get("licence_url"),
            licence_source=fig.get("licence_source"),
            image_path=fig.get("image_path"),
            image_width=fig.get("width"),
            image_height=fig.get("height"),
            pdf_page=fig.get("pdf_page"),
            pdf_source=_pdf_source(article),
        )
        figure_refs = [_ref_dict(r) for r in fig.get("inline_refs") or []]
        panels = panels_by_figure.get((fig["article_key"], fig["figure_id"])) or panels_by_figure.get(
            (None, fig["figure_id"])
        )
        if not panels:
            docs.append(
                SearchDoc(
                    doc_key=f"{fig['article_key']}/{fig['figure_id']}",
                    kind="figure",
                    panel_label=None,
                    refs=figure_refs,
                    modalities=document_modalities(fig.get("modality"), None, base["caption"]),
                    **base,
                )
            )
            continue
        label_counts = Counter(p.label for p in panels)
        for index, panel in enumerate(panels):
            own_refs = [_ref_dict(r) for r in panel.inline_refs]
            refs = refs_for_panel(_merge_refs(own_refs, figure_refs), panel.label)
            # keys stay unique when the splitter leaves a panel unlabelled or reads one letter twice
            if panel.label is None:
                name = f"panel{index + 1}"
            elif label_counts[panel.label] > 1:
                name = f"{panel.label}.{index + 1}"
            else:
                name = panel.label
            docs.append(
                SearchDoc(
                    doc_key=f"{fig['article_key']}/{fig['figure_id']}#{name}",
                    kind="panel",
                    panel_label=panel.label,
                    subcaption=panel.subcaption,
                    refs=refs,
                    crop_path=panel.crop_path,
                    box_px=panel.box_px,
                    modalities=document_modalities(panel.modality, panel.subcaption, None)
                    or document_modalities(fig.get("modality"), None, base["caption"]),
                    **{**base, "concepts": panel.concepts or base["concepts"]},
                )
            )
    return docs
