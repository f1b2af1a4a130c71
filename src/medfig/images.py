"""Store a figure file in the dataset: web formats copied, others converted to PNG.

JPEG and PNG bytes are kept as published (no re-encoding loss); TIFF, GIF, BMP
and anything else Pillow or tifffile can read become PNG. Every image is fully
decoded once, so truncated or corrupt files are caught here and not by the user
at training time.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from medfig.io import atomic_write_bytes

# Larger than any published figure we know of (PMC's biggest are ~100 MP), small
# enough that a decompression bomb cannot take the worker's memory.
MAX_PIXELS = 250_000_000
KEEP_AS_IS = {"JPEG": ".jpg", "PNG": ".png"}


class ImageError(Exception):
    """The figure file cannot be decoded; the message says why."""


@dataclass(slots=True)
class StoredImage:
    path: Path
    format: str  # format of the stored file: "JPEG" or "PNG"
    source_format: str  # format of the file in the package ("TIFF", "GIF", ...)
    width: int  # pixels
    height: int
    sha256: str  # of the stored file's bytes


def _open_checked(data: bytes) -> Image.Image:
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as exc:
            raise ImageError(f"image too large: {exc}") from exc
        except Image.DecompressionBombWarning as exc:
            raise ImageError(f"image too large: {exc}") from exc
        except Exception as exc:  # Pillow raises several types for unreadable data
            raise ImageError(f"not a readable image: {exc}") from exc
    if image.width * image.height > MAX_PIXELS:
        raise ImageError(f"image too large: {image.width}x{image.height} pixels")
    try:
        image.load()
    except Exception as exc:
        raise ImageError(f"corrupt or truncated image data: {exc}") from exc
    return image


def _tiff_fallback(data: bytes) -> Image.Image:
    """Scientific TIFFs Pillow cannot decode (e.g. 16-bit multi-channel) via tifffile."""
    import tifffile

    try:
        array = tifffile.imread(io.BytesIO(data), key=0)
    except Exception as exc:
        raise ImageError(f"not a readable TIFF: {exc}") from exc
    if array.dtype != np.uint8:
        array = array.astype(np.float64)
        low, high = float(array.min()), float(array.max())
        scale = 255.0 / (high - low) if high > low else 0.0
        array = ((array - low) * scale).astype(np.uint8)
    if array.ndim == 3 and array.shape[0] in (3, 4) and array.shape[-1] not in (3, 4):
        array = np.moveaxis(array, 0, -1)
    if array.ndim == 3 and array.shape[-1] not in (3, 4):
        array = array[..., 0]
    return Image.fromarray(array)


def _web_mode(image: Image.Image) -> Image.Image:
    if image.mode in ("RGB", "RGBA", "L", "LA", "P", "1"):
        return image
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        array = np.asarray(image, dtype=np.float64)
        low, high = float(array.min()), float(array.max())
        scale = 255.0 / (high - low) if high > low else 0.0
        return Image.fromarray(((array - low) * scale).astype(np.uint8))
    return image.convert("RGB")  # CMYK, YCbCr, LAB, ...


def decode_image(data: bytes, name: str) -> tuple[Image.Image, str]:
    """Decode figure bytes; returns the image and its source format."""
    try:
        image = _open_checked(data)
        return image, image.format or "UNKNOWN"
    except ImageError:
        if name.lower().endswith((".tif", ".tiff")):
            return _tiff_fallback(data), "TIFF"
        raise


def store_image(data: bytes, name: str, dest_stem: Path) -> StoredImage:
    """Write the figure file next to ``dest_stem`` (the extension is chosen here)."""
    image, source_format = decode_image(data, name)
    if source_format in KEEP_AS_IS:
        stored, fmt = data, source_format
    else:
        if getattr(image, "n_frames", 1) > 1:
            image.seek(0)
        buffer = io.BytesIO()
        _web_mode(image).save(buffer, format="PNG", optimize=False)
        stored, fmt = buffer.getvalue(), "PNG"
    path = dest_stem.with_name(dest_stem.name + KEEP_AS_IS[fmt])
    atomic_write_bytes(path, stored, only_if_changed=True)
    return StoredImage(
        path=path,
        format=fmt,
        source_format=source_format,
        width=image.width,
        height=image.height,
        sha256=hashlib.sha256(stored).hexdigest(),
    )
