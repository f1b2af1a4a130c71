"""The article's figures located in its PDF; those the package has no file for cropped from it.

For every article with a PDF the build runs the PDF extractor (``medfig.pdf``, layout
detector on caption pages) and matches what it finds to the JATS figures by label
("Figure 2" in the XML, "Fig. 2." printed in the PDF, both normalised by the same label
grammar). Every matched figure gets its place in the PDF; Hindawi deposits, many Europe
PMC downloads and every PDF-first corpus carry the XML and the PDF but no figure files,
and for those figures the matched region is also rendered to a PNG (the figure image).

Coordinates recorded in the row: ``pdf_page`` (0-based) and ``pdf_box``
``[x0, y0, x1, y1]`` in PDF points, origin top-left of the page.
"""

from __future__ import annotations

from medfig.pdf.labels import parse_label

def label_key(text: str | None) -> tuple[str, str] | None:
    """("figure", "2") for "Figure 2", "Fig. 2.", "FIGURE 2 |"; None when it is not a label.

    The first part is the kind ("figure", "table", "box", "scheme", ...), so "Box 1" and
    "Table 1" never take "Figure 1"'s place; labels with a prefix keep it in the second part
    ("figure", "Appendix 1—Figure 1") for the same reason. Plain figures key on the number
    alone, which is what in-text mentions give (:mod:`medfig.pdf.article`).
    """
    if not text:
        return None
    label = parse_label(text.strip().rstrip(".:|") + ".")
    if label is None:
        return None
    plain = label.name == f"{label.kind.capitalize()} {label.number}"
    return (label.kind, label.number if plain else label.name)


def locate(pdf: bytes, labels: dict[str, str | None], display: str) -> tuple[dict, str | None]:
    """figure id -> ExtractedFigure for the labels found in the PDF, plus a reason when none could be read.

    Raises nothing: an unreadable PDF is returned as the reason.
    """
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.types import PdfExtractionError

    try:
        extraction = extract_pdf(pdf, name=display)
    except PdfExtractionError as exc:
        return {}, str(exc)
    by_key = {}
    for found in extraction.figures:
        key = label_key(found.name)
        if key is not None and key not in by_key:
            by_key[key] = found
    located = {}
    for figure_id, label in labels.items():
        key = label_key(label)
        if key in by_key:
            located[figure_id] = by_key[key]
    return located, None
