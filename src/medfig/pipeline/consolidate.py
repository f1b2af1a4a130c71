"""Writing a built dataset's tables from its manifest: the per-shard parts and the dataset-wide files.

The manifest (:mod:`medfig.pipeline.manifest`) holds every article's result; :func:`consolidate`
rewrites the Parquet parts of the shards whose articles changed, then ``stats.json`` and
``removed.parquet``. Each file is written atomically and only when its bytes change.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from medfig import schema
from medfig.dataset import DatasetFolder
from medfig.ledger import build_exclusions
from medfig.pipeline.manifest import Manifest, shard_of

TABLES = schema.DATASET_TABLES


def shard_stats(figures: list[dict], articles: list[dict], errors: list[dict], subfigures: list[dict],
                failed: int) -> dict:
    return {
        "compound_figures": sum(1 for f in figures if f.get("n_subfigures")),
        "subfigures": len(subfigures),
        "subfigures_by_label_source": dict(Counter(s["label_source"] for s in subfigures)),
        "articles": len(articles),
        "articles_failed": failed,
        "figures": len(figures),
        "figures_with_image": sum(1 for f in figures if f["image_status"] == "ok"),
        "figures_by_image_status": dict(Counter(f["image_status"] for f in figures)),
        "figures_by_licence": dict(Counter(str(f["licence_spdx"]) for f in figures)),
        "figures_by_flag": dict(Counter(flag for f in figures for flag in f["flags"])),
        "inline_refs": sum(f["n_inline_refs"] for f in figures),
        "fig_xrefs": sum(a["n_fig_xrefs"] for a in articles),
        "tables": sum(a["n_tables"] for a in articles),
        "errors": len(errors),
        "errors_by_stage": dict(Counter(e["stage"] for e in errors)),
    }


def merge_stats(parts: Iterable[dict]) -> dict:
    """Sum per-shard stats: numbers add, count dictionaries add key by key."""
    total: dict = {}
    for part in parts:
        for name, value in part.items():
            if isinstance(value, dict):
                bucket = total.setdefault(name, Counter())
                bucket.update(value)
            else:
                total[name] = total.get(name, 0) + value
    return {k: dict(sorted(v.items())) if isinstance(v, Counter) else v for k, v in sorted(total.items())}


def consolidate(folder: DatasetFolder, manifest: Manifest, shards: int, dirty: set[int]) -> tuple[dict, list[str]]:
    """Rewrite the dirty shards from the manifest, then the dataset-wide files."""
    written = []
    removed_rows = manifest.removed()
    for shard in sorted(dirty):
        figures, articles, errors, subfigures, failed = [], [], [], [], 0
        for _key, status, payload in manifest.results(shard):
            failed += status == "failed"
            if payload["article"] is not None:
                articles.append(payload["article"])
            figures.extend(payload["figures"])
            errors.extend(payload["errors"])
            subfigures.extend(payload.get("subfigures", []))
        removed_here = [r for r in removed_rows if shard_of(r["article_key"], shards) == shard]
        exclusions = build_exclusions(figures, errors, removed_here)
        for name, rows in (("figures", figures), ("articles", articles), ("errors", errors),
                           ("subfigures", subfigures), ("exclusions", exclusions)):
            if folder.write_part(name, schema.to_table(rows, TABLES[name]), shard, shards):
                written.append(folder.part_path(name, shard, shards).relative_to(folder.root).as_posix())
        manifest.set_meta(f"stats:{shard}", json.dumps(shard_stats(figures, articles, errors, subfigures, failed), sort_keys=True))
    stats = merge_stats(json.loads(manifest.get_meta(f"stats:{s}") or "{}") for s in range(shards))
    stats["articles_removed"] = len(removed_rows)
    if folder.write_json("stats.json", stats, only_if_changed=True):
        written.append("stats.json")
    if folder.write_table("removed", schema.to_table(removed_rows, schema.REMOVED), only_if_changed=True):
        written.append("removed.parquet")
    return stats, written


def shards_to_write(folder: DatasetFolder, shards: int, dirty: set[int]) -> set[int]:
    """The dirty shards plus any shard with a missing part (a shard no article maps to yet, a
    deleted file); every shard when a dataset-wide file is missing."""
    if not (folder.root / "stats.json").exists() or not folder.table_location("removed").exists():
        return set(range(shards))
    return dirty | {s for s in range(shards) if any(not folder.part_path(name, s, shards).exists() for name in TABLES)}
