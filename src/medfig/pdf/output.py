"""Write an extraction: one JSON per PDF (medfig or pdffigures2 schema) + one crop per figure.

Crops are rendered with pypdfium2 from the page region (so vector art and PDF-text panel
letters are in them). ``native=True`` (and ``medfig build`` always) renders each crop at the
resolution of the sharpest embedded raster inside it (:func:`crop_dpi`: its source pixels
per point, capped at ``MAX_NATIVE_DPI``, never below ``dpi``), so a raster figure keeps its
pixel count instead of being resampled down to ``dpi``.
Every crop is held to the pixel budget (:data:`medfig.images.MAX_IMAGE_PIXELS`): a box that
would render larger (a poster page at 600 dpi) is rendered at the highest dpi that fits.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from medfig.geometry import inside_fraction, rounded
from medfig.images import MAX_IMAGE_PIXELS
from medfig.io import atomic_write_bytes, atomic_write_json
from medfig.pdf.types import ExtractedFigure, PdfExtraction

MAX_NATIVE_DPI = 600.0
SCHEMA = "medfig.pdf_figures/1"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "figure"


def raster_dpi(page, box_pt) -> float | None:
    """Source pixels per inch of the sharpest embedded raster that lies mostly inside ``box_pt``.

    ``page`` is an open pypdfium2 page; ``box_pt`` is in PDF points, origin top-left. The
    density is read from each image object's own matrix (pixels over the length its axes
    are drawn at), so rotated and sheared images count right. None: no raster in the box
    (vector art, which has no native resolution)."""
    import pypdfium2.raw as pdfium_c

    page_height = page.get_height()
    best = None
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=4):
        left, bottom, right, top = image.get_bounds()
        bounds = (left, page_height - top, right, page_height - bottom)
        if inside_fraction(bounds, box_pt) < 0.5:
            continue
        width_px, height_px = image.get_px_size()
        a, b, c, d = (image.get_matrix().get()[i] for i in range(4))
        x_len, y_len = (a * a + b * b) ** 0.5, (c * c + d * d) ** 0.5  # points the image's axes span
        if x_len < 1e-3 or y_len < 1e-3 or width_px < 1 or height_px < 1:
            continue
        dpi = max(width_px / x_len, height_px / y_len) * 72.0
        best = dpi if best is None else max(best, dpi)
    return best


def crop_dpi(page, box_pt, floor_dpi: float, max_dpi: float = MAX_NATIVE_DPI) -> float:
    """The resolution a figure crop is rendered at: its rasters' own (capped at ``max_dpi``), at least ``floor_dpi``.

    A photo embedded at 300 dpi keeps its pixels; vector art and low-resolution rasters
    get ``floor_dpi``; the result is held to the pixel budget."""
    native = raster_dpi(page, box_pt)
    dpi = floor_dpi if native is None else max(floor_dpi, min(native, max_dpi))
    return budget_dpi(box_pt, dpi)


def budget_dpi(box_pt, dpi: float) -> float:
    """``dpi``, lowered where the render of ``box_pt`` (points) would be over the pixel budget."""
    x0, y0, x1, y1 = box_pt
    area_pt = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    # +1 px a side: pypdfium2 rounds the bitmap size up
    if area_pt <= 0 or (abs(x1 - x0) * dpi / 72.0 + 1) * (abs(y1 - y0) * dpi / 72.0 + 1) <= MAX_IMAGE_PIXELS:
        return dpi
    return 72.0 * (MAX_IMAGE_PIXELS / area_pt) ** 0.5 * 0.99


def render_box(page, box_pt, dpi: float, turn_deg: int = 0) -> Image.Image:
    """``box_pt`` (points, origin top-left) of an open pypdfium2 page rendered as an RGB image at ``dpi``
    (lowered to the pixel budget). ``turn_deg``: clockwise turn applied to the rendered crop (sideways
    content reads upright)."""
    w, h = page.get_size()
    x0, y0, x1, y1 = box_pt
    # pypdfium2 crop = points cut from the left, bottom, right, top page edges
    crop = (max(0.0, x0), max(0.0, h - y1), max(0.0, w - x1), max(0.0, y0))
    dpi = budget_dpi((max(0.0, x0), max(0.0, y0), min(w, x1), min(h, y1)), dpi)
    img = page.render(scale=dpi / 72.0, crop=crop).to_pil().convert("RGB")
    if turn_deg % 360:
        img = img.rotate(-turn_deg, expand=True)  # PIL turns counter-clockwise for positive angles
    return img


def encode_png(img: Image.Image) -> bytes:
    """A crop as PNG bytes. zlib level 1: a quarter of level 6's CPU on photos for ~6% larger files
    (crops are rendered at full resolution)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def render_box_png(page, box_pt, dpi: float, turn_deg: int = 0) -> tuple[bytes, int, int]:
    """:func:`render_box` as PNG bytes; (png, width, height)."""
    img = render_box(page, box_pt, dpi, turn_deg)
    return encode_png(img), img.width, img.height


def write_crops(pdf_bytes: bytes, result: PdfExtraction, out_dir: Path, stem: str, dpi: float = 150.0,
                native: bool = False) -> None:
    """Render every figure region to ``out_dir/{stem}-{name}.png``; fills ``image_file``/``image_size_px``."""
    if not result.figures:
        return
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        for fig in result.figures:
            page = doc[fig.page]
            use_dpi = crop_dpi(page, fig.box_pt, dpi) if native else budget_dpi(fig.box_pt, dpi)
            png, width, height = render_box_png(page, fig.box_pt, use_dpi, fig.reading_turn_deg)
            page.close()
            name = f"{stem}-{_slug(fig.name)}.png"
            atomic_write_bytes(out_dir / name, png)
            fig.image_file = name
            fig.image_size_px = (width, height)
            fig.render_dpi = round(use_dpi, 2)
    finally:
        doc.close()


def to_medfig_json(result: PdfExtraction) -> dict:
    def item(f: ExtractedFigure) -> dict:
        return dict(name=f.name, fig_type=f.fig_type, label=f.label, number=f.number, page=f.page,
                    box=rounded(f.box_pt), caption_box=rounded(f.caption_box_pt), caption=f.caption, source=f.source,
                    pair_distance_pt=f.pair_distance_pt, image_file=f.image_file,
                    image_size_px=list(f.image_size_px) if f.image_size_px else None, render_dpi=f.render_dpi,
                    regionless_reason=f.regionless_reason)

    return dict(
        schema=SCHEMA,
        pdf=result.pdf,
        n_pages=result.n_pages,
        page_sizes_pt=[[round(w, 2), round(h, 2)] for w, h in result.page_sizes_pt],
        coordinates="PDF points, origin top-left of the page, [x0, y0, x1, y1]; page 0-based",
        figures=[item(f) for f in result.figures],
        regionless=[item(f) for f in result.regionless],
        uncaptioned_regions=[dict(page=p, box=rounded(b), source=s) for p, b, s in result.uncaptioned_regions],
        seconds=round(result.seconds, 3),
        warnings=result.warnings,
    )


def to_pdffigures2_json(result: PdfExtraction, dpi: float) -> list[dict]:
    """pdffigures2's figure list: name is the bare number, boxes {x1,y1,x2,y2} in points."""

    def bound(b) -> dict:
        return dict(x1=round(b[0], 2), y1=round(b[1], 2), x2=round(b[2], 2), y2=round(b[3], 2))

    out = []
    for f in result.figures:
        out.append(dict(name=f.number, figType=f.fig_type, page=f.page, caption=f.caption,
                        captionBoundary=bound(f.caption_box_pt), regionBoundary=bound(f.box_pt),
                        renderDpi=f.render_dpi or dpi, renderURL=f.image_file or "", imageText=[]))
    return out


def write_extraction(pdf_bytes: bytes, result: PdfExtraction, out_dir: Path, stem: str, *, dpi: float = 150.0,
                     native: bool = False, fmt: str = "medfig", crops: bool = True) -> Path:
    out_dir = Path(out_dir)
    if crops:
        write_crops(pdf_bytes, result, out_dir, stem, dpi=dpi, native=native)
    path = out_dir / f"{stem}.json"
    doc = to_pdffigures2_json(result, dpi) if fmt == "pdffigures2" else to_medfig_json(result)
    atomic_write_json(path, doc)
    return path
