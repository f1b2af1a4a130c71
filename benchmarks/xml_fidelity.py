"""How faithfully `medfig build` turns JATS into rows, measured from the XML itself.

Usage:  python benchmarks/xml_fidelity.py [--data ../shared/data]

For each real corpus in ../shared/data it builds a dataset and checks, against
an independent lxml walk of the same XML files:
  figs -> rows       every <fig> is a row whose caption equals the full <caption> text
  xrefs -> refs      every body-text <xref ref-type="fig"> is an inline ref of the figure
                     it points at, inside the xref's own paragraph and carrying its text
                     (xrefs inside other figures' captions or table notes are counted
                     apart: they are not sentences of the paper's text)
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
from lxml import etree

from medfig.pipeline.build import build
from medfig.sources import iter_sources

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CORPORA = ("pmc_hindawi_xml_pdf", "elife_xml_pdf_pairs", "jats_pdf_figure_packages", "jats_xml_only")


def squash(text: str | None) -> str:
    return "".join((text or "").split())


def _xml_of(source) -> tuple[str, bytes] | None:
    with source.open() as package:
        if package.xml_name is None:
            return None
        return package.xml_name, package.read_bytes(package.xml_name)


def measure(corpus: Path, out: Path) -> dict:
    build(corpus, out, workers=2, progress=False)
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    rows = {(f["article_key"], f["figure_id"]): f for f in figures}
    n_fig = fig_ok = n_xref = xref_ok = n_in_floats = 0
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False)
    for source in iter_sources(corpus):
        found = _xml_of(source)
        if found is None:
            continue
        root = etree.fromstring(found[1], parser)
        for fig in root.iter("fig"):
            n_fig += 1
            row = rows.get((source.key, fig.get("id")))
            caption = fig.find("caption")
            full = squash("".join(caption.itertext())) if caption is not None else ""
            # eLife captions carry a "DOI: ..." line medfig drops on purpose: compare up to it.
            if row is not None and (squash(row["caption"]) == full or full.startswith(squash(row["caption"])) and "DOI:" in full):
                fig_ok += 1
        body = root.find("body")
        if body is None:
            continue
        for xref in body.iter("xref"):
            if xref.get("ref-type") != "fig":
                continue
            if any(a.tag in ("fig", "table-wrap") for a in xref.iterancestors()):
                n_in_floats += 1  # a caption or table note citing a figure is not body text
                continue
            n_xref += 1
            paragraph = next((a for a in xref.iterancestors() if a.tag == "p"), None)
            if paragraph is None:
                continue
            para = squash("".join(paragraph.itertext()))
            targets = [rows.get((source.key, rid)) for rid in (xref.get("rid") or "").split()]
            sentences = [squash(r["sentence"]) for t in targets if t for r in t["inline_refs"]]
            if any(s in para and squash("".join(xref.itertext())) in s for s in sentences):
                xref_ok += 1
    return {"figs": n_fig, "fig_rows_ok": fig_ok, "xrefs": n_xref, "xrefs_ok": xref_ok, "in_floats": n_in_floats}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    print("| corpus | <fig> | rows with full caption | fig xrefs in body text | inline refs at the right figure "
          "| fig xrefs in captions/table notes (not inline refs) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in CORPORA:
            m = measure(args.data / name, Path(tmp) / name)
            fig_rate = m["fig_rows_ok"] / m["figs"] if m["figs"] else 0.0
            xref_rate = m["xrefs_ok"] / m["xrefs"] if m["xrefs"] else 0.0
            print(f"| {name} | {m['figs']} | {m['fig_rows_ok']} ({fig_rate:.1%}) | {m['xrefs']} | "
                  f"{m['xrefs_ok']} ({xref_rate:.1%}) | {m['in_floats']} |")


if __name__ == "__main__":
    main()
