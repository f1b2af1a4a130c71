"""Figure files: copied, converted, or rejected with a reason."""

import hashlib
import io
from pathlib import Path

import numpy as np
import pytest
import tifffile
from PIL import Image

from medfig.images import ImageError, store_image

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PACKAGES = DATA / "jats_pdf_figure_packages"


def test_real_lzw_tiff_becomes_png_with_same_pixels(tmp_path):
    source = PACKAGES / "elife-19405_pmc_deposit" / "elife-19405-fig1.tif"
    stored = store_image(source.read_bytes(), source.name, tmp_path / "fig1")
    assert stored.path == tmp_path / "fig1.png"
    assert (stored.format, stored.source_format) == ("PNG", "TIFF")
    assert (stored.width, stored.height) == (1417, 1252)
    assert stored.sha256 == hashlib.sha256(stored.path.read_bytes()).hexdigest()
    original = np.asarray(Image.open(source).convert("RGB"))
    converted = np.asarray(Image.open(stored.path).convert("RGB"))
    assert np.array_equal(original, converted)


def test_real_jpeg_is_copied_byte_for_byte(tmp_path):
    source = PACKAGES / "PMC10802347_partial_oa_package" / "nihpp-2023.12.31.573776v1-f0002.jpg"
    stored = store_image(source.read_bytes(), source.name, tmp_path / "f2")
    assert stored.path.suffix == ".jpg"
    assert stored.path.read_bytes() == source.read_bytes()
    assert (stored.width, stored.height) == (720, 446)


def test_truncated_jpeg_is_an_error(tmp_path):
    data = (PACKAGES / "PMC10802347_partial_oa_package" / "nihpp-2023.12.31.573776v1-f0003.jpg").read_bytes()
    with pytest.raises(ImageError, match="truncated|corrupt"):
        store_image(data[: len(data) // 3], "f3.jpg", tmp_path / "f3")
    assert not list(tmp_path.iterdir()), "nothing may be written for a corrupt image"


def test_garbage_is_an_error(tmp_path):
    with pytest.raises(ImageError, match="not a readable"):
        store_image(b"<html>not an image</html>", "fig.tif", tmp_path / "x")


def test_16_bit_tiff_is_scaled_to_8_bit(tmp_path):
    array = (np.arange(64 * 32, dtype=np.uint16).reshape(32, 64) * 30).astype(np.uint16)
    buffer = io.BytesIO()
    tifffile.imwrite(buffer, array)
    stored = store_image(buffer.getvalue(), "scan.tif", tmp_path / "scan")
    image = Image.open(stored.path)
    assert image.mode == "L" and image.size == (64, 32)
    values = np.asarray(image)
    assert values.min() == 0 and values.max() == 255


def test_cmyk_tiff_becomes_rgb_png(tmp_path):
    buffer = io.BytesIO()
    Image.new("CMYK", (10, 8), (0, 255, 255, 0)).save(buffer, format="TIFF")
    stored = store_image(buffer.getvalue(), "red.tif", tmp_path / "red")
    image = Image.open(stored.path)
    assert image.mode == "RGB"
    assert image.getpixel((0, 0))[0] > 200


def test_second_store_of_same_image_does_not_touch_file(tmp_path):
    source = PACKAGES / "elife-00353_vor" / "elife-00353-fig1-v1.tif"
    first = store_image(source.read_bytes(), source.name, tmp_path / "f")
    mtime = first.path.stat().st_mtime_ns
    second = store_image(source.read_bytes(), source.name, tmp_path / "f")
    assert second.sha256 == first.sha256
    assert second.path.stat().st_mtime_ns == mtime


def test_flat_rgb_puts_transparency_on_white_and_stretches_16_bit():
    import numpy as np
    from PIL import Image

    from medfig.images import flat_rgb

    clear = Image.new("RGBA", (4, 4), (0, 0, 0, 0))
    clear.putpixel((1, 1), (10, 20, 30, 255))
    flat = flat_rgb(clear)
    assert flat.mode == "RGB" and flat.getpixel((0, 0)) == (255, 255, 255) and flat.getpixel((1, 1)) == (10, 20, 30)
    # a 16-bit ramp from 0 to 59,400: convert("RGB") clips all but the darkest samples to white
    ramp = Image.fromarray((np.arange(100).reshape(10, 10) * 600).astype(np.uint16))
    grey = np.asarray(flat_rgb(ramp))[..., 0]
    assert grey.min() == 0 and grey.max() == 255 and len(np.unique(grey)) > 50
    cmyk = Image.new("CMYK", (2, 2), (0, 0, 0, 0))
    assert flat_rgb(cmyk).getpixel((0, 0)) == (255, 255, 255)


def test_exports_and_web_thumbnails_put_a_transparent_figure_on_white(tmp_path):
    import numpy as np
    from PIL import Image

    from medfig.export.rocov2 import _jpeg
    from medfig.train.backbones import load_rgb

    clear = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    clear.paste((200, 30, 30, 255), (10, 10, 20, 20))
    path = tmp_path / "transparent.png"
    clear.save(path)
    import io

    exported = np.asarray(Image.open(io.BytesIO(_jpeg(clear, 95))).convert("RGB")).astype(int)
    assert exported[0, 0].min() > 240 and exported[15, 15, 0] > 150 and exported[15, 15, 1] < 90
    loaded = np.asarray(load_rgb(path))
    assert tuple(loaded[0, 0]) == (255, 255, 255) and tuple(loaded[15, 15]) == (200, 30, 30)
