"""Release warnings: what a curate run degraded silently before, said with numbers.

Each warning is a plain dict ``{"code", "message", ...numbers}``; the list is printed in the
curate summary and stored as ``warnings`` in the release's ``summary.json`` (the dataset card
renders it). Codes:

- ``no_vocabulary``: no ``--vocabulary``, so no vocabulary concepts were tagged; the splits are
  then stratified on modality alone (with a vocabulary they also balance frequent concepts), so
  the same dataset splits differently with and without one.
- ``split_empty``: a split that was asked for (fraction > 0) has no figure.
- ``split_small``: a split has fewer figures than ``min_split_figures`` (``--min-split-figures``).
- ``release_empty``: no figure survived curation.
"""

from __future__ import annotations

from collections import Counter

from medfig.pipeline.steps import Record

SPLIT_NAMES = ("train", "valid", "test")


def release_warnings(kept: list[Record], *, vocabulary: str | None, splits: tuple[float, float, float],
                     min_split_figures: int, split_assigned: bool = True) -> list[dict]:
    out: list[dict] = []
    n = len(kept)
    if not n:
        out.append({"code": "release_empty", "figures": 0,
                    "message": "no figure survived curation: the release is empty (see the drops above)"})
        return out
    if not vocabulary:
        out.append({"code": "no_vocabulary", "figures": n,
                    "message": f"concepts skipped: no --vocabulary given, so none of the {n} kept figures has "
                               "vocabulary concepts and the splits are stratified on modality only "
                               "(pass --vocabulary cui_mapping.csv)"})
    if not split_assigned:
        return out
    per_split = Counter(r.get("split") for r in kept)
    articles_per_split = Counter(split for split, _key in {(r.get("split"), r.get("article_key")) for r in kept})
    for name, fraction in zip(SPLIT_NAMES, splits):
        if fraction <= 0:
            continue
        have = per_split.get(name, 0)
        numbers = {"split": name, "figures": have, "articles": articles_per_split.get(name, 0),
                   "fraction_asked": fraction, "figures_total": n}
        if have == 0:
            out.append({"code": "split_empty", **numbers,
                        "message": f"split '{name}' is empty (0 of {n} figures; {fraction:.0%} asked): "
                                   f"too few articles ({len({r.get('article_key') for r in kept})}) to split"})
        elif have < min_split_figures:
            out.append({"code": "split_small", **numbers, "min_split_figures": min_split_figures,
                        "message": f"split '{name}' has {have} figures, fewer than {min_split_figures} "
                                   "(--min-split-figures): scores on it will be noisy"})
    return out

