"""How faithfully `medfig build` turns JATS into rows, measured from the XML itself.

Usage:  python benchmarks/xml_fidelity.py [--data ../shared/data] [--corpora pmc_dev_corpus ...]

For each real corpus in ../shared/data it builds a dataset and checks, against
an independent lxml walk of the same XML files:
  figs -> rows       every <fig> is a row whose caption equals the full <caption> text
  xrefs -> refs      every body-text <xref ref-type="fig"> is an inline ref of the figure
                     it points at, inside the xref's own paragraph and carrying its text
                     (xrefs inside other figures' captions or table notes are counted
                     apart: they are not sentences of the paper's text)
Prints a Markdown table (one row per corpus), then the same counts per publisher.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
from lxml import etree

from medfig.pipeline.build import build
from medfig.sources import iter_sources

from harness import SHARED_CORPUS, add_data_argument, articles, format_table, publisher_table

SHORT = ("<fig>", "full caption", "body xrefs", "at right figure", "xrefs in floats")  # per-publisher columns


def squash(text: str | None) -> str:
    return "".join((text or "").split())


def _xml_of(source) -> tuple[str, bytes] | None:
    with source.open() as package:
        if package.xml_name is None:
            return None
        return package.xml_name, package.read_bytes(package.xml_name)


def measure(corpus: Path, out: Path) -> dict[str, Counter]:
    """Per article key of one corpus folder: figs, fig_rows_ok, xrefs, xrefs_ok, in_floats."""
    build(corpus, out, workers=2, progress=False)
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    rows = {(f["article_key"], f["figure_id"]): f for f in figures}
    per_article = {}
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False)
    for source in iter_sources(corpus):
        found = _xml_of(source)
        if found is None:
            continue
        root = etree.fromstring(found[1], parser)
        n = per_article[source.key] = Counter()
        for fig in root.iter("fig"):
            n["figs"] += 1
            row = rows.get((source.key, fig.get("id")))
            caption = fig.find("caption")
            full = squash("".join(caption.itertext())) if caption is not None else ""
            # eLife captions carry a "DOI: ..." line medfig drops on purpose: compare up to it.
            if row is not None and (squash(row["caption"]) == full or full.startswith(squash(row["caption"])) and "DOI:" in full):
                n["fig_rows_ok"] += 1
        body = root.find("body")
        if body is None:
            continue
        for xref in body.iter("xref"):
            if xref.get("ref-type") != "fig":
                continue
            if any(a.tag in ("fig", "table-wrap") for a in xref.iterancestors()):
                n["in_floats"] += 1  # a caption or table note citing a figure is not body text
                continue
            n["xrefs"] += 1
            paragraph = next((a for a in xref.iterancestors() if a.tag == "p"), None)
            if paragraph is None:
                continue
            para = squash("".join(paragraph.itertext()))
            targets = [rows.get((source.key, rid)) for rid in (xref.get("rid") or "").split()]
            sentences = [squash(r["sentence"]) for t in targets if t for r in t["inline_refs"]]
            if any(s in para and squash("".join(xref.itertext())) in s for s in sentences):
                n["xrefs_ok"] += 1
    return per_article


def cells(m: Counter) -> list[str]:
    fig_rate = m["fig_rows_ok"] / m["figs"] if m["figs"] else 0.0
    xref_rate = m["xrefs_ok"] / m["xrefs"] if m["xrefs"] else 0.0
    return [str(m["figs"]), f"{m['fig_rows_ok']} ({fig_rate:.1%})", str(m["xrefs"]),
            f"{m['xrefs_ok']} ({xref_rate:.1%})", str(m["in_floats"])]


def main() -> None:
    parser = argparse.ArgumentParser()
    add_data_argument(parser)
    parser.add_argument("--corpora", nargs="+", default=list(SHARED_CORPUS),
                        help="folders of --data (default: the shared corpus; pmc_dev_corpus has 14 publishers)")
    args = parser.parse_args()
    counts: dict[tuple[str, str], Counter] = {}  # (corpus, article key) -> what measure() counts
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.corpora:
            counts.update({(name, key): n for key, n in measure(args.data / name, Path(tmp) / name).items()})
    header = ["corpus", "<fig>", "rows with full caption", "fig xrefs in body text", "inline refs at the right figure",
              "fig xrefs in captions/table notes (not inline refs)"]
    rows = [[name, *cells(sum((n for (c, _), n in counts.items() if c == name), Counter()))] for name in args.corpora]
    print(format_table(header, rows, markdown=True, align="lrrrrr"))

    found = [a for a in articles(args.corpora, args.data) if (a.corpus, a.key) in counts]
    total = lambda group: sum((counts[a.corpus, a.key] for a in group), Counter())  # noqa: E731
    print(f"\nBy publisher (JATS <publisher-name>, or the corpus's SOURCES.md), {len(found)} articles with XML:\n")
    print(publisher_table(found, lambda a: a.publisher, {"": lambda group: dict(zip(SHORT, cells(total(group))))}))


if __name__ == "__main__":
    main()
