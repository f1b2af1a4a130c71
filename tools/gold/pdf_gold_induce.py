"""Induce figure/table boxes for the gold set's real biomedical PDFs (JATS XML beside them).

    python tools/gold/pdf_gold_induce.py [--out DIR] [--draw /tmp/gold_pages] [--only KEY]
    python tools/gold/pdf_gold_induce.py --corpus pmc_dev_corpus --publishers plos,scielo --out DIR --draw DIR

A thin driver over ``medfig.induce`` (the same code as ``medfig induce``), which is
independent of medfig's extractor (no layout detector, nothing from ``medfig.pdf``):
JATS captions located by Wagner–Fischer free-end alignment, figure files by multi-scale
template matching, XML tables by bag-of-words line intervals, otherwise whitespace bands.
It writes ``{key}.json`` in the schema ``tools/gold/pdf_gold_build.py`` reads (``id, name,
fig_type, page, box, caption_box, caption_match, method, template_score``).

The committed ``benchmarks/gold/pdf_figures/induced/`` files were written by the first
version of this script (rapidfuzz caption alignment, whitespace bands for every table),
then checked by eye and corrected (``corrections.json``). Re-running it writes the
package's current output, which must be drawn (--draw) and checked again before
``pdf_gold_build.py`` rebuilds ``gold.json`` from it; that is why ``--out`` defaults to a
scratch folder, not to ``induced/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from medfig.induce.draw import draw_paper
from medfig.induce.run import induce_package
from medfig.sources import iter_sources

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from harness import DATA, GOLD  # noqa: E402

OUT = GOLD / "pdf_figures"


def dev_corpus(publishers: set[str]) -> list[tuple[str, Path]]:
    """(folder name, article folder) of pmc_dev_corpus articles whose folder prefix is in ``publishers`` (all if empty)."""
    folders = sorted(d for d in (DATA / "pmc_dev_corpus").iterdir() if d.is_dir())
    return [(d.name, d) for d in folders if not publishers or d.name.split("_")[0] in publishers]


def corpus() -> list[tuple[str, Path]]:
    """(gold key, article folder) for every PDF of the first gold set (``benchmarks/gold/pdf_figures``)."""
    items = [(d.name, d) for d in sorted((DATA / "pmc_hindawi_xml_pdf").glob("PMC*"))]
    items += [(d.name.split("-vor")[0], d) for d in sorted((DATA / "elife_xml_pdf_pairs").glob("elife-*"))]
    pk = DATA / "jats_pdf_figure_packages"
    items += [("elife-00353", pk / "elife-00353_vor"), ("elife-19405", pk / "elife-19405_pmc_deposit"),
              ("medrxiv-24301711", pk / "medrxiv-24301711_meca")]
    return items


def induce_one(key: str, folder: Path, draw: Path | None = None) -> dict:
    sources = list(iter_sources(folder))
    if len(sources) != 1:
        raise SystemExit(f"{folder}: expected one article package, found {len(sources)}")
    (source,) = sources
    with source.open() as package:
        paper = induce_package(package)
        if draw:
            draw_paper(package.read_bytes(package.pdf_name), paper, draw / key)
        pdf = (folder / package.pdf_name).relative_to(DATA)
    figures = [dict(id=f.figure_id, name=f.name, fig_type=f.fig_type, page=f.page, caption_box=f.caption_box, box=f.box,
                    caption_match=f.caption_score, method=f.method or "band", template_score=f.template_score,
                    score=f.score, caption=f.caption[:200])
               for f in paper.figures if f.page is not None]
    missing = [dict(id=f.figure_id, label=f.label, reason=f.reason) for f in paper.figures if f.page is None]
    return dict(key=key, pdf=str(pdf), n_pages=paper.n_pages, figures=figures, missing=missing)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("/tmp/pdf_gold_induced"),
                    help=f"output folder (the checked files are in {OUT / 'induced'})")
    ap.add_argument("--draw", type=Path, default=None)
    ap.add_argument("--only", default="")
    ap.add_argument("--corpus", choices=("gold", "pmc_dev_corpus"), default="gold",
                    help="gold: the 34 papers of gold/pdf_figures; pmc_dev_corpus: the 14-publisher development corpus")
    ap.add_argument("--publishers", default="", help="pmc_dev_corpus only: comma-separated folder prefixes (bmc,plos,...)")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    items = corpus() if a.corpus == "gold" else dev_corpus({p for p in a.publishers.split(",") if p})
    for key, folder in items:
        if a.only and a.only not in key:
            continue
        res = induce_one(key, folder, a.draw)
        (a.out / f"{key}.json").write_text(json.dumps(res, indent=1))
        print(f"{key:18s} pages={res['n_pages']:3d} found={len(res['figures'])} missing={len(res['missing'])} "
              + " ".join(f"{f['name']}@{f['page']}:{f['method']}{'' if f['box'] else '(nobox)'}" for f in res["figures"]))


if __name__ == "__main__":
    main()
