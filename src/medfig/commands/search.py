"""``medfig search DATASET "query"``: ranked panels/figures from the dataset's search index."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap


def _print_hit(hit) -> None:
    doc = hit.doc
    what = doc.label or doc.figure_id
    if doc.kind == "panel":  # an unlettered panel is named by its key ("panel2")
        what += f" panel ({doc.panel_label})" if doc.panel_label else f" {doc.doc_key.split('#', 1)[1]}"
    ranks = f"bm25 #{hit.bm25_rank or '-'}, dense #{hit.dense_rank or '-'}"
    print(f"{hit.rank:>2}. {what} · {doc.article_key} · score {hit.score:.4f} ({ranks})")
    if doc.title:
        print(f"    article    : {textwrap.shorten(doc.title, 100)} ({doc.year or 'n.d.'})")
    if doc.subcaption:
        print(f"    subcaption : {textwrap.shorten(doc.subcaption, 160)}")
    print(f"    caption    : {textwrap.shorten(doc.caption or '(no caption)', 160)}")
    for ref in (hit.cited_panel_refs or doc.refs)[:2]:
        print(f"    cited      : {textwrap.shorten(ref['sentence'], 160)}")
    if doc.modalities:
        print(f"    modality   : {', '.join(doc.modalities)}")
    print(f"    licence    : {doc.licence_spdx or 'unknown'}")
    print(f"    image      : {doc.crop_path or doc.image_path or '(no image file in the dataset)'}")
    print(f"    attribution: {hit.attribution}")


def run(args: argparse.Namespace) -> int:
    from medfig.records import MedfigError
    from medfig.search import Filters, PageRequest, SearchIndex

    filters = Filters(modality=args.modality, concept=args.concept, licence=args.licence,
                      year_from=args.year_from, year_to=args.year_to)
    request = PageRequest(page=args.page, per_page=args.per_page, one_per_figure=args.one_per_figure,
                          diversify=not args.all_panels)
    try:
        index = SearchIndex.open(args.dataset)
        result = index.search_page(args.query, request, filters=filters, mode=args.mode)
    except MedfigError as exc:
        print(f"medfig search: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump({"query": result.query, "total": result.total, "figures": result.figures,
                   "articles": result.articles, "page": result.page, "per_page": result.per_page,
                   "pages": result.pages, "one_per_figure": result.one_per_figure,
                   "results": [h.to_dict() for h in result.hits]}, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    print(f"medfig search: {result.summary()} in {args.dataset}"
          + (" (BM25 only: index has no dense vectors)" if not index.has_dense and args.mode == "fused" else ""))
    for hit in result.hits:
        _print_hit(hit)
    if result.page < result.pages:
        print(f"next page: --page {result.page + 1}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("search", help="search figures and panels of an indexed dataset")
    p.add_argument("dataset", help="a dataset folder with a search index (`medfig index DATASET`)")
    p.add_argument("query", help="free text, e.g. \"lung cyst CT\" (at most 500 characters)")
    p.add_argument("--per-page", "--k", dest="per_page", type=_args.int_in(1, 100), default=10,
                   help="results per page (default 10; --k is the old name)")
    p.add_argument("--page", type=_args.int_in(1, 10_000), default=1, help="page of results (default 1)")
    p.add_argument("--one-per-figure", action="store_true",
                   help="each figure once, as its best-matching panel (counts are of figures)")
    p.add_argument("--all-panels", action="store_true",
                   help="the raw ranking: do not limit a page to 2 panels per figure and 3 results per article")
    p.add_argument("--mode", choices=("fused", "bm25", "dense"), default="fused", help="ranking (default fused)")
    p.add_argument("--modality", help="CT, MRI, ultrasound, X-ray, histology, ... (from captions or the dataset)")
    p.add_argument("--concept", help="a concept name the dataset attached to figures")
    p.add_argument("--licence", help="an SPDX id, a family (CC-BY-NC), 'cc', or 'commercial' (CC0/CC BY/CC BY-SA)")
    p.add_argument("--year-from", type=_args.year, help="published in or after this year")
    p.add_argument("--year-to", type=_args.year, help="published in or before this year")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
