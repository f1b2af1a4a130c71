"""Figure and table extraction from PDF pages.

Coordinates everywhere in this package: PDF points, origin at the top-left of the
page (y grows downwards), boxes ``[x0, y0, x1, y1]``, page index 0-based — the
convention of pdfplumber's ``x0, top, x1, bottom``.

Pipeline per page (see docs/pdf_extraction.md):
  words -> lines -> captions (:mod:`medfig.pdf.captions`)
  images + vector paths (:mod:`medfig.pdf.graphics`) + layout detector (:mod:`medfig.pdf.layout`)
  -> region proposals snapped to the PDF's own objects (:mod:`medfig.pdf.regions`)
  -> Hungarian caption/region pairing (:mod:`medfig.pdf.pairing`) -> crops (:mod:`medfig.pdf.crop`)
"""

from medfig.pdf.types import ExtractedFigure, PdfCaption, PdfExtraction, PdfExtractionError

__all__ = ["ExtractedFigure", "PdfCaption", "PdfExtraction", "PdfExtractionError", "extract_figures", "extract_pdf"]


def __getattr__(name: str):
    # extract.py pulls in pdfplumber/pypdfium2; keep `import medfig.pdf` cheap.
    if name in ("extract_figures", "extract_pdf"):
        from medfig.pdf import extract

        return getattr(extract, name)
    raise AttributeError(name)
