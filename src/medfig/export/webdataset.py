"""WebDataset tar shards: ``<split>-000000.tar`` with ``<key>.<ext>``, ``<key>.txt``, ``<key>.json``.

Keys are ``<article_key>__<figure_id>`` with dots replaced (WebDataset splits a member
name at its first dot). Shards hold ``shard_size`` samples; written atomically.

Panels of compound figures go to their own shards, ``panels/<split>-000000.tar``, one sample
per panel: ``<figure key>__p<n>.png`` (the panel cut from the figure image), ``.txt`` (its
subcaption, empty when none) and ``.json`` (``parent`` key and figure id, ``label``,
``box_px`` in pixels of the parent image, ``subcaption``, ``inline_refs`` citing the panel,
``score``, ``confidence`` (calibrated probability of a true panel, see medfig.export.release), ``label_source``,
licence and attribution of the parent). A panel's split is its
figure's, so panels never cross the release's split boundary.
"""

from __future__ import annotations

import io
import json
import re
import tarfile
from pathlib import Path

from medfig.export.release import SPLITS, Release
from medfig.io import atomic_write_bytes


def sample_key(rec: dict) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", f"{rec['article_key']}__{rec['figure_id']}")


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0  # reproducible shards
    tar.addfile(info, io.BytesIO(data))


def _licence(rec: dict) -> str | None:
    return rec.get("licence_effective") or rec.get("licence_spdx")


def _figure_members(release: Release, rec: dict) -> list[tuple[str, bytes]]:
    key = sample_key(rec)
    src = release.image_file(rec)
    meta = {k: rec.get(k) for k in ("article_key", "figure_id", "pmcid", "doi", "label", "modality",
                                    "concepts", "concepts_manual", "attribution")}
    meta["license"] = _licence(rec)
    meta["inline_refs"] = [r.get("sentence") for r in rec.get("inline_refs") or []]
    meta["n_panels"] = len(release.panels_of(rec))
    return [(f"{key}{src.suffix.lower()}", src.read_bytes()),
            (f"{key}.txt", (rec.get("caption_clean") or rec.get("caption") or "").encode("utf-8")),
            (f"{key}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"))]


def _panel_members(release: Release, rec: dict, n: int, panel: dict) -> list[tuple[str, bytes]]:
    key = f"{sample_key(rec)}__p{n}"
    meta = {"parent": sample_key(rec), "article_key": rec["article_key"], "figure_id": rec["figure_id"],
            "panel_index": n, "label": panel.get("label"), "label_source": panel.get("label_source"),
            "box_px": list(panel["box_px"]), "score": panel.get("score"), "confidence": panel.get("confidence"),
            "subcaption": panel.get("subcaption"),
            "inline_refs": [r.get("sentence") for r in panel.get("inline_refs") or []],
            "license": _licence(rec), "attribution": rec.get("attribution")}
    return [(f"{key}.png", release.panel_png(rec, panel)),
            (f"{key}.txt", (panel.get("subcaption") or "").encode("utf-8")),
            (f"{key}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"))]


def _write_shards(out: Path, split: str, samples: list, members, shard_size: int) -> None:
    for shard, start in enumerate(range(0, len(samples), shard_size)):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            for sample in samples[start:start + shard_size]:
                for name, data in members(*sample):
                    _add(tar, name, data)
        atomic_write_bytes(out / f"{split}-{shard:06d}.tar", buf.getvalue())


def export_webdataset(release: Release, out: str | Path, shard_size: int = 1000) -> dict[str, int]:
    """Figure shards per split, and panel shards under ``panels/``. Returns samples per split
    (figures) and ``panels`` (panel samples over all splits)."""
    out = Path(out)
    counts: dict[str, int] = {}
    n_panels = 0
    for split, recs in release.by_split().items():
        if split not in SPLITS:
            continue
        figures = [(release, r) for r in recs if release.image_file(r) is not None]
        _write_shards(out, split, figures, _figure_members, shard_size)
        panels = [(release, rec, n, p) for _, rec in figures for n, p in enumerate(release.panels_of(rec), 1)]
        _write_shards(out / "panels", split, panels, _panel_members, shard_size)
        counts[split] = len(figures)
        n_panels += len(panels)
    counts["panels"] = n_panels
    return counts
