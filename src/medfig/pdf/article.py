"""Articles that come as a PDF alone: figures, captions and inline references from the PDF.

Preprints, publisher downloads and scanned collections often have no JATS. The
figures and their captions come from the PDF extractor; the inline references
from the page text: sentences that mention a figure by number ("Fig. 2A–C"), found
by the same mention finder that reads JATS paragraphs, with the caption text
taken out first so a caption does not cite itself. Metadata is what the PDF's
info dictionary says (title, often empty); the licence is unknown (flagged, never
guessed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medfig.records import Article, Figure, InlineRef
from medfig.text.mentions import find_mentions
from medfig.text.sentences import split_sentences

_HYPHEN_BREAK = re.compile(r"(\w)(?:-\s*\n\s*|[\ufffe\u00ad\x02]\s*)(\w)")  # pdfium marks soft line-break hyphens U+FFFE
_SPACES = re.compile(r"\s+")


@dataclass(slots=True)
class PdfArticle:
    article: Article
    located: dict  # figure id -> ExtractedFigure (page, box) for cropping


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def page_texts(pdf: bytes) -> tuple[list[str], dict]:
    """Plain text of each page (line-break hyphens joined) and the PDF's info dictionary."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        meta = doc.get_metadata_dict(skip_empty=True)
        texts = []
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            texts.append(_HYPHEN_BREAK.sub(r"\1\2", textpage.get_text_range()))
            textpage.close()
            page.close()
    finally:
        doc.close()
    return texts, meta


def _figure_id(name: str) -> str:
    return "pdf-" + re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()


def _without_captions(text: str, captions: list[str]) -> str:
    """The body text: each caption's words removed where they occur as one run."""
    body = _squash(text)
    for caption in sorted(captions, key=len, reverse=True):
        body = body.replace(_squash(caption), " ")
    return body


def read_pdf_article(pdf: bytes, key: str, pdf_name: str, display: str) -> PdfArticle:
    """Parse a PDF-only article; raises PdfExtractionError naming the file when the PDF is unreadable."""
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.locate import label_key

    extraction = extract_pdf(pdf, name=display)
    texts, meta = page_texts(pdf)
    article = Article(key=key, title=(meta.get("Title") or "").strip() or None, pdf_file=pdf_name)
    article.warnings.extend(extraction.warnings)
    by_number: dict[tuple[str, str], Figure] = {}
    located = {}
    for found in extraction.figures + extraction.regionless:
        fkey = label_key(found.name)
        if fkey is None or fkey in by_number:
            continue
        if fkey[0] == "table":
            continue  # tables are listed by the XML path only; a PDF table is not a figure row
        figure = Figure(figure_id=_figure_id(found.name), label=found.name, caption=_squash(found.caption),
                        graphic_href=None, graphic_file=None)
        by_number[fkey] = figure
        article.figures.append(figure)
        if found.box_pt is not None:
            located[figure.figure_id] = found
        else:
            article.warnings.append(f"{found.name}: caption found, no region ({found.regionless_reason})")
    captions = [f.caption for f in extraction.figures + extraction.regionless]
    for page_index, text in enumerate(texts):
        body = _without_captions(text, captions)
        for sentence_index, (start, end) in enumerate(split_sentences(body)):
            sentence = body[start:end]
            for mention in find_mentions(sentence):
                figure = by_number.get(("figure", mention.number))
                if figure is None:
                    continue
                figure.inline_refs.append(InlineRef(
                    figure_id=figure.figure_id, sentence=sentence, section=None, mention=mention.text,
                    panels=list(mention.panels), paragraph_index=page_index, sentence_index=sentence_index))
                article.n_fig_xrefs += 1
    return PdfArticle(article=article, located=located)
