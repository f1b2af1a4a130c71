"""A figure cropped from the PDF is split into panels from the image just rendered, never decoded
again from its PNG (issue 15: throughput), and the panels are those a split of the file gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.pipeline import figure_images
from medfig.pipeline.build import build

HINDAWI = Path(__file__).resolve().parents[2] / "shared" / "data" / "pmc_hindawi_xml_pdf"
KEY = "PMC4657150"  # XML + PDF, no figure files; Figure 1 is a three-panel (a)-(c) blot and fluorescence figure


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    if not (HINDAWI / KEY).is_dir():
        pytest.fail(f"shared data missing: {HINDAWI / KEY}")
    root = tmp_path_factory.mktemp("corpus")
    shutil.copytree(HINDAWI / KEY, root / KEY)
    return root


def _tables(out: Path) -> tuple[list[dict], list[dict], list[dict]]:
    return tuple(pq.read_table(out / f"{name}.parquet").to_pylist() for name in ("figures", "subfigures", "errors"))


def test_pdf_crops_are_split_without_decoding_their_png_and_give_the_same_panels(corpus, tmp_path, monkeypatch):
    def no_decode(path):
        raise AssertionError(f"{path} decoded again")

    with monkeypatch.context() as patch:
        patch.setattr(figure_images, "open_image", no_decode)
        build(corpus, tmp_path / "held", workers=0, progress=False)
    figures, panels, errors = _tables(tmp_path / "held")
    assert not errors, errors  # a decode would have been a "subfigures" error row
    assert len(figures) >= 2 and all(f["image_source"] == "pdf" and f["image_status"] == "ok" for f in figures)
    fig1 = [p for p in panels if p["figure_id"] == "fig1"]
    assert len(fig1) >= 2, fig1  # the (a)-(c) figure is split

    with monkeypatch.context() as patch:  # nothing held: every crop is read back from its file, as before
        patch.setattr(figure_images, "HELD_PIXELS_BUDGET", 0)
        build(corpus, tmp_path / "decoded", workers=0, progress=False)
    figures_decoded, panels_decoded, _ = _tables(tmp_path / "decoded")
    assert [(f["figure_id"], f["sha256"], f["n_subfigures"]) for f in figures] == \
        [(f["figure_id"], f["sha256"], f["n_subfigures"]) for f in figures_decoded]
    assert panels == panels_decoded
    for p in panels:
        assert (tmp_path / "held" / p["crop_path"]).read_bytes() == (tmp_path / "decoded" / p["crop_path"]).read_bytes()
