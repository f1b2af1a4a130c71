"""Near-duplicate index and clustering: exact against brute force, and on real figure images."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageOps

from medfig.curate.duplicates import MultiIndexHash, cluster_hashes, hamming, hash_variants
from medfig.curate.steps import run_steps


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
    originals = [Image.open(f).convert("RGB") for f in files]
    hashes, owner = [], []
    for i, im in enumerate(originals):
        w, h = im.size
        for variant in (im, im.resize((w // 2, h // 2)), _jpeg(im), ImageOps.expand(im, 10, fill="white")):
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
