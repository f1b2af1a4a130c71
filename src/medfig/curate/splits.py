"""Train / valid / test splits: grouped by article, stratified, seeded.

- Grouped: all figures of an article land in the same split, so no paper leaks
  from train into test (figures of one paper share patients, style and captions).
- Stratified: each article gets a multi-label vector - the modalities of its
  figures plus its frequent concepts (CUIs in >= ``min_label_count`` articles) -
  and articles are split with iterative multi-label stratification (Sechidis et
  al. 2011, the ``iterative-stratification`` package), so rare modalities and
  concepts appear in every split in proportion.
- Seeded: the same input and seed give the same split, every time.

Writes ``split`` (``train`` / ``valid`` / ``test``, ROCOv2's names) on every record.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from medfig.pipeline.steps import KEEP, GroupStep, Record, Verdict

SPLITS = ("train", "valid", "test")


def _labels_of(records: list[Record]) -> set[str]:
    labels: set[str] = set()
    for r in records:
        if r.get("modality"):
            labels.add("modality:" + r["modality"])
        for c in r.get("concepts") or []:
            labels.add(c)
    return labels


def assign_splits(groups: dict[str, set[str]], fractions=(0.8, 0.1, 0.1), seed: int = 0,
                  min_label_count: int = 2) -> dict[str, str]:
    """Article key -> split name, by iterative stratification on the article label sets."""
    keys = sorted(groups)
    if not keys:
        return {}
    if len(keys) < 3 or fractions[0] >= 1:  # too few articles for three splits, or all asked as training data
        return {k: "train" for k in keys}
    from iterstrat.ml_stratifiers import MultilabelStratifiedShuffleSplit

    counts = Counter(lab for k in keys for lab in groups[k])
    vocab = sorted(lab for lab, n in counts.items() if n >= min_label_count)
    col = {lab: i for i, lab in enumerate(vocab)}
    if not vocab:  # nothing to stratify on: a seeded shuffle cut by the fractions
        order = np.random.default_rng(seed).permutation(len(keys))
        n_train = round(fractions[0] * len(keys))
        n_valid = round(fractions[1] * len(keys))
        names = ["train"] * n_train + ["valid"] * n_valid + ["test"] * (len(keys) - n_train - n_valid)
        return {keys[i]: names[pos] for pos, i in enumerate(order)}
    # one extra always-on column keeps the matrix 2-D multi-label with a single label
    y = np.zeros((len(keys), len(vocab) + 1), dtype=int)
    y[:, -1] = 1
    for i, k in enumerate(keys):
        for lab in groups[k]:
            if lab in col:
                y[i, col[lab]] = 1
    x = np.zeros((len(keys), 1))
    train_f, valid_f, test_f = fractions
    rest = valid_f + test_f
    out: dict[str, str] = {}
    first = MultilabelStratifiedShuffleSplit(n_splits=1, test_size=rest, random_state=seed)
    train_idx, rest_idx = next(first.split(x, y))
    for i in train_idx:
        out[keys[i]] = "train"
    if len(rest_idx) == 1 or valid_f == 0:
        for i in rest_idx:
            out[keys[i]] = "test"
        return out
    second = MultilabelStratifiedShuffleSplit(n_splits=1, test_size=test_f / rest, random_state=seed)
    v_idx, t_idx = next(second.split(x[rest_idx], y[rest_idx]))
    for i in v_idx:
        out[keys[rest_idx[i]]] = "valid"
    for i in t_idx:
        out[keys[rest_idx[i]]] = "test"
    return out


class SplitAssigner(GroupStep):
    name = "splits"

    def __init__(self, fractions=(0.8, 0.1, 0.1), seed: int = 0):
        if abs(sum(fractions) - 1) > 1e-6:
            raise ValueError(f"split fractions {fractions} must add up to 1")
        self.fractions = tuple(fractions)
        self.seed = seed

    def run_group(self, records: list[Record]) -> list[Verdict]:
        by_article: dict[str, list[Record]] = defaultdict(list)
        for r in records:
            by_article[r["article_key"]].append(r)
        split_of = assign_splits({k: _labels_of(v) for k, v in by_article.items()}, self.fractions, self.seed)
        for r in records:
            r["split"] = split_of[r["article_key"]]
        return [KEEP] * len(records)
