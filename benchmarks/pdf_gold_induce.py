"""Induce gold figure/table boxes for real biomedical PDFs that have JATS XML beside them.

    python benchmarks/pdf_gold_induce.py [--out benchmarks/gold/pdf_figures/induced] [--draw /tmp/gold_pages]

Independent of medfig's extractor (no layout detector, no medfig.pdf region code):
1. Captions: each JATS caption (label + text, from medfig.jats.parse) is located in the
   page text by fuzzy substring alignment (rapidfuzz partial_ratio_alignment on
   alphanumerics only, so missing spaces and hyphenation do not matter); the caption box
   is the union of the words that the aligned span covers.
2. Figure boxes: where the package has the figure file (eLife/MECA TIFFs), multi-scale
   template matching (OpenCV TM_CCOEFF_NORMED, 45 scales 10%-95% of the page width,
   rejected below 0.8) on the page rendered at 72 dpi. Otherwise whitespace-band rule
   (pdffigures2-like): everything drawn or written between the caption and the nearest
   body-text paragraph on the graphic side, within the caption's columns.
3. Tables: the rows and rules below the table caption down to the first vertical gap
   larger than 1.5 lines, cut at the lowest full-width rule (footnotes out).

The induced boxes are then CHECKED BY EYE on rendered pages (--draw) and corrected in
benchmarks/gold/pdf_figures/corrections.json; benchmarks/pdf_gold_build.py applies the
corrections and writes the final gold files. See benchmarks/gold/pdf_figures/README.md.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pdfplumber
import pypdfium2 as pdfium
from rapidfuzz import fuzz

from medfig.jats.parse import parse_jats

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
OUT = Path(__file__).resolve().parent / "gold" / "pdf_figures"


def corpus() -> list[dict]:
    """(key, pdf, xml, figure files) for every PDF with JATS beside it."""
    items = []
    for d in sorted((DATA / "pmc_hindawi_xml_pdf").glob("PMC*")):
        items.append(dict(key=d.name, pdf=d / "fulltext.pdf", xml=d / "fulltext.xml", files={}))
    for d in sorted((DATA / "elife_xml_pdf_pairs").glob("elife-*")):
        items.append(dict(key=d.name.split("-vor")[0], pdf=next(d.glob("*.pdf")), xml=next(d.glob("*.xml")), files={}))
    pk = DATA / "jats_pdf_figure_packages"
    items.append(dict(key="elife-00353", pdf=pk / "elife-00353_vor/elife-00353-v1.pdf", xml=pk / "elife-00353_vor/elife-00353-v1.xml",
                      files={"fig1": pk / "elife-00353_vor/elife-00353-fig1-v1.tif"}))
    items.append(dict(key="elife-19405", pdf=pk / "elife-19405_pmc_deposit/elife-19405.pdf", xml=pk / "elife-19405_pmc_deposit/elife-19405.xml",
                      files={"fig1": pk / "elife-19405_pmc_deposit/elife-19405-fig1.tif"}))
    items.append(dict(key="medrxiv-24301711", pdf=pk / "medrxiv-24301711_meca/content/24301711.pdf",
                      xml=pk / "medrxiv-24301711_meca/content/24301711.xml",
                      files={"F1": pk / "medrxiv-24301711_meca/content/24301711v1_fig1.tif"}))
    return items


def _alnum(s: str) -> str:
    return re.sub(r"[^0-9a-z]", "", s.lower())


class PageText:
    def __init__(self, page):
        self.words = page.extract_words(x_tolerance_ratio=0.15, extra_attrs=["size"], use_text_flow=True)
        self.text = ""
        self.owner: list[int] = []
        for i, w in enumerate(self.words):
            a = _alnum(w["text"])
            self.text += a
            self.owner += [i] * len(a)

    def locate(self, needle: str) -> tuple[float, list[int]]:
        needle = _alnum(needle)
        if not needle or not self.text:
            return 0.0, []
        al = fuzz.partial_ratio_alignment(needle, self.text, score_cutoff=0)
        if al is None:
            return 0.0, []
        words = sorted(set(self.owner[al.dest_start:al.dest_end]))
        return al.score, words


def locate_caption(pages: list[PageText], label: str, caption: str) -> tuple[int, list[int], float] | None:
    needle = f"{label or ''} {caption}"
    head = needle[:300]
    best = None
    for p, pt in enumerate(pages):
        score, words = pt.locate(head)
        if best is None or score > best[2]:
            best = (p, words, score)
    if best is None or best[2] < 80:
        return None
    p = best[0]
    # extend to the whole caption: align the full text on that page
    score, words = pages[p].locate(needle)
    if score >= 80:
        return p, words, score
    return best


def _caption_words(words, widx, label):
    """Trim an aligned span to the caption: start at the label word, keep the label's font size."""
    first = _alnum(label.split()[0])[:3]
    for k, i in enumerate(widx):
        if _alnum(words[i]["text"]).startswith(first):
            widx = widx[k:]
            break
    size = words[widx[0]]["size"] if widx else 0
    return [i for i in widx if abs(words[i]["size"] - size) < 0.5]


def _extend_caption(words, cap, size):
    """The fuzzy span can stop a few words short: add the rest of the caption's last line,
    then up to 3 lines directly below that start at the caption's left edge (same size)."""
    same = [w for w in words if abs(w["size"] - size) < 0.3 and w["x0"] >= cap[0] - 2 and w["x1"] <= cap[2] + 2]
    cap = union([cap, *[(w["x0"], w["top"], w["x1"], w["bottom"]) for w in same if abs(w["bottom"] - cap[3]) < 1.5]])
    for _ in range(3):
        below = [w for w in same if 0 < w["top"] - cap[3] < 0.4 * size]
        if not below:
            break
        row_bottom = min(w["bottom"] for w in below)
        row = [w for w in below if abs(w["bottom"] - row_bottom) < 1.5]
        if min(w["x0"] for w in row) > cap[0] + 3:
            break  # not a caption line: captions are left-aligned (justified)
        cap = union([cap, *[(w["x0"], w["top"], w["x1"], w["bottom"]) for w in row]])
    return cap


def union(boxes):
    boxes = list(boxes)
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]


def _lines(words):
    rows = []
    for w in sorted(words, key=lambda w: (round(w["bottom"]), w["x0"])):
        if rows and abs(rows[-1][-1]["bottom"] - w["bottom"]) < 2 and w["x0"] - rows[-1][-1]["x1"] < 12:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [dict(box=union([(w["x0"], w["top"], w["x1"], w["bottom"]) for w in r]), size=max(w["size"] for w in r),
                 n=sum(len(w["text"]) for w in r)) for r in rows]


def page_objects(page):
    objs = []
    for im in page.images:
        objs.append([max(0, im["x0"]), max(0, im["top"]), min(page.width, im["x1"]), min(page.height, im["bottom"])])
    for o in (*page.rects, *page.lines, *page.curves):
        if (o["x1"] - o["x0"]) * (o["bottom"] - o["top"]) > 0.5 * page.width * page.height:
            continue
        if not o.get("stroke") and not o.get("fill"):
            continue
        col = o.get("non_stroking_color")
        vals = list(col) if isinstance(col, (list, tuple)) else [col] if isinstance(col, (int, float)) else []
        white = bool(vals) and all(isinstance(v, (int, float)) for v in vals) and (
            all(v <= 0.01 for v in vals) if len(vals) == 4 else all(v >= 0.99 for v in vals))
        if o.get("fill") and not o.get("stroke") and white:
            continue  # an invisible white background is not part of what the reader sees
        objs.append([o["x0"], o["top"], o["x1"], o["bottom"]])
    return objs


def band_region(page, pt: PageText, cap_box, side: str, body_size: float, is_table: bool, other_caps=()):
    """Everything drawn or written in the band next to the caption, up to body text.

    Only objects within the caption's horizontal span count. Barriers: a body-text line
    (>= 50 characters, not much smaller than body text; for tables, a gap > 1.6 lines), another caption,
    the running header (above y = 58 pt).
    """
    x0, x1 = cap_box[0] - 12, cap_box[2] + 12
    if is_table and (cap_box[2] - cap_box[0]) < 0.7 * page.width:
        centre = (cap_box[0] + cap_box[2]) / 2
        text_x0 = min((w["x0"] for w in pt.words), default=0)
        text_x1 = max((w["x1"] for w in pt.words), default=page.width)
        if abs(centre - page.width / 2) < 0.08 * page.width:
            x0, x1 = text_x0 - 2, text_x1 + 2  # a centred caption heads a page-wide table
        elif centre < page.width / 2:
            x0, x1 = text_x0 - 2, page.width / 2  # left column
        else:
            x0, x1 = page.width / 2, text_x1 + 2  # right column
    inspan = lambda b: b[0] >= x0 and b[2] <= x1
    words = [w for w in pt.words if inspan((w["x0"], w["top"], w["x1"], w["bottom"]))]
    lines = _lines(words)
    items = [dict(box=o, kind="obj") for o in page_objects(page) if inspan(o)]
    for l in lines:
        body = (not is_table) and l["n"] >= 50
        items.append(dict(box=l["box"], kind="line", body=body))
    barriers = [list(c) for c in other_caps if min(c[2], x1) - max(c[0], x0) > 0]  # in this caption's columns
    overlaps = lambda a, b: min(a[2], b[2]) - max(a[0], b[0]) >= -0.5 and min(a[3], b[3]) - max(a[1], b[1]) >= -0.5
    items = [i for i in items if not any(overlaps(i["box"], b) for b in barriers)]
    items += [dict(box=b, kind="caption", body=True) for b in barriers]
    if side == "above":
        cand = sorted([i for i in items if i["box"][3] <= cap_box[1] + 1], key=lambda i: -i["box"][3])
        edge = cap_box[1]
    else:
        cand = sorted([i for i in items if i["box"][1] >= cap_box[3] - 1], key=lambda i: i["box"][1])
        edge = cap_box[3]
    taken = []
    limit_gap = 1.6 * body_size if is_table else 40
    for it in cand:
        b = it["box"]
        gap = (edge - b[3]) if side == "above" else (b[1] - edge)
        if it.get("body") or gap > limit_gap or (side == "above" and b[3] < 58):
            break
        taken.append(b)
        edge = min(edge, b[1]) if side == "above" else max(edge, b[3])
    box = union(taken)
    if box is None:
        return None
    if is_table:
        rules = [o for o in page_objects(page) if (o[3] - o[1]) < 2 and (o[2] - o[0]) > 0.8 * (box[2] - box[0])
                 and box[1] - 1 <= o[1] <= box[3] + 1]
        if rules:
            box[3] = max(r[3] for r in rules)
    return box


def template_match(pdf_doc, page_index: int, fig_file: Path, page_w: float):
    page_img = np.asarray(pdf_doc[page_index].render(scale=1.0).to_pil().convert("L"))
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None
    tmpl0 = np.asarray(Image.open(fig_file).convert("L"))
    best = (0.0, None)
    H, W = page_img.shape
    for s in np.linspace(0.10, 0.95, 45):
        tw = int(W * s)
        th = int(tmpl0.shape[0] * tw / tmpl0.shape[1])
        if tw < 10 or th < 10 or th > H:
            continue
        t = cv2.resize(tmpl0, (tw, th), interpolation=cv2.INTER_AREA)
        r = cv2.matchTemplate(page_img, t, cv2.TM_CCOEFF_NORMED)
        _, mx, _, loc = cv2.minMaxLoc(r)
        if mx > best[0]:
            best = (mx, [float(loc[0]), float(loc[1]), float(loc[0] + tw), float(loc[1] + th)])
    return best


def induce(item: dict) -> dict:
    art = parse_jats(item["xml"].read_bytes(), key=item["key"])
    pl = pdfplumber.open(item["pdf"])
    doc = pdfium.PdfDocument(str(item["pdf"]))
    pts = [PageText(p) for p in pl.pages]
    out = dict(key=item["key"], pdf=str(item["pdf"].relative_to(DATA)), n_pages=len(pl.pages), figures=[], missing=[])
    entries = [(f.figure_id, "Figure", f.label, f.caption) for f in art.figures] + [(t.table_id, "Table", t.label, t.caption) for t in art.tables]
    located = []
    for fid, ftype, label, caption in entries:
        if not label:
            out["missing"].append(dict(id=fid, reason="no label in XML"))
            continue
        loc = locate_caption(pts, label, caption)
        if loc is None:
            out["missing"].append(dict(id=fid, label=label, reason="caption not found in PDF text"))
            continue
        p, widx, score = loc
        widx = _caption_words(pts[p].words, widx, label)
        cap = union([(pts[p].words[i]["x0"], pts[p].words[i]["top"], pts[p].words[i]["x1"], pts[p].words[i]["bottom"]) for i in widx])
        cap = _extend_caption(pts[p].words, cap, pts[p].words[widx[-1]]["size"]) if widx else cap
        located.append((fid, ftype, label, caption, p, cap, score))
    table_regions: dict[int, list] = {}
    located.sort(key=lambda e: e[1] != "Table")  # tables first: their regions bar figures
    for fid, ftype, label, caption, p, cap, score in located:
        page = pl.pages[p]
        others = [c for (f2, _, _, _, p2, c, _) in located if p2 == p and f2 != fid] + table_regions.get(p, [])
        sizes = [w["size"] for w in pts[p].words]
        body = max(set(round(s, 1) for s in sizes), key=[round(s, 1) for s in sizes].count) if sizes else 10
        method, box, tm = "band", None, None
        if fid in item["files"]:
            tm_score, tm_box = template_match(doc, p, item["files"][fid], page.width)
            tm = round(tm_score, 3)
            if tm_score >= 0.8:
                box, method = tm_box, "template"
        if box is None:
            box = band_region(page, pts[p], cap, "below" if ftype == "Table" else "above", body, ftype == "Table", others)
            if box is None and ftype != "Table":
                box = band_region(page, pts[p], cap, "below", body, False, others)
        if ftype == "Table" and box is not None:
            table_regions.setdefault(p, []).append(box)
        out["figures"].append(dict(id=fid, name=label, fig_type=ftype, page=p, caption_box=[round(v, 2) for v in cap],
                                   box=None if box is None else [round(v, 2) for v in box], caption_match=round(score, 1),
                                   method=method, template_score=tm, caption=caption[:200]))
    pl.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT / "induced")
    ap.add_argument("--draw", type=Path, default=None)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for item in corpus():
        if a.only and a.only not in item["key"]:
            continue
        res = induce(item)
        (a.out / f"{item['key']}.json").write_text(json.dumps(res, indent=1))
        print(f"{item['key']:18s} pages={res['n_pages']:3d} found={len(res['figures'])} missing={len(res['missing'])} "
              + " ".join(f"{f['name']}@{f['page']}:{f['method']}{'' if f['box'] else '(nobox)'}" for f in res["figures"]))
        if a.draw:
            import sys
            sys.path.insert(0, str(Path(__file__).parent))
            from pdf_draw import draw
            draw(item["pdf"], [f for f in res["figures"]], a.draw / item["key"])


if __name__ == "__main__":
    main()
