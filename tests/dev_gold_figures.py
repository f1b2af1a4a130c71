"""Real figures of the pmc_dev_corpus subfigure gold for tests (development publishers only):
pixels rebuilt exactly as the gold's ``source`` says (PDF page rendered by pypdfium2 at the
given scale, cropped to ``clip_pt``), so boxes compare with the hand-checked gold boxes."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GOLD = ROOT / "benchmarks" / "gold" / "subfigures" / "dev_corpus_gold.json"


@lru_cache(maxsize=None)
def _figures() -> dict[str, dict]:
    return {f["figure_key"]: f for f in json.loads(GOLD.read_text())["figures"]}


def dev_gold_figure(key: str, render_scale: float | None = None) -> tuple[Image.Image, dict]:
    """The figure's pixels and gold record. ``render_scale``: render the page at this many pixels
    per point instead (an original file's resolution); the gold boxes are scaled to match."""
    import pypdfium2 as pdfium

    fig = _figures()[key]
    assert fig["split"] == "dev", "tests use development publishers only"
    src = fig["source"]
    assert src["kind"] == "pdf"
    s = render_scale or src["scale"]
    doc = pdfium.PdfDocument(DATA / src["path"])
    try:
        page = doc[src["page"]].render(scale=s).to_pil().convert("RGB")
    finally:
        doc.close()
    x0, y0, x1, y1 = src["clip_pt"]
    image = page.crop((round(x0 * s), round(y0 * s), round(x1 * s), round(y1 * s)))
    if render_scale is None:
        assert image.size == (fig["width"], fig["height"]), "pixels differ from the ones the gold boxes refer to"
        return image, fig
    k = s / src["scale"]
    boxes = [{**g, "box": [round(v * k) for v in g["box"]]} for g in fig["subfigures"]]
    return image, {**fig, "width": image.width, "height": image.height, "subfigures": boxes}
