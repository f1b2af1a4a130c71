"""A small copy of a release for a GPU machine that the shared data does not reach.

    .venv/bin/python tools/build_shared_release.py SMALL_COPY [--release /tmp/shared_release/release] [--side 256]

tools/build_shared_release.sh makes the release; this writes a copy whose images are downscaled so
their longer side is at most --side pixels (JPEG), the rest of the release as it is. The models
resize every image to 224 or 260 pixels anyway, so the copy trains the same models in a few MiB.
Its figures table differs (new image paths), so its release fingerprint differs from the original's.
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
from pathlib import Path

import pyarrow as pa

from medfig.dataset import DatasetFolder
from medfig.images import open_image
from medfig.io import atomic_write_bytes
from medfig.records import MedfigError


def small_copy(release: Path, out: Path, side: int) -> int:
    folder = DatasetFolder(release)
    rows = folder.read_rows("figures")
    out.mkdir(parents=True, exist_ok=True)
    for row in rows:
        rel = row.get("image_path")
        if not rel or not (release / rel).is_file():
            continue
        with open_image(release / rel) as im:
            im = im.convert("RGB")
            im.thumbnail((side, side))
            buf = io.BytesIO()
            im.save(buf, "JPEG", quality=90)
        row["image_path"] = str(Path(rel).with_suffix(".jpg"))
        atomic_write_bytes(out / row["image_path"], buf.getvalue())
    DatasetFolder(out).write_table("figures", pa.Table.from_pylist(rows))
    for name in ("articles", "exclusions"):
        DatasetFolder(out).write_table(name, folder.read_table(name))
    shutil.copy2(release / "summary.json", out / "summary.json")
    return len(rows)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("output", type=Path)
    p.add_argument("--release", type=Path, default=Path("/tmp/shared_release/release"))
    p.add_argument("--side", type=int, default=256)
    args = p.parse_args()
    try:
        n = small_copy(args.release, args.output, args.side)
    except MedfigError as exc:
        print(f"build_shared_release.py: {exc}", file=sys.stderr)
        return 2
    size = sum(f.stat().st_size for f in args.output.rglob("*") if f.is_file())
    print(f"{args.output}: {n} figures, {size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
