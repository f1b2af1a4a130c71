"""Write the checked gold set from induced boxes and the list of eye-checked pages.

    python benchmarks/pdf_gold_induce.py          # induced/*.json (independent of medfig.pdf)
    python benchmarks/pdf_gold_build.py           # gold.json: only pages in checked_pages.json

gold.json: {"papers": [{"key", "pdf" (relative to shared/data), "pages" (checked, 0-based),
"figures": [{"name", "fig_type", "page", "box", "caption_box", "method"}]}]}, boxes in
PDF points, origin top-left, [x0, y0, x1, y1].
"""

from __future__ import annotations

import json
from pathlib import Path

GOLD = Path(__file__).resolve().parent / "gold" / "pdf_figures"


def main() -> None:
    checked = json.loads((GOLD / "checked_pages.json").read_text())["checked"]
    papers = []
    for key, pages in sorted(checked.items()):
        induced = json.loads((GOLD / "induced" / f"{key}.json").read_text())
        figs = [dict(name=f["name"], fig_type=f["fig_type"], page=f["page"], box=f["box"], caption_box=f["caption_box"],
                     method=f["method"]) for f in induced["figures"] if f["page"] in pages]
        missing_box = [f["name"] for f in figs if not f["box"]]
        if missing_box:
            raise SystemExit(f"{key}: checked page has an entry without a box: {missing_box}")
        papers.append(dict(key=key, pdf=induced["pdf"], n_pages=induced["n_pages"], pages=pages, figures=figs))
    out = dict(schema="medfig.pdf_gold/1", coordinates="PDF points, origin top-left, [x0, y0, x1, y1], page 0-based",
               papers=papers)
    (GOLD / "gold.json").write_text(json.dumps(out, indent=1) + "\n")
    n = sum(len(p["figures"]) for p in papers)
    nt = sum(1 for p in papers for f in p["figures"] if f["fig_type"] == "Table")
    print(f"gold.json: {len(papers)} papers, {sum(len(p['pages']) for p in papers)} pages, {n - nt} figures, {nt} tables")


if __name__ == "__main__":
    main()
