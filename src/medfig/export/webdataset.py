"""WebDataset tar shards: ``<split>-000000.tar`` with ``<key>.<ext>``, ``<key>.txt``, ``<key>.json``.

Keys are ``<article_key>__<figure_id>`` with dots replaced (WebDataset splits a member
name at its first dot). Shards hold ``shard_size`` samples; written atomically.
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


def export_webdataset(release: Release, out: str | Path, shard_size: int = 1000) -> dict[str, int]:
    out = Path(out)
    counts = {}
    for split, recs in release.by_split().items():
        if split not in SPLITS:
            continue
        samples = [r for r in recs if release.image_file(r) is not None]
        for shard, start in enumerate(range(0, len(samples), shard_size)):
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w") as tar:
                for rec in samples[start:start + shard_size]:
                    key = sample_key(rec)
                    src = release.image_file(rec)
                    _add(tar, f"{key}{src.suffix.lower()}", src.read_bytes())
                    _add(tar, f"{key}.txt", (rec.get("caption_clean") or rec.get("caption") or "").encode("utf-8"))
                    meta = {k: rec.get(k) for k in ("article_key", "figure_id", "pmcid", "doi", "label", "modality",
                                                    "concepts", "concepts_manual", "attribution")}
                    meta["license"] = rec.get("licence_effective") or rec.get("licence_spdx")
                    meta["inline_refs"] = [r.get("sentence") for r in rec.get("inline_refs") or []]
                    _add(tar, f"{key}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"))
            atomic_write_bytes(out / f"{split}-{shard:06d}.tar", buf.getvalue())
        counts[split] = len(samples)
    return counts
