"""Real compound figures for the subfigure gold set: where they come from and how to get their pixels.

Sources (all read in place from ../shared/data, nothing copied into the repo):

- ``medicat``: the 10 MedICaT sample PNGs (captions from sample.jsonl).
- ``exsclaim``: the 5 CC BY Nature Communications figures of the EXSCLAIM test data.
- ``pdf``: figures inside the Hindawi and eLife PDFs. A figure is the union of the
  embedded image objects that sit above its "Figure N" caption line on the page (plus
  the panel-letter text lines between them), rendered with pypdfium2 at
  ``RENDER_SCALE`` and cropped. The caption is the JATS XML caption of that figure.

Every figure has a stable ``figure_key``; ``load_image(source)`` rebuilds the exact pixels
the gold boxes refer to (render + crop is deterministic), so only the annotation JSON is
committed. ``python benchmarks/compound_real_figures.py --list`` prints what is found;
``--export DIR`` writes the images (used to look at them while annotating).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from functools import lru_cache
from pathlib import Path

from PIL import Image

from harness import DATA

RENDER_SCALE = 2.0  # 144 dpi
_CAPTION_LINE = re.compile(r"^(?:Figure|FIGURE|Fig\.?)\s*(\d+)\s*[:.]")

# PDF figures left out of the real gold set after looking at them (tools/gold/compound_build_gold.py):
# their embedded image objects are not the panels. compound_synthetic.py cuts no tiles from them.
EXCLUDED = {
    "PMC4657150/fig1": "panel (c) spans blots below the size cut",
    "PMC4709619/fig1": "vector chart axes", "PMC4709619/fig2": "vector chart axes", "PMC4709619/fig3": "vector chart axes",
    "PMC4736587/fig1": "three photos, caption labels two",
    "PMC4738714/fig1": "crop spans two columns", "PMC4738714/fig4": "crop spans two columns",
    "PMC4738934/fig7": "a1/a2/b1/b2 labels", "PMC4738934/fig9": "a1/a2/b1/b2 labels",
    "PMC4745290/fig2": "panel pieces", "PMC4745298/fig1": "panel pieces", "PMC4745298/fig2": "panel pieces",
}
# single embedded images that are compound inside: no panel boxes to give, so not negatives either
SINGLE_EXCLUDED = {
    "PMC4657150/fig2": "chart + blots", "PMC4739223/fig2": "two radiographs in one image",
    "PMC4745307/fig1": "two panels in one image", "PMC4745307/fig2": "two panels in one image",
    **{f"elife-04177-vor-r1/fig{i}": "multi-panel charts in one image" for i in range(1, 6)},
}


def _xml_captions(xml_path: Path) -> dict[str, str]:
    """Figure number -> full JATS caption (label stripped)."""
    from medfig.jats.parse import parse_jats

    article = parse_jats(xml_path.read_bytes(), key=xml_path.parent.name)
    out: dict[str, str] = {}
    for fig in article.figures:
        m = re.search(r"(\d+)", fig.label or "")
        if m and fig.fig_type != "figure-supplement" and m[1] not in out:
            out[m[1]] = fig.caption
    return out


def pdf_figures(pdf_path: Path, xml_path: Path) -> list[dict]:
    """Figure regions (PDF points, origin top-left) with their embedded image boxes."""
    import pdfplumber

    captions = _xml_captions(xml_path)
    found: list[dict] = []
    with pdfplumber.open(pdf_path) as pdf:
        for page_index, page in enumerate(pdf.pages):
            images = [
                (im["x0"], im["top"], im["x1"], im["bottom"])
                for im in page.images
                if im["x1"] - im["x0"] > 40 and im["bottom"] - im["top"] > 40
            ]
            if not images:
                continue
            lines = page.extract_text_lines()
            above = 0.0
            for line in lines:
                m = _CAPTION_LINE.match(line["text"])
                if not m:
                    continue
                mine = [b for b in images if b[1] >= above - 1 and b[3] <= line["top"] + 1]
                above = line["bottom"]
                if not mine or m[1] not in captions:
                    continue
                x0 = min(b[0] for b in mine)
                y0 = min(b[1] for b in mine)
                x1 = max(b[2] for b in mine)
                y1 = max(b[3] for b in mine)
                # panel-letter lines between the images and the caption belong to the figure
                for other in lines:
                    if other is line or other["top"] < y0 - 1 or other["bottom"] > line["top"]:
                        continue
                    if len(other["text"]) <= 40:
                        x0, y0 = min(x0, other["x0"]), min(y0, other["top"])
                        x1, y1 = max(x1, other["x1"]), max(y1, other["bottom"])
                clip = [round(x0 - 3, 2), round(y0 - 3, 2), round(x1 + 3, 2), round(min(y1 + 3, line["top"] - 1), 2)]
                found.append(
                    {
                        "figure_number": m[1],
                        "page": page_index,
                        "clip_pt": clip,
                        "image_boxes_pt": [list(map(lambda v: round(v, 2), b)) for b in mine],
                        "caption": captions[m[1]],
                    }
                )
    return found


@lru_cache(maxsize=64)
def _render_page(pdf_path: str, page: int, scale: float) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf_path)
    try:
        return doc[page].render(scale=scale).to_pil().convert("RGB")
    finally:
        doc.close()


# Native resolution is capped so a 600-dpi scan renders in bounded time and memory; 6 = 432 dpi.
MAX_NATIVE_SCALE = 6.0


def native_scale(source: dict) -> float:
    """Pixels per PDF point of the embedded images inside a ``pdf`` source's clip: the resolution
    the publisher's figure file had (the largest of its images), ``RENDER_SCALE`` when the clip
    holds no raster image (a vector drawing has no native size). Rendering the page at this scale
    gives the figure at about the size of the file PMC distributes, with its text as sharp as
    printed -- unlike resizing the 144-dpi crop, which only blurs it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    if source["kind"] != "pdf":
        return RENDER_SCALE
    doc = pdfium.PdfDocument(str(DATA / source["path"]))
    try:
        page = doc[int(source["page"])]
        height = page.get_height()
        cx0, cy0, cx1, cy1 = source["clip_pt"]
        best = 0.0
        for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=4):
            left, bottom, right, top = obj.get_bounds()
            x0, y0, x1, y1 = left, height - top, right, height - bottom  # origin top-left, like clip_pt
            inside_w = min(x1, cx1) - max(x0, cx0)
            inside_h = min(y1, cy1) - max(y0, cy0)
            if inside_w <= 0 or inside_h <= 0 or inside_w * inside_h < 0.05 * (cx1 - cx0) * (cy1 - cy0):
                continue  # a logo or an image of the next figure
            width_px, height_px = obj.get_px_size()
            if right - left > 1 and top - bottom > 1:
                best = max(best, min(width_px / (right - left), height_px / (top - bottom)))
        return min(max(best, RENDER_SCALE), MAX_NATIVE_SCALE) if best else RENDER_SCALE
    finally:
        doc.close()


def load_image(source: dict) -> Image.Image:
    """Pixels of a gold figure from its ``source`` record."""
    kind = source["kind"]
    path = DATA / source["path"]
    if kind in ("medicat", "exsclaim"):
        return Image.open(path).convert("RGB")
    if kind == "file":
        # a figure file as distributed (JPEG/TIFF); files whose longer side exceeds
        # ``max_side`` are downscaled (Lanczos) so boxes are in the stored image's pixels
        from medfig.images import flat_rgb

        image = flat_rgb(Image.open(path))  # transparent = white page, as `medfig compound` reads it
        if "clip_px" in source:  # a figure region of a page image (PubLayNet), in that image's pixels
            image = image.crop(tuple(int(v) for v in source["clip_px"]))
        max_side = int(source.get("max_side", 0))
        if max_side and max(image.size) > max_side:
            f = max_side / max(image.size)
            image = image.resize((round(image.width * f), round(image.height * f)), Image.LANCZOS)
        return image
    if kind == "pdf":
        scale = float(source.get("render_scale", source["scale"]))
        page = _render_page(str(path), int(source["page"]), scale)
        x0, y0, x1, y1 = (v * scale for v in source["clip_pt"])
        return page.crop((round(x0), round(y0), round(x1), round(y1)))
    raise ValueError(f"unknown gold source kind {kind!r}")


def pdf_sources() -> list[dict]:
    """Every multi-image figure in the Hindawi and eLife PDFs, as gold ``source`` records."""
    out = []
    pairs = [(p, p.parent / "fulltext.xml") for p in sorted((DATA / "pmc_hindawi_xml_pdf").glob("*/fulltext.pdf"))]
    pairs += [(p, p.with_suffix(".xml")) for p in sorted((DATA / "elife_xml_pdf_pairs").glob("*/*.pdf"))]
    for pdf_path, xml_path in pairs:
        try:
            figures = pdf_figures(pdf_path, xml_path)
        except Exception as exc:  # one bad article never stops the listing
            print(f"{pdf_path}: {exc}", file=sys.stderr)
            continue
        for fig in figures:
            rel = pdf_path.relative_to(DATA).as_posix()
            out.append(
                {
                    "figure_key": f"{pdf_path.parent.name}/fig{fig['figure_number']}",
                    "source": {"kind": "pdf", "path": rel, "page": fig["page"], "clip_pt": fig["clip_pt"], "scale": RENDER_SCALE},
                    "caption": fig["caption"],
                    "image_boxes_px": [
                        [
                            round((b[0] - fig["clip_pt"][0]) * RENDER_SCALE),
                            round((b[1] - fig["clip_pt"][1]) * RENDER_SCALE),
                            round((b[2] - fig["clip_pt"][0]) * RENDER_SCALE),
                            round((b[3] - fig["clip_pt"][1]) * RENDER_SCALE),
                        ]
                        for b in fig["image_boxes_pt"]
                    ],
                }
            )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--export", metavar="DIR")
    args = ap.parse_args()
    sources = pdf_sources()
    if args.list:
        for s in sources:
            print(s["figure_key"], len(s["image_boxes_px"]), json.dumps(s["source"]))
    if args.export:
        out = Path(args.export)
        out.mkdir(parents=True, exist_ok=True)
        for s in sources:
            load_image(s["source"]).save(out / (s["figure_key"].replace("/", "_") + ".png"))
        (out / "sources.json").write_text(json.dumps(sources, indent=1))
    print(f"{len(sources)} PDF figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
