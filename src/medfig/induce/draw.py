"""Draw induced boxes on rendered pages (``medfig induce --draw DIR``), to check them by eye.

Green: figure boxes, blue: table boxes, red: caption boxes; the method and score are
written at each box's corner. One PNG per page that holds a box.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from medfig.induce.run import InducedPaper

DPI = 60.0


def draw_paper(pdf: bytes | str | Path, paper: InducedPaper, out_dir: Path, dpi: float = DPI) -> list[Path]:
    """Write ``out_dir/{key}_p{page:02d}.png`` for every page with an induced box; the paths."""
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    s = dpi / 72.0
    written = []
    try:
        pages = sorted({f.page for f in paper.figures if f.page is not None})
        for p in pages:
            img: Image.Image = doc[p].render(scale=s).to_pil().convert("RGB")
            d = ImageDraw.Draw(img)
            for f in paper.figures:
                if f.page != p:
                    continue
                colour = (0, 90, 255) if f.fig_type == "Table" else (0, 170, 0)
                if f.box:
                    d.rectangle([v * s for v in f.box], outline=colour, width=2)
                    score = "" if f.score is None else f" {f.score:.2f}"
                    d.text((f.box[0] * s + 3, f.box[1] * s + 2), f"{f.name} {f.method}{score}", fill=colour)
                if f.caption_box:
                    d.rectangle([v * s for v in f.caption_box], outline=(230, 0, 0), width=1)
            path = out_dir / f"{paper.key}_p{p:02d}.png"
            img.save(path)
            written.append(path)
    finally:
        doc.close()
    return written
