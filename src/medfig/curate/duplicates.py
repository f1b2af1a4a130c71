"""Near-duplicate images: perceptual hashes + a multi-index hash table.

Each stored image gets two 64-bit hashes from ``imagehash``: pHash (DCT of the
32x32 grey image: robust to resizing and recompression) and dHash (gradient
signs: catches what pHash blurs) for several variants: the image with its margins
cut in four ways (uniform frame, flat background, added frame only, nothing), each
whole and cropped by 2% per side, so that "the same figure with a border", "cropped
by a few percent" or "resized and recompressed" share at least one variant.

Two images are duplicates when, for some variant of each, ``hamming(pHash) <=
phash_threshold`` and ``hamming(dHash) <= dhash_threshold``. Candidates come from multi-index hashing
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

from medfig.pipeline.steps import KEEP, GroupStep, Record, Verdict, drop, note_skip

CHUNKS = 4
CHUNK_BITS = 16


def _trim_corner_colour(img, tolerance: int = 12):
    """Cut a frame of the top-left pixel's colour (a white border added around a figure)."""
    from PIL import ImageChops

    grey = img.convert("L")
    corner = grey.getpixel((0, 0))
    diff = ImageChops.difference(grey, grey.point(lambda _: corner)).point(lambda v: 255 if v > tolerance else 0)
    box = diff.getbbox()
    if box is None or (box[2] - box[0]) * (box[3] - box[1]) < 0.25 * img.size[0] * img.size[1]:
        return img
    return img.crop(box)


def _trim_border(img, flat_std: float = 4.0):
    """Cut flat margins: leading/trailing rows and columns whose grey values barely vary.

    Each row/column is judged on its own, so a white frame around a black-background
    scan is cut away along with the black margin, and an image cropped into its
    content keeps every line. JPEG noise stays under ``flat_std``.
    """
    grey = np.asarray(img.convert("L"), dtype=np.float32)
    rows = grey.std(axis=1) > flat_std
    cols = grey.std(axis=0) > flat_std
    if not rows.any() or not cols.any():  # a blank image: nothing to trim to
        return img
    top, bottom = int(rows.argmax()), len(rows) - int(rows[::-1].argmax())
    left, right = int(cols.argmax()), len(cols) - int(cols[::-1].argmax())
    if (bottom - top) * (right - left) < 0.05 * grey.size:
        return img
    return img.crop((left, top, right, bottom))


def _until_stable(trim, img, rounds: int = 4):
    """Trim again until nothing changes: a white frame around a black background needs two
    passes (the frame's columns make every row of the background look non-flat)."""
    for _ in range(rounds):
        cut = trim(img)
        if cut.size == img.size:
            break
        img = cut
    return img


CROP_VARIANT = 0.02  # fraction cut from each side for the cropped hash variant


def margin_cuts(img) -> list:
    """The image with its margins cut in four ways, because no single way is right for every figure.

    - corner colour until stable / flat lines until stable: the whole uniform surround goes,
      so "A" and "A inside a white frame" meet; the first catches added frames, the second
      black scan backgrounds (a white frame around a black background needs two passes);
    - corner colour once: only an added frame goes. Trimming until stable also eats a dark
      background that starts at the image edge, and where it stops depends on how much of
      that background a crop left: on sparse pictures (a tile that is mostly black with
      content in one corner, a line drawing) the two copies end up cut differently;
    - no cut: a copy cropped by a few percent then meets the original's cropped variant.
    """
    return [_until_stable(_trim_corner_colour, img), _until_stable(_trim_border, img), _trim_corner_colour(img), img]


def hash_variants(img) -> list[tuple[int, int]]:
    """Distinct (pHash, dHash) codes of each margin cut (:func:`margin_cuts`), whole and 2%-per-side cropped.

    DCT hashes move a lot when a few percent of the margin is cut away; hashing every cut
    both whole and slightly cropped lets "A" meet "A cropped by 2%" through the pair
    (crop(A), whole(B)), without loosening the Hamming thresholds. The first code is the
    whole image after the corner-colour cut (stored as the record's ``phash``/``dhash``).
    """
    import imagehash

    from medfig.images import flat_rgb

    out: list[tuple[int, int]] = []
    for trimmed in margin_cuts(flat_rgb(img)):
        w, h = trimmed.size
        dx, dy = int(CROP_VARIANT * w), int(CROP_VARIANT * h)
        for variant in (trimmed, trimmed.crop((dx, dy, w - dx, h - dy))):
            code = (_to_int(imagehash.phash(variant).hash), _to_int(imagehash.dhash(variant).hash))
            if code not in out:
                out.append(code)
    return out


def image_hashes(path: str | Path) -> list[tuple[int, int]]:
    """Hash variants (see :func:`hash_variants`) of an image file; 64-bit integers."""
    from medfig.images import open_image  # the build's pixel budget, checked on the declared size

    with open_image(path) as im:
        im.load()
        return hash_variants(im)


def _hashes_or_error(path: str) -> list[tuple[int, int]] | str:
    """:func:`image_hashes`, or the error text: a worker process must not die on one bad image."""
    try:
        return image_hashes(path)
    except Exception as exc:
        return str(exc) or type(exc).__name__


def _hash_chunk(chunk: tuple[int, list[str]]) -> tuple[int, list]:
    """``(start, [hashes or error text per path])``: one task of the hashing pool."""
    start, paths = chunk
    return start, [_hashes_or_error(p) for p in paths]


def _chunk_failed(chunk: tuple[int, list[str]], failure) -> tuple[int, list]:
    """A chunk whose worker died (or raised): each of its images is named unreadable with the reason."""
    start, paths = chunk
    if failure.stage == "exception":
        why = failure.error
    else:
        why = f"the hashing worker process died (exit code {failure.exit_code})"
    return start, [why] * len(paths)


def _hash_all(paths: list[str], workers: int, progress: bool, executor: str = "local", ray_address: str | None = None):
    """Hash results in the order of ``paths``; ``workers`` > 1 hashes in that many processes.

    The processes are the build's executor (:func:`medfig.pipeline.executors.make_executor`, local
    kind: spawned workers, a dead one replaced and its chunk retried once); chunks come back in
    completion order and are put back in input order here.
    """
    from tqdm import tqdm

    bar = dict(desc="hashing", unit="img", disable=not progress, leave=False, total=len(paths))
    if executor == "local" and (workers <= 1 or len(paths) < 2 * workers):
        yield from tqdm(map(_hashes_or_error, paths), **bar)
        return
    from medfig.pipeline.executors import make_executor

    size = max(1, min(64, len(paths) // (8 * max(1, workers))))
    chunks = [(i, paths[i:i + size]) for i in range(0, len(paths), size)]
    done: dict[int, list] = {}
    next_start = 0
    with tqdm(**bar) as progress_bar, make_executor(executor, workers=workers, ray_address=ray_address,
                                                        on_failure=_chunk_failed) as pool:
        for start, results in pool.map(_hash_chunk, chunks):
            done[start] = results
            progress_bar.update(len(results))
            while next_start in done:  # yield in input order as soon as the next chunk is in
                ready = done.pop(next_start)
                next_start += len(ready)
                yield from ready


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


def cluster_hashes(hashes: Sequence[Sequence[tuple[int, int]]], phash_threshold: int = 6,
                   dhash_threshold: int = 12) -> list[int]:
    """Cluster id (smallest member index) for each image, given its (pHash, dHash) variants.

    Two images are joined when some variant of one and some variant of the other are
    within both thresholds. A plain ``(pHash, dHash)`` tuple per image is accepted too.
    """
    hashes = [[h] if isinstance(h[0], int) else list(h) for h in hashes]
    index = MultiIndexHash(phash_threshold)
    owner: list[tuple[int, int]] = []  # index entry -> (image, variant)
    uf = _UnionFind(len(hashes))
    for i, variants in enumerate(hashes):
        for ph, dh in variants:
            for entry in index.query(ph):
                j, v = owner[entry]
                if j != i and hamming(hashes[j][v][1], dh) <= dhash_threshold:
                    uf.union(i, j)
        for v, (ph, _) in enumerate(variants):
            index.add(ph)
            owner.append((i, v))
    return [uf.find(i) for i in range(len(hashes))]


class DuplicateFilter(GroupStep):
    """Keep one figure per near-duplicate cluster, within and across articles."""

    name = "duplicates"

    def __init__(self, dataset_root: str | Path, phash_threshold: int = 6, dhash_threshold: int = 12,
                 progress: bool = False, workers: int = 1, executor: str = "local", ray_address: str | None = None):
        self.root = Path(dataset_root)
        self.workers = workers
        self.executor = executor
        self.ray_address = ray_address
        self.phash_threshold = phash_threshold
        self.dhash_threshold = dhash_threshold
        self.progress = progress

    def run_group(self, records: list[Record]) -> list[Verdict]:
        hashed: list[int] = []
        hashes: list[tuple[int, int]] = []
        with_image = []
        for i, rec in enumerate(records):
            if not rec.get("image_path") or rec.get("image_status") not in (None, "ok"):
                note_skip(rec, self.name, "no_image")
            else:
                with_image.append(i)
        paths = [str(self.root / records[i]["image_path"]) for i in with_image]
        for i, path, variants in zip(with_image, paths, _hash_all(paths, self.workers, self.progress, self.executor, self.ray_address)):
            rec = records[i]
            if isinstance(variants, str):  # unreadable image: cannot judge it, say so and keep going
                note_skip(rec, self.name, "unreadable_image")
                rec["dup_error"] = f"{path}: {variants}"
                continue
            rec["phash"] = f"{variants[0][0]:016x}"
            rec["dhash"] = f"{variants[0][1]:016x}"
            hashed.append(i)
            hashes.append(variants)
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
