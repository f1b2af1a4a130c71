"""Store a figure file in the dataset: web formats copied, others converted to PNG.

JPEG and PNG bytes are kept as published (no re-encoding loss); TIFF, GIF, BMP
and anything else Pillow or tifffile can read become PNG. A CMYK (or YCCK) JPEG,
which many viewers render wrongly, is stored as an RGB JPEG. Every image is fully
decoded once, so truncated or corrupt files are caught here and not by the user
at training time.

The pixel budget: no decoder is asked for an image whose *declared* size (read
from its header, before any pixel buffer exists) is above ``MAX_IMAGE_PIXELS``.
Pillow's own bomb check is set to the same number, the tifffile fallback reads
the page shape from the IFD first, and :func:`open_image` applies it to every
other place that opens an image file.
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

# The one pixel budget (width x height of the declared image, frames and samples aside).
# Larger than any published figure we know of (PMC's biggest are ~100 MP), small enough that
# a decompression bomb cannot take the worker's memory: Pillow holds at most 4 bytes a pixel
# (1 GB at the limit); the tifffile fallback is also held to 8 bytes a pixel of raw samples.
MAX_IMAGE_PIXELS = 250_000_000
MAX_FALLBACK_BYTES = 8 * MAX_IMAGE_PIXELS
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS  # Pillow warns above this (an error here) and fails above twice it
KEEP_AS_IS = {"JPEG": ".jpg", "PNG": ".png"}
_CHUNK_VALUES = 1 << 22  # values converted to 8 bits per step (32 MB of float64)


class ImageError(Exception):
    """The figure file cannot be decoded; the message says why."""


class ImageTooLarge(ImageError, ValueError):
    """The declared size is above the pixel budget; no decoder was run (a ValueError too, for callers
    that treat a bad render or box as one)."""


@dataclass(slots=True)
class StoredImage:
    path: Path
    format: str  # format of the stored file: "JPEG" or "PNG"
    source_format: str  # format of the file in the package ("TIFF", "GIF", ...)
    width: int  # pixels
    height: int
    sha256: str  # of the stored file's bytes


def check_pixels(name: str, width: int, height: int, depth: int = 1) -> None:
    """Raise :class:`ImageTooLarge` when a declared ``width`` x ``height`` (x ``depth``) is over budget."""
    pixels = int(width) * int(height) * max(1, int(depth))
    if pixels > MAX_IMAGE_PIXELS:
        size = f"{width}x{height}" + (f"x{depth}" if depth > 1 else "")
        raise ImageTooLarge(f"{name}: {size} pixels ({pixels / 1e6:.0f} MP) exceeds the "
                            f"{MAX_IMAGE_PIXELS / 1e6:.0f} MP limit")


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the header, by the plugin Pillow would pick, without its bomb check."""
    Image.init()
    prefix = data[:16]
    for fmt in Image.ID:
        factory, accept = Image.OPEN[fmt]
        try:
            accepted = accept(prefix) if accept is not None else True
            if not accepted or isinstance(accepted, str):
                continue
            return factory(io.BytesIO(data), "").size  # parses the header only
        except Exception:
            continue
    return None


def _too_large(name: str, data: bytes, exc: Exception) -> ImageTooLarge:
    size = _declared_size(data)
    if size is None:
        return ImageTooLarge(f"{name}: declared size exceeds the {MAX_IMAGE_PIXELS / 1e6:.0f} MP limit ({exc})")
    try:
        check_pixels(name, *size)
    except ImageTooLarge as too_large:
        return too_large
    return ImageTooLarge(f"{name}: {exc}")


def _open_header(data: bytes, name: str) -> Image.Image:
    """Pillow's image object, header read and size checked, no pixels decoded."""
    if not data:
        raise ImageError(f"{name}: empty file")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise _too_large(name, data, exc) from None
        except Image.UnidentifiedImageError:
            raise ImageError(f"not a readable image: {name}: unknown or unsupported format") from None
        except Exception as exc:  # Pillow raises several types for unreadable data
            raise ImageError(f"not a readable image: {exc}") from exc
    check_pixels(name, image.width, image.height)
    return image


def _open_checked(data: bytes, name: str) -> Image.Image:
    image = _open_header(data, name)
    try:
        image.load()
    except Exception as exc:
        raise ImageError(f"corrupt or truncated image data: {exc}") from exc
    return image


def open_image(path: str | Path) -> Image.Image:
    """``Image.open`` of a file, held to the pixel budget (:class:`ImageTooLarge` otherwise); lazy like it."""
    path = Path(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(path)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            with open(path, "rb") as handle:
                head = handle.read(1 << 20)
            raise _too_large(path.name, head, exc) from None
    try:
        check_pixels(path.name, image.width, image.height)
    except ImageTooLarge:
        image.close()
        raise
    return image


def _to_uint8(array: np.ndarray, low: float, high: float) -> np.ndarray:
    """``((array - low) * 255 / (high - low)).astype(uint8)`` in float64, a slice of rows at a time."""
    scale = 255.0 / (high - low) if high > low else 0.0
    out = np.empty(array.shape, dtype=np.uint8)
    if array.ndim == 0 or array.size == 0:
        return ((array.astype(np.float64) - low) * scale).astype(np.uint8)
    rows = max(1, _CHUNK_VALUES // max(1, array[0].size))
    for start in range(0, array.shape[0], rows):
        out[start:start + rows] = ((array[start:start + rows].astype(np.float64) - low) * scale).astype(np.uint8)
    return out


def _tiff_fallback(data: bytes, name: str) -> Image.Image:
    """Scientific TIFFs Pillow cannot decode (e.g. 16-bit multi-channel) via tifffile.

    The first page's declared shape is checked against the budget before it is decoded."""
    import tifffile

    try:
        with tifffile.TiffFile(io.BytesIO(data)) as tif:
            page = tif.pages[0]
            check_pixels(name, page.imagewidth, page.imagelength, getattr(page, "imagedepth", 1))
            nbytes = int(np.prod(page.shape, dtype=np.int64)) * page.dtype.itemsize
            if nbytes > MAX_FALLBACK_BYTES:
                raise ImageTooLarge(f"{name}: {page.imagewidth}x{page.imagelength} pixels of {page.shape} "
                                    f"{page.dtype} samples ({nbytes / 1e9:.1f} GB) exceeds the "
                                    f"{MAX_FALLBACK_BYTES / 1e9:.0f} GB limit")
            array = page.asarray()
    except ImageError:
        raise
    except Exception as exc:
        raise ImageError(f"not a readable TIFF: {exc}") from exc
    low = high = 0.0
    if array.dtype != np.uint8:
        low, high = float(array.min()), float(array.max())
    if array.ndim == 3 and array.shape[0] in (3, 4) and array.shape[-1] not in (3, 4):
        array = np.moveaxis(array, 0, -1)
    if array.ndim == 3 and array.shape[-1] not in (3, 4):
        array = array[..., 0]
    if array.dtype != np.uint8:
        array = _to_uint8(array, low, high)
    try:
        return Image.fromarray(array)
    except Exception as exc:
        raise ImageError(f"not a readable TIFF: {name}: unsupported layout {array.shape} ({exc})") from exc


def _web_mode(image: Image.Image) -> Image.Image:
    if image.mode in ("RGB", "RGBA", "L", "LA", "P", "1"):
        return image
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        array = np.asarray(image)
        return Image.fromarray(_to_uint8(array, float(array.min()), float(array.max())))
    return image.convert("RGB")  # CMYK, YCbCr, LAB, ...


def _cmyk_as_rgb(image: Image.Image) -> Image.Image:
    """A CMYK image in RGB, through its ICC profile when it has one."""
    icc = image.info.get("icc_profile")
    if icc:
        try:
            from PIL import ImageCms

            return ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                                             ImageCms.createProfile("sRGB"), outputMode="RGB")
        except Exception:
            pass  # a broken profile: Pillow's plain conversion below
    return image.convert("RGB")


def flat_rgb(image: Image.Image) -> Image.Image:
    """The pixels a reader sees, as 8-bit RGB: transparency over a white page (``convert("RGB")``
    keeps the colour stored under it, black in most exported charts, and the figure's white
    gaps vanish), 16-bit and float samples stretched over their range (``convert`` clips them
    to white), CMYK through its ICC profile."""
    if image.mode == "CMYK":
        return _cmyk_as_rgb(image)
    image = _web_mode(image)
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def _cmyk_jpeg_as_rgb(image: Image.Image) -> bytes:
    """A CMYK/YCCK JPEG re-encoded as an RGB JPEG (through its ICC profile when it has one)."""
    rgb = _cmyk_as_rgb(image)
    buffer = io.BytesIO()
    options = {"dpi": image.info["dpi"]} if "dpi" in image.info else {}
    rgb.save(buffer, format="JPEG", quality=95, subsampling=0, **options)
    return buffer.getvalue()


def decode_image(data: bytes, name: str) -> tuple[Image.Image, str]:
    """Decode figure bytes; returns the image and its source format."""
    try:
        image = _open_checked(data, name)
        return image, image.format or "UNKNOWN"
    except ImageTooLarge:
        raise
    except ImageError:
        if data and name.lower().endswith((".tif", ".tiff")):
            return _tiff_fallback(data, name), "TIFF"
        raise


def store_image(data: bytes, name: str, dest_stem: Path) -> StoredImage:
    """Write the figure file next to ``dest_stem`` (the extension is chosen here)."""
    image, source_format = decode_image(data, name)
    if source_format == "JPEG" and image.mode == "CMYK":
        stored, fmt = _cmyk_jpeg_as_rgb(image), "JPEG"
    elif source_format in KEEP_AS_IS:
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
