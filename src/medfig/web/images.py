"""Image files for the web app, only ever from inside the dataset folder.

Paths come from the index (never from the URL), and are still resolved and checked
to lie under the dataset root, so a crafted dataset row like ``../../etc/passwd`` or a
symlink pointing outside cannot be served either.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}


def safe_dataset_file(root: Path, relative: str | None) -> Path | None:
    """``root/relative`` when it is an existing image file inside ``root``; None otherwise."""
    if not relative:
        return None
    root = root.resolve()
    try:
        path = (root / relative).resolve()
        path.relative_to(root)
    except (ValueError, OSError):
        return None
    if path.suffix.lower() not in MEDIA_TYPES or not path.is_file():
        return None
    return path


@lru_cache(maxsize=512)
def crop_png(image_file: Path, box_px: tuple[float, float, float, float]) -> bytes:
    """A panel cut from the figure image: box [x0, y0, x1, y1] in pixels of that image, clamped to it."""
    from PIL import Image

    with Image.open(image_file) as image:
        x0, y0, x1, y1 = box_px
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(image.width, int(round(x1))), min(image.height, int(round(y1)))
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"{image_file}: empty panel box {box_px}")
        crop = image.convert("RGB").crop((x0, y0, x1, y1))
        crop.thumbnail((640, 640))
        buffer = io.BytesIO()
        crop.save(buffer, format="PNG")
        return buffer.getvalue()
