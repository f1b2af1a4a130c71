"""Draw figure/caption boxes on rendered pages, for checking extractions and gold by eye.

    python benchmarks/pdf_draw.py PDF BOXES.json OUT_DIR [--pages 2,3]

BOXES.json: medfig extract output or a gold file (both use ``figures`` with ``page``,
``box``/``box_pt`` and ``caption_box``/``caption_box_pt`` in PDF points, origin top-left).
Green: figure boxes, blue: table boxes, red: caption boxes. One PNG per page with boxes.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

DPI = 60


def draw(pdf: Path, entries: list[dict], out_dir: Path, pages: set[int] | None = None, dpi: float = DPI,
         extra: list[tuple[int, list[float], str]] = ()) -> list[Path]:
    doc = pdfium.PdfDocument(str(pdf))
    by_page: dict[int, list[dict]] = {}
    for e in entries:
        by_page.setdefault(e["page"], []).append(e)
    for p, b, c in extra:
        by_page.setdefault(p, [])
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    s = dpi / 72.0
    for p in sorted(by_page):
        if pages and p not in pages:
            continue
        img = doc[p].render(scale=s).to_pil().convert("RGB")
        d = ImageDraw.Draw(img)
        for e in by_page[p]:
            box = e.get("box") or e.get("box_pt")
            cap = e.get("caption_box") or e.get("caption_box_pt")
            color = (0, 90, 255) if e.get("fig_type", e.get("type", "Figure")) == "Table" else (0, 170, 0)
            if box:
                d.rectangle([v * s for v in box], outline=color, width=2)
                d.text((box[0] * s + 3, box[1] * s + 2), e.get("name", ""), fill=color)
            if cap:
                d.rectangle([v * s for v in cap], outline=(230, 0, 0), width=1)
        for pg, box, colour in extra:
            if pg == p:
                d.rectangle([v * s for v in box], outline=colour, width=1)
        path = out_dir / f"{pdf.parent.name}_{pdf.stem}_p{p:02d}.png"
        img.save(path)
        written.append(path)
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdf", type=Path)
    ap.add_argument("boxes", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--pages", default="")
    ap.add_argument("--dpi", type=float, default=DPI)
    a = ap.parse_args()
    data = json.loads(a.boxes.read_text())
    entries = data["figures"] if isinstance(data, dict) else data
    pages = {int(x) for x in a.pages.split(",") if x} or None
    for p in draw(a.pdf, entries, a.out, pages, a.dpi):
        print(p)


if __name__ == "__main__":
    main()
