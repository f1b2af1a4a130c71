"""Inline-reference -> figure retrieval on the shared corpus (MedICaT Table 3's text-side analogue).

The index holds captions (+ subcaptions when subfigures.parquet exists) only; every
inline-reference sentence of every article is a query whose answer is the figure it
cites. The figure mention itself ("Fig. 2b") is cut out of the query: it points at the
answer and carries no content. R@K = share of (sentence, cited figure) pairs whose figure
is among the top K distinct figures (panel hits count for their figure). Panel-level
R@5 is measured where the sentence names panels and the dataset has panels. On the shared
corpus a per-publisher table follows (R@5 of each method, pooled over the publisher's queries).

    .venv/bin/python benchmarks/search_retrieval.py                 # shared corpus + demo panels
    .venv/bin/python benchmarks/search_retrieval.py --dataset DIR   # any built dataset
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from harness import DATA, SHARED_CORPUS, articles, publisher_table

KS = (1, 5, 10)
MODES = ("bm25", "dense", "fused")


def build_shared_dataset(out: Path, pdf_figures: bool = False) -> None:
    """All four article folders into one dataset. The build splits compound figures that have images
    into panels (subfigures.parquet); figure images are cropped from the PDFs only when asked (the
    text is the same either way; cropping takes minutes)."""
    from medfig.pipeline.build import build
    from medfig.sources import iter_sources

    sources = [s for name in SHARED_CORPUS for s in iter_sources(DATA / name)]
    report = build(None, out, sources=sources, progress=False, pdf_figures=pdf_figures)
    print(report.summary(), file=sys.stderr)


def dataset_or_shared(given: Path | None, work: Path) -> Path:
    """``given`` (a built dataset), else the shared corpus built into ``work/shared-ds``."""
    if given is not None:
        return given
    build_shared_dataset(work / "shared-ds")
    return work / "shared-ds"


def strip_mentions(sentence: str) -> str:
    from medfig.text.mentions import find_mentions

    spans = sorted({(m.start, m.end) for m in find_mentions(sentence)})
    out, pos = [], 0
    for start, end in spans:
        if start >= pos:
            out.append(sentence[pos:start])
            pos = end
    out.append(sentence[pos:])
    return re.sub(r"\(\s*[,;]?\s*\)", " ", "".join(out))


def queries_from(dataset: Path) -> list[dict]:
    """One query per (sentence, cited figure) of figures.parquet; panels as the sentence names them."""
    import pyarrow.parquet as pq

    queries = []
    for fig in pq.read_table(dataset / "figures.parquet").to_pylist():
        for ref in fig["inline_refs"] or []:
            text = strip_mentions(ref["sentence"]).strip()
            if text:
                queries.append({"text": text[:500], "figure": (fig["article_key"], fig["figure_id"]),
                                "panels": [p.lower() for p in ref["panels"] or []]})
    return queries


def evaluate(index, queries: list[dict], depth: int = 100) -> dict:
    """Recall@K per mode, figure-level and (where panels are named and indexed) panel-level."""
    from medfig.search.fusion import reciprocal_rank_fusion
    from medfig.search.encoder import get_encoder

    docs = {}
    for doc_id, key, art, fig, label in index._sql(
            "SELECT doc_id, doc_key, article_key, figure_id, panel_label FROM docs"):
        docs[doc_id] = ((art, fig), (label or "").lower() or None)
    panels_indexed = {figure for figure, label in docs.values() if label}
    vectors = get_encoder().encode([q["text"] for q in queries], batch_size=128) if index.has_dense else None
    hits = {mode: {k: 0 for k in KS} for mode in MODES}
    panel_hits = {mode: 0 for mode in MODES}
    panel_queries = 0
    timing = {mode: 0.0 for mode in MODES}
    per_query = []  # (query, {mode: figure in the top 5})
    for i, q in enumerate(queries):
        t0 = time.perf_counter()
        bm25 = [d for d, _ in index.bm25(q["text"], depth)]
        t1 = time.perf_counter()
        dense = [d for d, _ in index.dense_from_vector(vectors[i], depth)] if vectors is not None else []
        t2 = time.perf_counter()
        fused = [d for d, _ in reciprocal_rank_fusion([bm25, dense])] if dense else bm25
        timing["bm25"] += t1 - t0
        timing["dense"] += t2 - t1
        ranked = {"bm25": bm25, "dense": dense, "fused": fused}
        panel_query = bool(q["panels"]) and q["figure"] in panels_indexed
        panel_queries += panel_query
        per_query.append((q, {}))
        for mode, ids in ranked.items():
            figures_seen: list = []
            for d in ids:
                figure = docs[d][0]
                if figure not in figures_seen:
                    figures_seen.append(figure)
            for k in KS:
                hits[mode][k] += q["figure"] in figures_seen[:k]
            per_query[-1][1][mode] = q["figure"] in figures_seen[:5]
            if panel_query:
                top5 = [docs[d] for d in ids[:5]]
                panel_hits[mode] += any(f == q["figure"] and label in q["panels"] for f, label in top5)
    n = len(queries)
    return {
        "n": n, "panel_queries": panel_queries,
        "recall": {m: {k: hits[m][k] / n if n else 0.0 for k in KS} for m in MODES},
        "panel_r5": {m: panel_hits[m] / panel_queries if panel_queries else None for m in MODES},
        "ms_per_query": {m: 1000 * timing[m] / n if n else 0.0 for m in ("bm25", "dense")},
        "per_query": per_query,
    }


def index_captions_only(dataset: Path, index_dir: Path):
    from medfig.search import SearchIndex, build_index

    report = build_index(dataset, index_dir=index_dir, fields=("caption", "subcaption"), progress=False)
    print(report.summary(), file=sys.stderr)
    return SearchIndex.open(dataset, index_dir=index_dir), report


def print_table(title: str, result: dict, report) -> None:
    print(f"\n{title}")
    print(f"index: {report.documents} documents ({report.panels} panels, {report.figures} whole figures), "
          f"captions + subcaptions only; queries: {result['n']} inline-reference sentences")
    print(f"| method | R@1 | R@5 | R@10 | panel R@5 ({result['panel_queries']} panel-naming queries) |")
    print("|---|---|---|---|---|")
    for mode in MODES:
        r = result["recall"][mode]
        p = result["panel_r5"][mode]
        print(f"| {mode} | {r[1]:.3f} | {r[5]:.3f} | {r[10]:.3f} | {'n/a' if p is None else f'{p:.3f}'} |")


def print_publishers(result: dict) -> None:
    """R@5 per publisher of the cited figure's article, one column per method (the ALL row is R@5 above)."""
    publisher = {a.key: a.publisher for a in articles(SHARED_CORPUS)}
    rows = [i for i, (q, _) in enumerate(result["per_query"]) if q["figure"][0] in publisher]
    if not rows:
        return
    per_query = result["per_query"]

    def recall_at_5(mode):
        return lambda group: {"R@5": f"{sum(per_query[i][1][mode] for i in group) / len(group):.3f}"}
    print("\nBy publisher (queries = inline-reference sentences of that publisher's articles):")
    print(publisher_table(rows, lambda i: publisher[per_query[i][0]["figure"][0]],
                          {mode: recall_at_5(mode) for mode in MODES}, first="publisher (queries)"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="a built dataset (default: build the shared corpus)")
    parser.add_argument("--no-demo", action="store_true", help="skip the demo panel-level run")
    parser.add_argument("--pdf-figures", action="store_true",
                        help="also run on the corpus built with figures cropped from the PDFs (so Hindawi/eLife "
                             "compound figures get panels too): more panel-level queries; slow (minutes)")
    parser.add_argument("--bm25-max-terms", type=int, default=None,
                        help="BM25 keeps this many of a query's rarest words (default: the library's setting)")
    args = parser.parse_args()
    if args.bm25_max_terms:
        import medfig.search.query

        medfig.search.query.BM25_MAX_TERMS = args.bm25_max_terms
    work = Path(tempfile.mkdtemp(prefix="medfig-search-bench-"))
    try:
        dataset = dataset_or_shared(args.dataset, work)
        index, report = index_captions_only(dataset, work / "index-shared")
        result = evaluate(index, queries_from(dataset))
        has_panels = (dataset / "subfigures.parquet").is_file()
        print_table(f"Inline reference -> figure retrieval, {dataset.name} (figure files as shipped, no PDF "
                    "cropping; panels where the build split a compound figure)"
                    + ("" if has_panels else " (no subfigures.parquet: whole figures, panel R@5 not measurable)"),
                    result, report)
        print_publishers(result)
        if args.pdf_figures and args.dataset is None:
            real = work / "shared-ds-pdf"
            build_shared_dataset(real, pdf_figures=True)
            index, report = index_captions_only(real, work / "index-shared-panels")
            result = evaluate(index, queries_from(real))
            print_table("Same corpus, figures cropped from the PDFs, compound figures split by the build "
                        "(automatic boxes, OCR letters, subcaptions: a panel hit needs the named panel to be "
                        "found, lettered and retrieved)", result, report)
            print_publishers(result)
        if not args.no_demo:
            from medfig.demo import write_demo_corpus
            from medfig.pipeline.build import build
            from demo_panels import write_demo_subfigures

            write_demo_corpus(work / "demo", n=20, seed=0)
            build(work / "demo", work / "demo-ds", progress=False, subfigures=False)  # panels from ground truth
            write_demo_subfigures(work / "demo", work / "demo-ds")
            index, report = index_captions_only(work / "demo-ds", work / "index-demo")
            result = evaluate(index, queries_from(work / "demo-ds"))
            print_table("Panel-level, synthetic demo corpus (20 articles, subfigures from exact ground truth; "
                        "template sentences and captions drawn from one small phrase pool, so many figures of different "
                        "articles are near-duplicates: an artificial check of the panel path, not a real-text number)", result, report)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
