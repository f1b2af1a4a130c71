"""Image files for the web app, only ever from inside the dataset folder.

Paths come from the index (never from the URL), and are still resolved and checked
to lie under the dataset root, so a crafted dataset row like ``../../etc/passwd`` or a
symlink pointing outside cannot be served either.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from medfig.dataset import DatasetFolder

MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}


def safe_dataset_file(root: Path, relative: str | None) -> Path | None:
    """``root/relative`` when it is an existing image file inside ``root``; None otherwise."""
    path = DatasetFolder(root).stored_file(relative)
    return path if path is not None and path.suffix.lower() in MEDIA_TYPES else None


@lru_cache(maxsize=512)
def crop_png(image_file: Path, box_px: tuple[float, float, float, float], full_size: bool = False) -> bytes:
    """A panel cut from the figure image: box [x0, y0, x1, y1] in pixels of that image, clamped to it;
    at most 640 px a side for the page, at the image's own resolution for a download (``full_size``)."""
    from medfig.images import flat_rgb, open_image  # the build's pixel budget, checked on the declared size

    with open_image(image_file) as image:
        x0, y0, x1, y1 = box_px
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(image.width, int(round(x1))), min(image.height, int(round(y1)))
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"{image_file}: empty panel box {box_px}")
        crop = flat_rgb(image).crop((x0, y0, x1, y1))
        if not full_size:
            crop.thumbnail((640, 640))
        buffer = io.BytesIO()
        crop.save(buffer, format="PNG")
        return buffer.getvalue()


THUMB_MAX_PX = 360


@lru_cache(maxsize=2048)
def thumbnail_jpeg(image_file: Path, box_px: tuple[float, float, float, float] | None, mtime_ns: int) -> bytes:
    """A small JPEG for the result grid (at most THUMB_MAX_PX a side) of the image, or of the panel
    ``box_px`` ([x0, y0, x1, y1], pixels of the image) inside it. ``mtime_ns`` keys the cache to the file
    version. Full-size figure files can be megabytes; the grid must stay fast."""
    from medfig.images import flat_rgb, open_image  # the build's pixel budget, checked on the declared size

    with open_image(image_file) as image:
        full_width = image.width
        if not box_px:  # JPEG decodes straight at a reduced size; a panel needs full-resolution pixels
            image.draft("RGB", (THUMB_MAX_PX * 2, THUMB_MAX_PX * 2))
        picture = flat_rgb(image)
        if box_px:
            scale = picture.width / full_width
            x0, y0, x1, y1 = (v * scale for v in box_px)
            x0, y0 = max(0, int(x0)), max(0, int(y0))
            x1, y1 = min(picture.width, int(round(x1))), min(picture.height, int(round(y1)))
            if x1 <= x0 or y1 <= y0:
                raise ValueError(f"{image_file}: empty panel box {box_px}")
            picture = picture.crop((x0, y0, x1, y1))
        picture.thumbnail((THUMB_MAX_PX, THUMB_MAX_PX))
        buffer = io.BytesIO()
        picture.save(buffer, format="JPEG", quality=85)
        return buffer.getvalue()
