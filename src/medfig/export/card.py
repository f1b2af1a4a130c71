"""``card.md``: the statistics of MedICaT's Table 1 and ROCOv2's Table 4, drops, and histograms.

Numbers (all over the release's figures): papers, figures, figures per paper, inline
references per figure, caption and reference length in words, share of figures with a
reference, caption-reference Jaccard (word sets, averaged over figures that have
references), concepts per caption, top concepts, modalities, splits, and drops by step
and reason. Semantic types are listed only when the vocabulary file provides them
(ROCOv2's cui_mapping.csv does not).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from statistics import mean, median

from medfig.curate.panel_confidence import PANEL_STEP
from medfig.export.release import Release
from medfig.io import atomic_write_bytes

_WORD = re.compile(r"[A-Za-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def release_stats(release: Release) -> dict:
    figs = release.figures
    papers = {r["article_key"] for r in figs}
    cap_len = [len(_words(r.get("caption_clean") or r.get("caption") or "")) for r in figs]
    refs = [[x.get("sentence") or "" for x in r.get("inline_refs") or []] for r in figs]
    ref_len = [len(_words(s)) for rs in refs for s in rs]
    jacc = []
    for r, rs in zip(figs, refs):
        if rs:
            a = set(_words(r.get("caption_clean") or r.get("caption") or ""))
            b = set(_words(" ".join(rs)))
            jacc.append(len(a & b) / len(a | b) if a | b else 0.0)
    n_concepts = [len(r.get("concepts") or []) for r in figs]
    return {
        "papers": len(papers),
        "figures": len(figs),
        "figures_per_paper": len(figs) / len(papers) if papers else 0.0,
        "inline_refs_per_figure": mean(len(x) for x in refs) if figs else 0.0,
        "caption_words_mean": mean(cap_len) if cap_len else 0.0,
        "caption_words_median": median(cap_len) if cap_len else 0.0,
        "reference_words_mean": mean(ref_len) if ref_len else 0.0,
        "share_with_references": sum(1 for x in refs if x) / len(figs) if figs else 0.0,
        "caption_reference_jaccard": mean(jacc) if jacc else 0.0,
        "concepts_per_caption": mean(n_concepts) if n_concepts else 0.0,
        "compound_figures": len({(p["article_key"], p["figure_id"]) for p in release.panels}),
        "panels": len(release.panels),
        "top_concepts": Counter(c for r in figs for c in r.get("concepts") or []).most_common(15),
        "modalities": Counter(r.get("modality") or "none" for r in figs).most_common(),
        "splits": Counter(r.get("split") or "-" for r in figs).most_common(),
        "drops": Counter((d["step"], d["reason"]) for d in release.drops if d["step"] != PANEL_STEP).most_common(),
        # curate --min-panel-confidence drops panels, not figures: counted apart
        "panel_drops": Counter(d["reason"] for d in release.drops if d["step"] == PANEL_STEP).most_common(),
        "_cap_len": cap_len,
        "_n_concepts": n_concepts,
    }


def _histogram(values: list[float], title: str, xlabel: str) -> bytes:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    ax.hist(values or [0], bins=30, color="#3b6ea5")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("figures")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def statistics_lines(s: dict, names: dict[str, str]) -> list[str]:
    """The card's statistics sections (Markdown lines) from :func:`release_stats`."""
    return [
        "## Statistics (MedICaT Table 1 / ROCOv2 Table 4)", "",
        "| statistic | value |", "|---|---|",
        f"| papers | {s['papers']} |",
        f"| figures | {s['figures']} |",
        f"| figures per paper | {s['figures_per_paper']:.2f} |",
        f"| inline references per figure | {s['inline_refs_per_figure']:.2f} |",
        f"| caption length, words (mean / median) | {s['caption_words_mean']:.1f} / {s['caption_words_median']:.0f} |",
        f"| reference length, words (mean) | {s['reference_words_mean']:.1f} |",
        f"| share of figures with references | {s['share_with_references']:.1%} |",
        f"| caption-reference Jaccard (word sets) | {s['caption_reference_jaccard']:.3f} |",
        f"| concepts per caption | {s['concepts_per_caption']:.2f} |",
        f"| compound figures / their panels | {s['compound_figures']} / {s['panels']} |",
        "", "## Splits", "", "| split | figures |", "|---|---|",
        *[f"| {k} | {v} |" for k, v in s["splits"]],
        "", "## Modalities (from captions)", "", "| modality | figures |", "|---|---|",
        *[f"| {k} | {v} |" for k, v in s["modalities"]],
        "", "## Top concepts", "", "| concept | name | figures |", "|---|---|---|",
        *[f"| {c} | {names.get(c, '')} | {n} |" for c, n in s["top_concepts"]],
        "", "Semantic types: not listed (the vocabulary file has no semantic types).",
        "", "## Drops by step and reason", "", "| step | reason | figures |", "|---|---|---|",
        *[f"| {st} | {rs} | {n} |" for (st, rs), n in s["drops"]],
        *(["", f"Panels dropped by `{PANEL_STEP}` (their figures stay): "
           + ", ".join(f"{rs} {n}" for rs, n in s["panel_drops"]) + "."] if s["panel_drops"] else []),
    ]


def warning_lines(summary: dict) -> list[str]:
    """``## Curation warnings``: the release's ``summary.json`` ``warnings`` (dicts with a
    ``message``, or plain strings), or that there were none."""
    warnings = summary.get("warnings")
    lines = ["## Curation warnings", ""]
    if not warnings:
        return lines + ["None: `medfig curate` reported no degradation for this release."]
    for w in warnings:
        if isinstance(w, dict):
            code = f"`{w['code']}`: " if w.get("code") else ""
            lines.append(f"- {code}{w.get('message') or json.dumps(w, sort_keys=True)}")
        else:
            lines.append(f"- {w}")
    return lines


def write_card(release: Release, out: str | Path, names: dict[str, str] | None = None,
               histograms: bool = True) -> Path:
    out = Path(out)
    s = release_stats(release)
    names = names or {}
    lines = [
        "# Dataset card", "",
        f"Made with medfig from `{release.summary.get('dataset', '?')}`; licence policy "
        f"`{release.summary.get('options', {}).get('licence', '?')}`. Every figure keeps its own licence and "
        "attribution (see `license_information.csv` / the `attribution` column): cite the source articles.", "",
        *warning_lines(release.summary), "",
        *statistics_lines(s, names),
    ]
    if histograms:
        try:
            import matplotlib  # noqa: F401  (optional: pip install 'medfig[hf]')
        except ImportError:
            histograms = False
            lines += ["", "Histograms not drawn: matplotlib is not installed (`pip install 'medfig[hf]'`)."]
    if histograms:
        atomic_write_bytes(out / "caption_length.png", _histogram(s["_cap_len"], "Caption length", "words"))
        atomic_write_bytes(out / "concepts_per_caption.png",
                           _histogram(s["_n_concepts"], "Concepts per caption", "concepts"))
        lines += ["", "![caption length](caption_length.png) ![concepts per caption](concepts_per_caption.png)"]
    path = out / "card.md"
    atomic_write_bytes(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return path
