"""Write the checked gold set from induced boxes and the list of eye-checked pages.

    python tools/gold/pdf_gold_induce.py          # induced/*.json (independent of medfig.pdf)
    python tools/gold/pdf_gold_build.py           # gold.json: only pages in checked_pages.json
    python tools/gold/pdf_gold_build.py --gold-dir benchmarks/gold/pdf_figures_dev

A gold folder holds ``induced/{key}.json``, ``checked_pages*.json`` and ``corrections*.json``
(several files are merged, so annotators working on different articles never edit the same file).
Papers of pmc_dev_corpus carry their ``publisher`` (folder prefix) and ``split`` (development or
heldout, from ``benchmarks/heldout_publishers.json``).

gold.json: {"papers": [{"key", "pdf" (relative to shared/data), "pages" (checked, 0-based),
"figures": [{"name", "fig_type", "page", "box", "caption_box", "method"}]}]}, boxes in
PDF points, origin top-left, [x0, y0, x1, y1].
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from harness import DATA  # noqa: E402
from harness import GOLD as GOLD_SETS  # noqa: E402

GOLD = GOLD_SETS / "pdf_figures"
HELDOUT = json.loads((GOLD_SETS.parent / "heldout_publishers.json").read_text())


def merged(folder: Path, pattern: str, key: str | None = None) -> dict:
    """Union of the JSON objects of ``folder/pattern`` files (``key``: take that member of each); a key in two files is an error."""
    out: dict = {}
    for path in sorted(folder.glob(pattern)):
        part = json.loads(path.read_text())
        part = part.get(key, {}) if key else part
        for k, v in part.items():
            if k.startswith("_"):
                continue
            if k in out:
                raise SystemExit(f"{path}: {k} is also in another {pattern} file")
            out[k] = v
    return out


def snap(pdf: Path, page: int, rough: list[float]) -> list[float]:
    """Union of the page's images, paths and words lying >= 90% inside a hand-drawn rough box."""
    import pdfplumber

    def inside(b) -> bool:
        a = max(1e-6, (b[2] - b[0]) * (b[3] - b[1]))
        ix = max(0.0, min(b[2], rough[2]) - max(b[0], rough[0]))
        iy = max(0.0, min(b[3], rough[3]) - max(b[1], rough[1]))
        if (b[2] - b[0]) < 1e-3 or (b[3] - b[1]) < 1e-3:  # lines: test the extent instead of the area
            return rough[0] - 0.5 <= b[0] and b[2] <= rough[2] + 0.5 and rough[1] - 0.5 <= b[1] and b[3] <= rough[3] + 0.5
        return ix * iy / a >= 0.9

    with pdfplumber.open(pdf) as pl:
        pg = pl.pages[page]
        boxes = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in (*pg.images, *pg.rects, *pg.lines, *pg.curves)]
        boxes += [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in pg.extract_words(x_tolerance_ratio=0.15)]
    inner = [b for b in boxes if inside(b)]
    if not inner:
        raise SystemExit(f"{pdf} page {page}: nothing inside the rough box {rough}")
    return [round(min(b[0] for b in inner), 2), round(min(b[1] for b in inner), 2),
            round(max(b[2] for b in inner), 2), round(max(b[3] for b in inner), 2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold-dir", type=Path, default=GOLD)
    gold_dir = ap.parse_args().gold_dir
    checked = merged(gold_dir, "checked_pages*.json", key="checked")
    corrections = merged(gold_dir, "corrections*.json")
    papers = []
    for key, pages in sorted(checked.items()):
        induced = json.loads((gold_dir / "induced" / f"{key}.json").read_text())
        figs = [dict(name=f["name"], fig_type=f["fig_type"], page=f["page"], box=f["box"], caption_box=f["caption_box"],
                     method=f["method"]) for f in induced["figures"]]
        for f in figs:
            fix = corrections.get(key, {}).get(f["name"])
            if not fix:
                continue
            f["page"] = fix.get("page", f["page"])
            if "box" in fix:
                f["box"], f["method"] = fix["box"], "hand"
            if "rough" in fix:
                f["box"], f["method"] = snap(DATA / induced["pdf"], f["page"], fix["rough"]), "hand-snapped"
            if "caption_rough" in fix:
                f["caption_box"] = snap(DATA / induced["pdf"], f["page"], fix["caption_rough"])
        for name, fix in corrections.get(key, {}).items():
            if "add" in fix:  # an entry the induction did not produce
                figs.append(dict(name=name, fig_type=fix.get("fig_type", "Figure"), page=fix["page"],
                                 box=fix["box"] if "box" in fix else snap(DATA / induced["pdf"], fix["page"], fix["rough"]),
                                 caption_box=snap(DATA / induced["pdf"], fix["page"], fix["caption_rough"]), method="hand-snapped"))
        figs = [f for f in figs if f["page"] in pages]
        for f in figs:  # a rough box that took in a frame around art and caption shows up here
            b, c = f["box"], f["caption_box"]
            if b and c and min(b[2], c[2]) - max(b[0], c[0]) > 1 and min(b[3], c[3]) - max(b[1], c[1]) > 1:
                print(f"warning: {key} {f['name']} page {f['page']}: box {b} overlaps its caption box {c}")
        missing_box = [f["name"] for f in figs if not f["box"]]
        if missing_box:
            raise SystemExit(f"{key}: checked page has an entry without a box: {missing_box}")
        paper = dict(key=key, pdf=induced["pdf"], n_pages=induced["n_pages"], pages=pages, figures=figs)
        if induced["pdf"].startswith("pmc_dev_corpus/"):
            paper["publisher"] = key.split("_")[0]
            paper["split"] = "heldout" if paper["publisher"] in HELDOUT["heldout"] else "development"
        papers.append(paper)
    out = dict(schema="medfig.pdf_gold/1", coordinates="PDF points, origin top-left, [x0, y0, x1, y1], page 0-based",
               papers=papers)
    (gold_dir / "gold.json").write_text(json.dumps(out, indent=1) + "\n")
    n = sum(len(p["figures"]) for p in papers)
    nt = sum(1 for p in papers for f in p["figures"] if f["fig_type"] == "Table")
    print(f"{gold_dir / 'gold.json'}: {len(papers)} papers, {sum(len(p['pages']) for p in papers)} pages, {n - nt} figures, {nt} tables")


if __name__ == "__main__":
    main()
