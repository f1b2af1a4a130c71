"""Near-duplicate index and clustering: exact against brute force, and on real figure images."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageOps

from medfig.curate.duplicates import MultiIndexHash, cluster_hashes, hamming, hash_variants
from medfig.pipeline.steps import run_steps


def test_multi_index_hash_finds_exactly_the_brute_force_neighbours():
    rng = random.Random(1)
    codes = []
    for _ in range(3000):
        if codes and rng.random() < 0.3:
            c = rng.choice(codes)
            for _ in range(rng.randint(0, 9)):
                c ^= 1 << rng.randrange(64)
            codes.append(c)
        else:
            codes.append(rng.getrandbits(64))
    for radius in (3, 6, 7):
        index = MultiIndexHash(radius)
        for c in codes:
            index.add(c)
        for q in codes[:300]:
            brute = {i for i, c in enumerate(codes) if hamming(c, q) <= radius}
            assert index.query(q) == brute


def _jpeg(im, q=40):
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=q)
    buf.seek(0)
    return Image.open(buf).convert("RGB")


def test_perturbed_real_figures_cluster_with_their_original_and_distinct_ones_do_not(data_dir):
    files = sorted((data_dir / "medicat_sample" / "figures").glob("*.png"))
    assert len(files) == 10
    originals = [Image.open(f).convert("RGB") for f in files]
    hashes, owner = [], []
    for i, im in enumerate(originals):
        w, h = im.size
        crop = im.crop((w // 50, h // 50, w - w // 50, h - h // 50))
        combined = _jpeg(ImageOps.expand(crop.resize((w * 3 // 4, h * 3 // 4)), 6, fill="white"))
        for variant in (im, im.resize((w // 2, h // 2)), _jpeg(im), ImageOps.expand(im, 10, fill="white"), crop, combined):
            hashes.append(hash_variants(variant))
            owner.append(i)
    clusters = cluster_hashes(hashes)
    for k, i in enumerate(owner):
        assert clusters[k] == clusters[owner.index(i)], f"copy {k} of {files[i].name} not found"
    # ten different figures stay ten clusters
    assert len({clusters[owner.index(i)] for i in range(len(files))}) == len(files)


def test_duplicate_step_keeps_the_largest_copy_and_skips_rows_without_images(data_dir, tmp_path):
    from medfig.curate.duplicates import DuplicateFilter

    src = sorted((data_dir / "medicat_sample" / "figures").glob("*.png"))[0]
    im = Image.open(src).convert("RGB")
    (tmp_path / "images").mkdir()
    im.save(tmp_path / "images" / "big.png")
    im.resize((im.width // 2, im.height // 2)).save(tmp_path / "images" / "small.png")
    recs = [
        {"article_key": "a", "figure_id": "small", "image_path": "images/small.png", "image_status": "ok",
         "width": im.width // 2, "height": im.height // 2},
        {"article_key": "b", "figure_id": "big", "image_path": "images/big.png", "image_status": "ok",
         "width": im.width, "height": im.height},
        {"article_key": "c", "figure_id": "text-only", "image_path": None, "image_status": "missing"},
    ]
    kept, drops, stats = run_steps(recs, [DuplicateFilter(tmp_path)])
    assert [r["figure_id"] for r in kept] == ["big", "text-only"]
    assert drops[0]["figure_id"] == "small" and drops[0]["reason"] == "duplicate" and "b/big" in drops[0]["detail"]
    assert stats[0].as_dict()["skipped_by_reason"] == {"no_image": 1}


def test_two_percent_crop_of_a_sparse_dark_picture_is_found():
    """A mostly black picture with content in one corner (a tile of a sliced scan): trimming the
    dark background until stable cuts original and crop differently; the uncut variants still meet."""
    import numpy as np

    rng = np.random.default_rng(3)
    arr = np.zeros((255, 285), dtype=np.uint8)
    yy, xx = np.mgrid[0:255, 0:285]
    blob = (yy - 255) ** 2 + (xx - 285) ** 2 < 140 ** 2  # content in the bottom-right corner
    arr[blob] = (120 + 80 * np.sin(xx[blob] / 7.0) * np.cos(yy[blob] / 5.0)).astype(np.uint8)
    arr = np.clip(arr.astype(int) + rng.integers(0, 6, arr.shape), 0, 255).astype(np.uint8)
    im = Image.fromarray(arr).convert("RGB")
    w, h = im.size
    crop = im.crop((int(0.02 * w), int(0.02 * h), w - int(0.02 * w), h - int(0.02 * h)))
    other = Image.fromarray(np.ascontiguousarray(arr[::-1, ::-1])).convert("RGB")  # same texture, other corner
    clusters = cluster_hashes([hash_variants(im), hash_variants(crop), hash_variants(other)])
    assert clusters[0] == clusters[1]
    assert clusters[2] != clusters[0]


def test_hashing_in_two_processes_gives_the_same_verdicts_and_names_a_corrupt_image(data_dir, tmp_path):
    import copy

    from medfig.curate.duplicates import DuplicateFilter

    (tmp_path / "images").mkdir()
    recs = []
    for n, src in enumerate(sorted((data_dir / "medicat_sample" / "figures").glob("*.png"))):
        im = Image.open(src).convert("RGB")
        im.save(tmp_path / "images" / f"{n}.png")
        im.resize((im.width // 2, im.height // 2)).save(tmp_path / "images" / f"{n}-small.png")
        for name, size in ((f"{n}", im.size), (f"{n}-small", (im.width // 2, im.height // 2))):
            recs.append({"article_key": f"a{n}", "figure_id": name, "image_path": f"images/{name}.png",
                         "image_status": "ok", "width": size[0], "height": size[1]})
    (tmp_path / "images" / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    recs.append({"article_key": "z", "figure_id": "corrupt", "image_path": "images/corrupt.png", "image_status": "ok"})

    one = run_steps(copy.deepcopy(recs), [DuplicateFilter(tmp_path, workers=1)])
    two = run_steps(copy.deepcopy(recs), [DuplicateFilter(tmp_path, workers=2)])
    assert [r["figure_id"] for r in one[0]] == [r["figure_id"] for r in two[0]]
    hashes_one = [(r["figure_id"], r["phash"], r["dhash"]) for r in one[0] if "phash" in r]
    assert len(hashes_one) == 10  # the ten kept originals; the corrupt row has no hash
    assert hashes_one == [(r["figure_id"], r["phash"], r["dhash"]) for r in two[0] if "phash" in r]
    assert [d["figure_id"] for d in two[1]] == [d["figure_id"] for d in one[1]]
    assert len(two[1]) == 10  # each half-size copy joins its original
    corrupt = next(r for r in two[0] if r["figure_id"] == "corrupt")
    assert "corrupt.png" in corrupt["dup_error"]
    assert two[2][0].as_dict()["skipped_by_reason"] == {"unreadable_image": 1}
