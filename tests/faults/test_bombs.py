"""Decompression bombs and odd figure files (issue 19, items 6 and 8).

A small file that declares a huge image must be refused from its header, before any
decoder allocates the pixels, by every decoder (Pillow, the tifffile fallback), with a
message that names the file and the declared size; memory is measured in a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import tifffile
from PIL import Image

import medfig.images as images
from medfig.images import ImageError, store_image

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PACKAGE = DATA / "jats_pdf_figure_packages" / "elife-19405_pmc_deposit"
SIDE = 20_000  # 20000 x 20000 = 400 MP
LIMIT_MESSAGE = f"{SIDE}x{SIDE} pixels (400 MP) exceeds the 250 MP limit"
ADDRESS_SPACE = 4 << 30  # safety net: a decoder that ignores the budget fails here instead of taking the machine


def _tiff_bomb(samples: int = 1) -> bytes:
    """A 20000x20000 16-bit TIFF of zero tiles, zlib-compressed: under 2 MB on disk, 800 MB+ decoded."""
    shape = (1024, 1024) if samples == 1 else (1024, 1024, samples)
    tile = np.zeros(shape, np.uint16)
    full = (SIDE, SIDE) if samples == 1 else (SIDE, SIDE, samples)
    layout = {"planarconfig": "contig"} if samples > 1 else {}
    buffer = io.BytesIO()
    tifffile.imwrite(buffer, (tile for _ in range(20 * 20)), shape=full, dtype=np.uint16, tile=(1024, 1024),
                     compression="zlib", photometric="minisblack", **layout)
    return buffer.getvalue()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png_bomb(width: int = SIDE, height: int = SIDE) -> bytes:
    """A greyscale PNG declaring ``width`` x ``height``; its IDAT holds zero rows, zlib-streamed."""
    compressor = zlib.compressobj(9)
    row = b"\0" * (width + 1)  # filter byte + pixels
    parts = [compressor.compress(row) for _ in range(height)]
    idat = b"".join(parts) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def _jpeg_bomb() -> bytes:
    """A real 16x16 JPEG whose SOF0 header is patched to declare 20000x20000."""
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (120, 30, 200)).save(buffer, format="JPEG")
    data = bytearray(buffer.getvalue())
    at = data.index(b"\xff\xc0")  # SOF0: marker, length(2), precision(1), height(2), width(2)
    struct.pack_into(">HH", data, at + 5, SIDE, SIDE)
    return bytes(data)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    files = {"bomb.tif": _tiff_bomb(), "bomb2.tif": _tiff_bomb(samples=2), "bomb.png": _png_bomb(),
             "bomb.jpg": _jpeg_bomb()}
    out = {}
    for name, data in files.items():
        assert len(data) < 2_000_000, f"{name} must be a small file ({len(data)} bytes)"
        (folder / name).write_bytes(data)
        out[name] = folder / name
    return out


_STORE_IN_SUBPROCESS = textwrap.dedent("""
    import json, resource, sys
    from pathlib import Path
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from medfig.images import ImageError, decode_image, store_image
    path, out = Path(sys.argv[1]), Path(sys.argv[2])
    result = {{}}
    for step, call in (("decode", lambda: decode_image(path.read_bytes(), path.name)),
                       ("store", lambda: store_image(path.read_bytes(), path.name, out / "fig"))):
        try:
            call()
            result[step] = "ok"
        except ImageError as exc:
            result[step] = str(exc)
        except MemoryError as exc:
            result[step] = "MemoryError: " + str(exc)
    # VmHWM, not ru_maxrss: getrusage's peak survives execve, so a child of a big pytest process
    # would report its parent's peak; VmHWM belongs to this process image alone
    result["maxrss_mb"] = int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024
    print(json.dumps(result))
""")


def _store_in_subprocess(path: Path, out: Path) -> dict:
    script = _STORE_IN_SUBPROCESS.format(limit=ADDRESS_SPACE)
    done = subprocess.run([sys.executable, "-c", script, str(path), str(out)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["bomb.tif", "bomb2.tif", "bomb.png", "bomb.jpg"])
def test_bomb_is_refused_from_its_header_with_little_memory(bombs, name, tmp_path):
    """decode_image and store_image, each in a subprocess under a 4 GB address-space cap."""
    result = _store_in_subprocess(bombs[name], tmp_path)
    assert result["decode"] == result["store"] == f"{name}: {LIMIT_MESSAGE}", result
    assert result["maxrss_mb"] < 300, result
    assert not list(tmp_path.iterdir()), "nothing may be written for a refused image"


def test_the_stated_limit_is_the_one_that_applies(tmp_path):
    """An image between Pillow's default limit (89.5 MP) and the budget (250 MP) is stored."""
    width, height = 12_000, 10_000  # 120 MP
    data = _png_bomb(width, height)
    stored = store_image(data, "big.png", tmp_path / "big")
    assert (stored.width, stored.height) == (width, height)
    assert stored.path.read_bytes() == data
    assert Image.MAX_IMAGE_PIXELS == images.MAX_IMAGE_PIXELS == 250_000_000
    images.check_pixels("edge.png", images.MAX_IMAGE_PIXELS, 1)  # exactly at the budget: allowed
    with pytest.raises(images.ImageTooLarge, match=r"edge.png: 250000001x1 pixels \(250 MP\) exceeds the 250 MP limit"):
        images.check_pixels("edge.png", images.MAX_IMAGE_PIXELS + 1, 1)


def test_empty_file_says_empty_file(tmp_path):
    for name in ("empty.png", "empty.tif", "empty.jpg"):
        with pytest.raises(ImageError) as caught:
            store_image(b"", name, tmp_path / "e")
        assert str(caught.value) == f"{name}: empty file"
        assert "0x" not in str(caught.value)


def test_unknown_format_shows_no_object_address(tmp_path):
    with pytest.raises(ImageError, match="not a readable image") as caught:
        store_image(b"<html>not an image</html>", "fig.png", tmp_path / "x")
    assert "object at 0x" not in str(caught.value) and "fig.png" in str(caught.value)


def _cmyk_jpeg() -> bytes:
    """Pillow writes CMYK JPEGs as Photoshop does (Adobe APP14 marker, inverted ink)."""
    buffer = io.BytesIO()
    Image.new("CMYK", (40, 30), (0, 255, 255, 0)).save(buffer, format="JPEG", quality=95)  # pure red ink
    return buffer.getvalue()


def test_cmyk_jpeg_is_stored_as_rgb_jpeg(tmp_path):
    stored = store_image(_cmyk_jpeg(), "cmyk.jpg", tmp_path / "cmyk")
    assert (stored.format, stored.source_format, stored.path.suffix) == ("JPEG", "JPEG", ".jpg")
    with Image.open(stored.path) as image:
        assert image.mode == "RGB" and image.size == (40, 30)
        red, green, blue = image.getpixel((20, 15))
    assert red > 200 and green < 60 and blue < 60


def test_rgb_and_grey_jpegs_keep_their_bytes(tmp_path):
    for mode in ("RGB", "L"):
        buffer = io.BytesIO()
        Image.new(mode, (20, 10), 90).save(buffer, format="JPEG")
        stored = store_image(buffer.getvalue(), f"{mode}.jpg", tmp_path / mode)
        assert stored.path.read_bytes() == buffer.getvalue()


_BUILD_IN_SUBPROCESS = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from medfig.cli import main
    code = main(["build", sys.argv[1], "-o", sys.argv[2], "--workers", "1", "--no-pdf-figures",
                 "--no-subfigures", "-q"])
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({{"code": code, "self_mb": own, "children_mb": children}}))
""")


def test_build_with_a_bomb_figure_records_the_error_and_stays_small(bombs, tmp_path):
    package = tmp_path / "input" / "elife-19405"
    package.mkdir(parents=True)
    for name in ("elife-19405.xml", "elife-19405-inf1.tif"):
        shutil.copy(PACKAGE / name, package / name)
    shutil.copy(bombs["bomb.tif"], package / "elife-19405-fig1.tif")  # the figure file is the bomb
    out = tmp_path / "dataset"
    script = _BUILD_IN_SUBPROCESS.format(limit=ADDRESS_SPACE)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "input"), str(out)], capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    usage = json.loads(done.stdout.strip().splitlines()[-1])
    assert usage["code"] == 0, (usage, done.stderr[-3000:])
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    bomb_rows = [f for f in figures if f.get("image_status") == "error"]
    statuses = [(f["figure_id"], f["image_status"], f.get("image_error")) for f in figures]
    assert len(bomb_rows) == 1, (statuses, usage)
    assert bomb_rows[0]["image_error"] == f"elife-19405-fig1.tif: {LIMIT_MESSAGE}"
    assert max(usage["self_mb"], usage["children_mb"]) < 2048, usage
    print("build peak MB:", usage)


_RENDER_IN_SUBPROCESS = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    import pypdfium2 as pdfium
    from medfig.pdf.page_image import render_page
    doc = pdfium.PdfDocument.new()
    doc.new_page(14400, 14400).close()  # 200 x 200 inches, PDF's largest page: 40000 px a side at 200 dpi
    try:
        render_page(doc, 0, 200.0)
        result = {{"rendered": True}}
    except ValueError as exc:
        result = {{"error": str(exc)}}
    except Exception as exc:
        result = {{"other": type(exc).__name__ + ": " + str(exc)}}
    # VmHWM, not ru_maxrss: getrusage's peak survives execve, so a child of a big pytest process
    # would report its parent's peak; VmHWM belongs to this process image alone
    result["maxrss_mb"] = int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024
    print(json.dumps(result))
""")


def test_page_render_over_the_budget_is_refused_before_the_bitmap():
    done = subprocess.run([sys.executable, "-c", _RENDER_IN_SUBPROCESS.format(limit=ADDRESS_SPACE)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result.get("error") == "page 1: 40001x40001 pixels (1600 MP) exceeds the 250 MP limit", result
    assert result["maxrss_mb"] < 300, result


def test_crop_dpi_is_lowered_to_the_budget_only_for_huge_boxes():
    from medfig.pdf.output import budget_dpi

    assert budget_dpi((0, 0, 612, 792), 600.0) == 600.0  # a whole letter page at 600 dpi: 33 MP, unchanged
    poster = (0.0, 0.0, 2384.0, 3370.0)  # A0 at 600 dpi would be 558 MP
    dpi = budget_dpi(poster, 600.0)
    assert dpi < 600.0
    assert (2384 * dpi / 72 + 1) * (3370 * dpi / 72 + 1) <= images.MAX_IMAGE_PIXELS
    assert (2384 * dpi / 72) * (3370 * dpi / 72) > 0.95 * images.MAX_IMAGE_PIXELS
