"""Open a PDF safely: clear errors naming the file for non-PDFs, truncated, encrypted or empty files."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from medfig.pdf.types import PdfExtractionError

MAX_PDF_BYTES = 300 * 1024 * 1024


def read_pdf_bytes(pdf: bytes | str | Path, name: str | None = None) -> tuple[bytes, str]:
    """The PDF's bytes and a display name (the path, or ``name``, or ``<bytes>``)."""
    if isinstance(pdf, (bytes, bytearray, memoryview)):
        return bytes(pdf), name or "<bytes>"
    path = Path(pdf)
    display = name or str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise PdfExtractionError(f"{display}: cannot read file ({exc.strerror or exc})") from exc
    if size > MAX_PDF_BYTES:
        raise PdfExtractionError(f"{display}: file too large ({size} bytes > {MAX_PDF_BYTES})")
    return path.read_bytes(), display


class PdfPages:
    """The page sequence :func:`medfig.pdf.page.read_page` reads from: ``pages[i]`` is an
    open pypdfium2 page (close it after reading). It shares the document returned next to
    it by :func:`open_pdf`; closing it is a no-op (the document is closed by its owner).
    It stands where a ``pdfplumber.PDF`` stood before medfig read pages with PDFium."""

    def __init__(self, doc: pdfium.PdfDocument):
        self._doc = doc

    @property
    def pages(self) -> pdfium.PdfDocument:
        return self._doc

    def close(self) -> None:
        pass


def open_pdf(data: bytes, display: str) -> tuple[pdfium.PdfDocument, PdfPages]:
    """The document and its pages over the bytes; raises PdfExtractionError with the reason."""
    if not data:
        raise PdfExtractionError(f"{display}: empty file (0 bytes)")
    if b"%PDF-" not in data[:1024]:  # the header may follow a little junk, as readers allow
        head = data[:16]
        raise PdfExtractionError(f"{display}: not a PDF (no %PDF- header; starts with {head!r})")
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        # PDFium's error code outlives the call that set it, so "password" alone could be a
        # previous document's error: an encrypted PDF also carries an /Encrypt dictionary.
        stale_password = "password" in msg.lower() and b"/Encrypt" not in data
        if "password" in msg.lower() and not stale_password:
            raise PdfExtractionError(f"{display}: encrypted PDF (a password is needed to open it)") from exc
        if "PDFium: Success" in msg or stale_password:  # refused without setting a reason: no usable page tree
            raise PdfExtractionError(f"{display}: the PDF has no pages (empty or unreadable page tree)") from exc
        raise PdfExtractionError(f"{display}: damaged or truncated PDF ({msg})") from exc
    if len(doc) == 0:
        doc.close()
        raise PdfExtractionError(f"{display}: the PDF has no pages")
    return doc, PdfPages(doc)
