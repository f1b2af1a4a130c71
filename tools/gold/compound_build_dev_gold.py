"""Build the cross-publisher development gold (``gold/subfigures/dev_corpus_gold.json``).

Figures of ../shared/data/pmc_dev_corpus (14 publishers), found by
``medfig build ../shared/data/pmc_dev_corpus -o /tmp/h8/ds --no-subfigures``: each figure's
PDF page region (figures.parquet ``pdf_page`` / ``pdf_box``, PDF points, origin top-left)
rendered by pypdfium2 at scale 2 like the older gold sets (source kind ``pdf``).

How the boxes were made (NOTES.md, "Dev corpus gold"):

1. ``--prefill DATASET`` runs medfig's own splitter (``analyze_compound``, code of commit
   c974c4f) on every figure and writes ``prefill.json`` plus contact sheets with the
   proposed boxes drawn and numbered on a 50 px grid, into ``--sheets DIR``.
2. Every sheet was looked at; each figure was classed compound / single / left out, and
   wrong boxes were replaced by boxes read by eye on the grid. ``ANNOTATIONS`` holds the
   final boxes; a comment on a figure says what was corrected and why ("as proposed" = the
   splitter's box was kept).
3. Labels are the letters printed in the image; subcaptions are verbatim caption spans
   chosen by hand by first and last words (``_span``), MedICaT style (panel's own words;
   title / text shared by all panels, statistics boilerplate and scale left out; "(a, b)"
   text given to both panels). Not drafted by medfig's caption parser.

Each record names its ``publisher`` (folder prefix); ``split`` is ``dev`` for development
publishers and ``heldout`` for the held-out ones of ``benchmarks/heldout_publishers.json``.

    .venv/bin/python tools/gold/compound_build_dev_gold.py --prefill /tmp/h8/ds --sheets /tmp/h8/sheets
    .venv/bin/python tools/gold/compound_build_dev_gold.py [--grid DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # harness, compound_real_figures
from compound_real_figures import load_image  # noqa: E402
from harness import DATA, GOLD  # noqa: E402

OUT = GOLD / "subfigures" / "dev_corpus_gold.json"
HELDOUT = json.loads((Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_publishers.json").read_text())
SCALE = 2.0

from compound_dev_annotations import ANNOTATIONS, CLIPS, SINGLE  # noqa: E402


def _span(caption: str, first: str, last: str) -> str:
    """Verbatim caption text from ``first`` to the next ``last``; ``"2#words"`` starts at the
    second occurrence of the words (a caption that repeats a phrase for two panel groups)."""
    nth = 1
    if "#" in first[:3] and first.split("#", 1)[0].isdigit():
        nth, first = int(first.split("#", 1)[0]), first.split("#", 1)[1]
    i = -1
    for _ in range(nth):
        i = caption.index(first, i + 1)
    j = caption.index(last, i) + len(last)
    return caption[i:j]


def source_for(key: str, page: int, box_pt: list[float]) -> dict:
    folder = DATA / "pmc_dev_corpus" / key.split("/")[0]
    pdf = folder / "fulltext.pdf" if (folder / "fulltext.pdf").exists() else sorted(folder.glob("*.pdf"))[0]
    return {"kind": "pdf", "path": pdf.relative_to(DATA).as_posix(), "page": int(page),
            "clip_pt": [round(float(v), 2) for v in box_pt], "scale": SCALE}


def _draw(image, boxes: list[list[int]], names: list[str], grid: bool = True):
    from PIL import ImageDraw

    image = image.copy()
    w, h = image.size
    d = ImageDraw.Draw(image)
    if grid:
        for x in range(0, w, 50):
            d.line([(x, 0), (x, h)], fill=(255, 120, 120) if x % 100 == 0 else (255, 215, 215))
        for y in range(0, h, 50):
            d.line([(0, y), (w, y)], fill=(120, 120, 255) if y % 100 == 0 else (215, 215, 255))
    for box, name in zip(boxes, names):
        d.rectangle(box, outline=(0, 190, 0), width=4)
        d.rectangle([box[0] + 2, box[1] + 2, box[0] + 60, box[1] + 22], fill=(0, 0, 0))
        d.text((box[0] + 5, box[1] + 5), name, fill=(255, 255, 0))
    return image


def prefill(dataset: Path, sheets: Path) -> None:
    """Splitter proposals for every figure of the dataset, drawn for looking at."""
    import pandas as pd

    from medfig.compound import analyze_compound, warm_up

    warm_up()
    figs = pd.read_parquet(dataset / "figures.parquet")
    figs = figs[(figs.image_status == "ok") & figs.pdf_page.notna()]
    sheets.mkdir(parents=True, exist_ok=True)
    out = {}
    for row in figs.itertuples():
        key = f"{row.article_key}/{row.figure_id}"
        src = source_for(key, row.pdf_page, list(row.pdf_box))
        image = load_image(src)
        res = analyze_compound(image, row.caption or "")
        boxes = [s.box_px for s in res.subfigures]
        out[key] = {"source": src, "caption": row.caption or "", "compound": res.compound, "width": image.width,
                    "height": image.height, "boxes": boxes, "labels": [s.label for s in res.subfigures]}
        names = [f"{i}:{s.label or '-'}" for i, s in enumerate(res.subfigures)]
        _draw(image, boxes, names).save(sheets / (key.replace("/", "__") + ".png"))
        print(key, res.compound, len(boxes), flush=True)
    (sheets / "prefill.json").write_text(json.dumps(out, indent=1, ensure_ascii=False))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prefill", metavar="DATASET", help="write splitter proposals + sheets (step 1)")
    ap.add_argument("--sheets", metavar="DIR", default="/tmp/h8/sheets")
    ap.add_argument("--grid", metavar="DIR", help="also write each gold figure with its gold boxes")
    args = ap.parse_args()
    if args.prefill:
        prefill(Path(args.prefill), Path(args.sheets))
        return 0
    figures = []
    for key, (page, clip) in CLIPS.items():
        src = source_for(key, page, clip)
        image = load_image(src)
        w, h = image.size
        folder = key.split("/")[0]
        publisher = folder.split("_")[0]
        caption = ANNOTATIONS[key][0] if key in ANNOTATIONS else SINGLE[key]
        subs = []
        for label, box, spans in (ANNOTATIONS[key][1] if key in ANNOTATIONS else []):
            x0, y0, x1, y1 = box
            assert 0 <= x0 < x1 <= w + 2 and 0 <= y0 < y1 <= h + 2, (key, box, (w, h))
            subs.append({"label": label, "box": [x0, y0, min(x1, w), min(y1, h)],
                         "subcaption": [_span(caption, a, b) for a, b in spans]})
        figures.append({"figure_key": key, "publisher": publisher, "source": src, "width": w, "height": h,
                        "caption": caption, "compound": bool(subs), "subfigures": subs,
                        "split": "heldout" if publisher in HELDOUT["heldout"] else "dev"})
        if args.grid:
            names = [str(s["label"]) for s in subs]
            path = Path(args.grid) / (key.replace("/", "__") + ".png")
            path.parent.mkdir(parents=True, exist_ok=True)
            _draw(image, [s["box"] for s in subs], names).save(path)
    from medfig.io import atomic_write_bytes

    atomic_write_bytes(OUT, (json.dumps({"figures": figures}, indent=1, ensure_ascii=False) + "\n").encode())
    n_c = sum(f["compound"] for f in figures)
    print(f"{n_c} compound figures ({sum(len(f['subfigures']) for f in figures)} panels)"
          f" + {len(figures) - n_c} single-panel -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
