"""The rows one article contributes to the dataset tables (schemas: :mod:`medfig.schema`)."""

from __future__ import annotations

from medfig.jats.graphics import is_thumbnail
from medfig.records import Article, ErrorRecord, Figure, Licence


def _licence_columns(licence: Licence) -> dict:
    return {
        "licence_spdx": licence.spdx,
        "licence_url": licence.url,
        "licence_text": licence.text,
        "licence_source": licence.source,
    }


def error_row(key: str, stage: str, message: str, file: str | None) -> dict:
    record = ErrorRecord(article=key, stage=stage, message=message, file=file)
    return {"article_key": record.article, "stage": record.stage, "message": record.message, "file": record.file}


def figure_flags(figure: Figure) -> list[str]:
    """What a dataset builder should know before training on this figure, found at parse time.

    empty_caption    the <fig> has no caption text
    unknown_licence  no licence medfig can name (never guessed; curation drops these)
    thumbnail_only   the only file for the graphic is a PMC .gif thumbnail
    no_inline_refs   no body sentence cites the figure
    """
    flags = []
    if not figure.caption:
        flags.append("empty_caption")
    if figure.licence.spdx is None:
        flags.append("unknown_licence")
    if figure.graphic_file and is_thumbnail(figure.graphic_file):
        flags.append("thumbnail_only")
    if not figure.inline_refs:
        flags.append("no_inline_refs")
    return flags


def figure_row(article: Article, figure: Figure) -> dict:
    return {
        "article_key": article.key,
        "pmcid": article.pmcid,
        "pmid": article.pmid,
        "doi": article.doi,
        "figure_id": figure.figure_id,
        "label": figure.label,
        "caption_title": figure.caption_title,
        "caption": figure.caption,
        "fig_type": figure.fig_type,
        "parent_id": figure.parent_id,
        "graphic_href": figure.graphic_href,
        "graphic_file": figure.graphic_file,
        **_licence_columns(figure.licence),
        "inline_refs": [
            {
                "sentence": ref.sentence,
                "section": ref.section,
                "mention": ref.mention,
                "panels": list(ref.panels),
                "paragraph_index": ref.paragraph_index,
                "sentence_index": ref.sentence_index,
            }
            for ref in figure.inline_refs
        ],
        "n_inline_refs": len(figure.inline_refs),
        "image_path": None,
        "image_format": None,
        "source_image_format": None,
        "width": None,
        "height": None,
        "sha256": None,
        "image_status": "no_graphic",
        "image_error": None,
        "image_source": None,
        "pdf_page": None,
        "pdf_box": None,
        "n_subfigures": 0,  # panels found when the figure is compound (rows in subfigures.parquet)
        "flags": figure_flags(figure),
    }


def article_row(source, article: Article, n_images: int) -> dict:
    return {
        "article_key": article.key,
        "source_container": source.container,
        "source_kind": source.kind,
        "fingerprint": source.fingerprint,
        "pmcid": article.pmcid,
        "pmid": article.pmid,
        "doi": article.doi,
        "title": article.title,
        "journal": article.journal,
        "year": article.year,
        "article_type": article.article_type,
        "authors": list(article.authors),
        **_licence_columns(article.licence),
        "xml_file": article.xml_file,
        "pdf_file": article.pdf_file,
        "n_figures": len(article.figures),
        "n_images": n_images,
        "n_tables": len(article.tables),
        "n_fig_xrefs": article.n_fig_xrefs,
        "n_inline_refs": sum(len(f.inline_refs) for f in article.figures),
        "tables": [{"table_id": t.table_id, "label": t.label, "caption": t.caption} for t in article.tables],
        "warnings": list(article.warnings),
    }
