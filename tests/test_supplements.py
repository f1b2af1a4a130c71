"""Issue 17 item 10: eLife figure supplements that the PDF does not print are not image errors: their own
status (not_in_pdf), counted apart in the summary, excluded with that reason in the ledger (medfig why)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.cli import main

ELIFE = Path(__file__).resolve().parents[2] / "shared" / "data" / "elife_xml_pdf_pairs" / "elife-04177-vor-r1"


@pytest.fixture(scope="module")
def built(elife_04177_build):
    return elife_04177_build  # read only: curate writes its release elsewhere


def test_supplements_get_their_own_status_and_no_error_row(built):
    out, report = built
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    supplements = [f for f in figures if f["fig_type"] == "figure-supplement"]
    mains = [f for f in figures if f["fig_type"] != "figure-supplement"]
    # elife-04177: 6 main figures printed in the PDF, 25 supplements that only the XML lists
    assert len(mains) == 6 and all(f["image_status"] == "ok" for f in mains)
    assert len(supplements) == 25 and {f["image_status"] for f in supplements} == {"not_in_pdf"}
    errors = pq.read_table(out / "errors.parquet").to_pylist()
    assert not [e for e in errors if e["stage"] == "image"]
    assert report.stats["figures_by_image_status"] == {"not_in_pdf": 25, "ok": 6}
    assert "not_in_pdf 25, ok 6 (not_in_pdf: figure supplements the PDF does not print, not errors)" in report.summary()
    assert "errors by stage   : none" in report.summary()


def test_ledger_and_why_give_the_reason(built, capsys):
    out, _ = built
    ledger = pq.read_table(out / "exclusions.parquet").to_pylist()
    row = next(r for r in ledger if r["figure_id"] == "fig2s3")
    assert (row["step"], row["reason"]) == ("image", "image_not_in_pdf")
    assert main(["why", str(out), f"{ELIFE.name}/fig2s3"]) == 0
    assert "image_not_in_pdf" in capsys.readouterr().out


def test_curate_drops_them_with_their_own_reason(built, tmp_path):
    from medfig.curate.run import CurateOptions, curate

    out, _ = built
    curate(out, tmp_path / "rel", CurateOptions(licence="open", medical_filter=False, language=False, duplicates=False))
    drops = [r for r in pq.read_table(tmp_path / "rel" / "exclusions.parquet").to_pylist() if r["phase"] == "curate"]
    assert {(d["step"], d["reason"]) for d in drops if d["figure_id"].startswith("fig") and "s" in d["figure_id"]} == {
        ("image", "not_in_pdf")}
