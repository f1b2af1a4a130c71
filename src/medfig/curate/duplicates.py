"""Near-duplicate images: perceptual hashes + a multi-index hash table.

Each stored image gets two 64-bit hashes from ``imagehash``: pHash (DCT of the
32x32 grey image: robust to resizing and recompression) and dHash (gradient
signs: catches what pHash blurs). Before hashing, a uniform border (white frame,
black padding) is trimmed so that "the same figure with a border" hashes alike.

Two images are duplicates when ``hamming(pHash) <= phash_threshold`` and
``hamming(dHash) <= dhash_threshold``. Candidates come from multi-index hashing
(Norouzi et al. 2012): the 64-bit pHash is cut into 4 chunks of 16 bits, and each
chunk indexes a hash table. If two hashes differ in at most ``t`` bits, then by
the pigeonhole principle one chunk differs in at most ``t // 4`` bits, so probing
each chunk's exact value and its 1-bit neighbours (t <= 7) finds every pair
within the threshold without comparing all pairs: work grows with the number of
true neighbours, not with n².

Duplicates are joined into clusters (union-find); one figure per cluster is kept
(the largest image, then the first in dataset order) and the others are dropped
with reason ``duplicate`` and the kept figure in ``detail``. Every record gets
``dup_cluster`` (the kept figure's ``article_key/figure_id``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Sequence

import numpy as np

from medfig.curate.steps import KEEP, GroupStep, Record, Verdict, drop, note_skip

CHUNKS = 4
CHUNK_BITS = 16


def _trim_border(img, tolerance: int = 12):
    """Cut a uniform frame (colour of the top-left pixel) off the image."""
    from PIL import ImageChops

    grey = img.convert("L")
    corner = grey.getpixel((0, 0))
    diff = ImageChops.difference(grey, grey.point(lambda _: corner)).point(lambda v: 255 if v > tolerance else 0)
    box = diff.getbbox()
    if box is None:  # blank image: leave it alone
        return img
    w, h = img.size
    if (box[2] - box[0]) * (box[3] - box[1]) < 0.25 * w * h:  # the "border" is most of the image: not a frame
        return img
    return img.crop(box)


def image_hashes(path: str | Path) -> tuple[int, int]:
    """(pHash, dHash) of an image file as 64-bit integers."""
    import imagehash
    from PIL import Image

    with Image.open(path) as im:
        im.load()
        img = _trim_border(im.convert("RGB"))
    ph = imagehash.phash(img)
    dh = imagehash.dhash(img)
    return _to_int(ph.hash), _to_int(dh.hash)


def _to_int(bits: np.ndarray) -> int:
    return int("".join("1" if b else "0" for b in bits.flatten()), 2)


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


class MultiIndexHash:
    """Multi-index hashing over 64-bit codes: radius queries far below O(n) per query."""

    def __init__(self, radius: int):
        if radius > 2 * CHUNKS - 1:
            raise ValueError(f"radius {radius} > {2 * CHUNKS - 1}: probing 1-bit neighbours would miss pairs")
        self.radius = radius
        self.probe_bits = radius // CHUNKS  # 0 or 1
        self.tables: list[dict[int, list[int]]] = [defaultdict(list) for _ in range(CHUNKS)]
        self.codes: list[int] = []

    @staticmethod
    def _chunks(code: int) -> list[int]:
        mask = (1 << CHUNK_BITS) - 1
        return [(code >> (i * CHUNK_BITS)) & mask for i in range(CHUNKS)]

    def add(self, code: int) -> int:
        idx = len(self.codes)
        self.codes.append(code)
        for table, chunk in zip(self.tables, self._chunks(code)):
            table[chunk].append(idx)
        return idx

    def query(self, code: int) -> set[int]:
        """Ids of stored codes within ``radius`` bits of ``code``."""
        found: set[int] = set()
        for table, chunk in zip(self.tables, self._chunks(code)):
            probes = [chunk]
            if self.probe_bits:
                probes += [chunk ^ (1 << b) for b in range(CHUNK_BITS)]
            for p in probes:
                for idx in table.get(p, ()):
                    if idx not in found and hamming(self.codes[idx], code) <= self.radius:
                        found.add(idx)
        return found


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def cluster_hashes(hashes: Sequence[tuple[int, int]], phash_threshold: int = 6, dhash_threshold: int = 12) -> list[int]:
    """Cluster id (index of the cluster's first member) for each (pHash, dHash)."""
    index = MultiIndexHash(phash_threshold)
    uf = _UnionFind(len(hashes))
    for i, (ph, dh) in enumerate(hashes):
        for j in index.query(ph):
            if hamming(hashes[j][1], dh) <= dhash_threshold:
                uf.union(i, j)
        index.add(ph)
    return [uf.find(i) for i in range(len(hashes))]


class DuplicateFilter(GroupStep):
    """Keep one figure per near-duplicate cluster, within and across articles."""

    name = "duplicates"

    def __init__(self, dataset_root: str | Path, phash_threshold: int = 6, dhash_threshold: int = 12,
                 progress: bool = False):
        self.root = Path(dataset_root)
        self.phash_threshold = phash_threshold
        self.dhash_threshold = dhash_threshold
        self.progress = progress

    def run_group(self, records: list[Record]) -> list[Verdict]:
        from tqdm import tqdm

        hashed: list[int] = []
        hashes: list[tuple[int, int]] = []
        for i, rec in enumerate(tqdm(records, desc="hashing", unit="img", disable=not self.progress, leave=False)):
            path = rec.get("image_path")
            if not path or rec.get("image_status") not in (None, "ok"):
                note_skip(rec, self.name, "no_image")
                continue
            try:
                ph, dh = image_hashes(self.root / path)
            except Exception as exc:  # unreadable image: cannot judge it, say so and keep going
                note_skip(rec, self.name, "unreadable_image")
                rec["dup_error"] = f"{self.root / path}: {exc}"
                continue
            rec["phash"] = f"{ph:016x}"
            rec["dhash"] = f"{dh:016x}"
            hashed.append(i)
            hashes.append((ph, dh))
        clusters = cluster_hashes(hashes, self.phash_threshold, self.dhash_threshold)
        members: dict[int, list[int]] = defaultdict(list)
        for pos, root in enumerate(clusters):
            members[root].append(hashed[pos])
        verdicts = [KEEP] * len(records)
        for group in members.values():
            def size(i: int) -> int:
                return int(records[i].get("width") or 0) * int(records[i].get("height") or 0)

            keeper = max(group, key=lambda i: (size(i), -i))
            kept_id = f"{records[keeper].get('article_key')}/{records[keeper].get('figure_id')}"
            for i in group:
                records[i]["dup_cluster"] = kept_id
                records[i]["dup_cluster_size"] = len(group)
                if i != keeper:
                    verdicts[i] = drop("duplicate", f"near-duplicate of {kept_id}")
        return verdicts
