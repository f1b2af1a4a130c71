"""Curation steps: licence policy, caption cleaning, language, medical keywords, and a real run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from medfig.curate.captions import CaptionFilter, LanguageFilter, clean_caption
from medfig.curate.keywords import KeywordMatcher, MedicalKeywordFilter
from medfig.curate.licence import LicenceFilter, attribution, licence_family, licence_url_for
from medfig.curate.run import CurateOptions, curate
from medfig.pipeline.steps import run_steps


@pytest.mark.parametrize(
    "spdx,family",
    [("CC-BY-4.0", "CC-BY"), ("CC-BY-NC-ND-3.0", "CC-BY-NC-ND"), ("CC-BY", "CC-BY"), ("CC0-1.0", "CC0"),
     ("LicenseRef-PDM-1.0", "PDM"), ("CC-BY-SA-4.0", "CC-BY-SA"), (None, None), ("Elsevier", None)],
)
def test_licence_family(spdx, family):
    assert licence_family(spdx) == family


@pytest.mark.parametrize(
    "policy,spdx,keep",
    [("commercial", "CC-BY-4.0", True), ("commercial", "CC-BY-NC-4.0", False), ("commercial", "CC0-1.0", True),
     ("rocov2", "CC-BY-NC-4.0", True), ("rocov2", "CC-BY-NC-ND-4.0", False), ("rocov2", "CC-BY-SA-4.0", False),
     ("noncommercial", "CC-BY-NC-SA-4.0", True), ("noncommercial", "CC-BY-ND-4.0", False),
     ("open", "CC-BY-NC-ND-4.0", True)],
)
def test_licence_presets(policy, spdx, keep):
    rec = {"licence_spdx": spdx, "licence_source": "article"}
    assert LicenceFilter(policy).filter(rec).keep is keep


def test_figure_licence_wins_and_unknown_is_dropped_not_guessed():
    f = LicenceFilter("commercial")
    # figure under its own CC BY while the article is CC BY-NC: the figure's licence rules
    assert f.filter({"licence_spdx": "CC-BY-4.0", "licence_source": "figure",
                     "article_licence_spdx": "CC-BY-NC-4.0"}).keep
    # figure says it has its own licence but it could not be read: never fall back to the article's
    v = f.filter({"licence_spdx": None, "licence_source": "figure", "licence_text": "(c) Publisher",
                  "article_licence_spdx": "CC-BY-4.0"})
    assert (v.keep, v.reason) == (False, "unknown")
    # a row that inherited nothing falls back to the article table
    assert f.filter({"licence_spdx": None, "licence_source": "none", "article_licence_spdx": "CC-BY-4.0"}).keep


def test_attribution_names_everything_and_never_invents_a_version():
    rec = {"label": "Figure 2", "authors": ["A One", "B Two", "C Three", "D Four"], "year": 2016,
           "title": "A title", "journal": "Case Rep Med", "doi": "10.1/x", "licence_spdx": "CC-BY",
           "licence_url": None}
    text = attribution(rec)
    assert "A One, B Two, C Three et al. (2016)" in text and "https://doi.org/10.1/x" in text
    assert "https://creativecommons.org/licenses/by/)" in text
    assert licence_url_for("CC-BY-NC-3.0", None) == "https://creativecommons.org/licenses/by-nc/3.0/"


@pytest.mark.parametrize(
    "caption,reason",
    [("", "empty"), ("xxx", "placeholder"), ("Figure 1", "label_only"), ("Fig. 2B.", "label_only"),
     (r"\begin{equation} x = \frac{a}{b} \end{equation}", "latex"), ("Axial CT.", "too_short"),
     ("See https://example.org/fig1.png", "too_short")],
)
def test_caption_filter_drops(caption, reason):
    rec = {"caption_clean": clean_caption(caption)}
    v = CaptionFilter(min_words=3).filter(rec)
    assert (v.keep, v.reason) == (False, reason)


def test_caption_cleaning_removes_urls_and_keeps_prose():
    text = clean_caption("Axial CT of the chest (see https://doi.org/10.1/x ).  Arrow: mass.")
    assert "http" not in text and text.startswith("Axial CT of the chest") and "  " not in text
    assert CaptionFilter(3).filter({"caption_clean": text}).keep


def test_language_filter_runs_offline_and_uses_the_threshold(monkeypatch):
    import socket

    def no_network(*a, **k):
        raise AssertionError("language detection tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    f = LanguageFilter(0.45)
    assert f.filter({"caption_clean": "Axial computed tomography image showing a mass in the left lung."}).keep
    v = f.filter({"caption_clean": "Tomografía computarizada del tórax que muestra una masa en el pulmón izquierdo."})
    assert (v.keep, v.reason) == (False, "not_english")
    # a very high threshold keeps everything: only confident non-English is dropped
    assert LanguageFilter(0.999).filter({"caption_clean": "Radiografía de tórax."}).keep


@pytest.mark.parametrize(
    "text,fires",
    [("an exact match of the sequence", False), ("Axial CT of the chest", True), ("ct values were exact", False),
     ("pet owners", False), ("PET/CT fusion image", True), ("CAT activity rose", False), ("CAT scan of the head", True),
     ("nuclear localization of the protein", False), ("nuclear medicine bone scan", True),
     ("scanning electron microscopy of the wing", True),  # fires on "microscopy", not on "scan"
     ("flatbed scan of the gel", False), ("Nuclear magnetic resonance scan of the brain", True),
     ("Doppler US image of the carotid", True), ("mean values in US dollars", False)],
)
def test_keyword_boundaries_and_ambiguous_terms(text, fires):
    assert bool(KeywordMatcher().find(text)) is fires


def test_keyword_filter_reads_inline_references():
    rec = {"caption": "Panel A shows the result.", "inline_refs": [{"sentence": "The MRI (Figure 1) showed a lesion."}]}
    assert MedicalKeywordFilter().filter(rec).keep
    assert not MedicalKeywordFilter(use_inline_refs=False).filter(rec).keep


def test_run_steps_records_every_drop_with_step_and_reason():
    recs = [{"article_key": "a", "figure_id": str(i), "caption_clean": c}
            for i, c in enumerate(["Axial CT of the chest with a mass.", "Figure 3", "", "xxx"])]
    kept, drops, stats = run_steps(recs, [CaptionFilter(3)])
    assert [r["figure_id"] for r in kept] == ["0"]
    assert sorted(d["reason"] for d in drops) == ["empty", "label_only", "placeholder"]
    assert stats[0].as_dict()["dropped"] == 3


@pytest.fixture(scope="module")
def built(data_dir, tmp_path_factory) -> Path:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("inputs")
    # discovery does not follow symlinked folders: copy the three small packages
    for pkg in (data_dir / "jats_pdf_figure_packages" / "PMC10802347_partial_oa_package",
                data_dir / "jats_pdf_figure_packages" / "elife-19405_pmc_deposit",
                data_dir / "pmc_hindawi_xml_pdf" / "PMC4735894"):
        shutil.copytree(pkg, inputs / pkg.name, ignore=shutil.ignore_patterns("*.zip"))
    out = tmp_path_factory.mktemp("built")
    # pdf_figures=False: the Hindawi article then keeps figures without images (the case under test)
    build(inputs, out, workers=0, progress=False, pdf_figures=False)
    return out


def test_curate_real_dataset_explains_every_drop(built, tmp_path):
    n_in = pq.read_table(built / "figures.parquet").num_rows
    report = curate(built, tmp_path / "rel", CurateOptions(licence="rocov2"))
    ledger = pq.read_table(tmp_path / "rel" / "exclusions.parquet").to_pylist()
    drops = [row for row in ledger if row["phase"] == "curate"]
    kept = pq.read_table(tmp_path / "rel" / "figures.parquet")
    assert report.n_in == n_in and kept.num_rows + len(drops) == n_in
    by = {(d["article_key"], d["step"], d["reason"]) for d in drops}
    # PMC10802347 is CC BY-NC-ND: not allowed by the rocov2 policy
    assert ("PMC10802347_partial_oa_package", "licence", "not_allowed") in by
    # the Hindawi article has no image files: dropped at the image step with the build's status
    hindawi = [d for d in drops if d["article_key"].startswith("PMC4735894") and d["step"] == "image"]
    assert hindawi and all(d["reason"] == "no_image" and "image_status=missing" in d["detail"] for d in hindawi)
    # ... and the release's ledger keeps the build's own reason for the same figures
    build_rows = {row["figure_id"] for row in ledger if row["phase"] == "build" and row["reason"] == "image_missing"
                  and row["article_key"].startswith("PMC4735894")}
    assert build_rows == {d["figure_id"] for d in hindawi}
    summary = (tmp_path / "rel" / "summary.json").read_text()
    assert '"not_allowed"' in summary


def test_curate_keeps_text_only_figures_when_asked(built, tmp_path):
    curate(built, tmp_path / "rel", CurateOptions(licence="open", require_images=False, medical_filter=False))
    kept = pq.read_table(tmp_path / "rel" / "figures.parquet").to_pylist()
    # every input figure is kept: PMC10802347's four (three JPEGs and the F1 GIF thumbnail) and eLife's
    # TIFF with an image, the three Hindawi figures without one (built with pdf_figures=False)
    status = sorted((r["article_key"].split("_")[0], r["figure_id"], r["image_status"]) for r in kept)
    assert status == [("PMC10802347", f"F{n}", "ok") for n in range(1, 5)] + [
        ("PMC4735894", f"fig{n}", "missing") for n in range(1, 4)] + [("elife-19405", "fig1", "ok")]
    assert all(r["split"] in ("train", "valid", "test") and r["attribution"] for r in kept)
    # images of kept figures are in the release folder
    with_image = [r for r in kept if r["image_status"] == "ok"]
    assert len(with_image) == 5
    for r in with_image:
        assert (tmp_path / "rel" / r["image_path"]).is_file()


def test_curate_reads_a_sharded_build(data_dir, tmp_path):
    from medfig.pipeline.build import build

    inputs = tmp_path / "in"
    for pkg in ("PMC4735894", "PMC4736802", "PMC4738934"):
        shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / pkg, inputs / pkg)
    build(inputs, tmp_path / "built", workers=0, progress=False, pdf_figures=False, shards=2)
    assert (tmp_path / "built" / "figures.parquet").is_dir()
    report = curate(tmp_path / "built", tmp_path / "rel", CurateOptions(require_images=False))
    assert report.n_in == pq.read_table(tmp_path / "built" / "figures.parquet").num_rows > 0
    assert report.n_kept > 0


def test_curate_on_worker_processes_equals_one_process(built, tmp_path):
    """Record steps mapped over shards in 2 workers, group steps reduced here: the same release."""
    one = curate(built, tmp_path / "one", CurateOptions(licence="rocov2", medical_filter=False))
    many = curate(built, tmp_path / "many", CurateOptions(licence="rocov2", medical_filter=False, workers=2))
    for name in ("figures", "exclusions"):
        a = pq.read_table(tmp_path / "one" / f"{name}.parquet").to_pylist()
        b = pq.read_table(tmp_path / "many" / f"{name}.parquet").to_pylist()
        assert a == b and a, name
    assert [s.as_dict() for s in one.stats] == [s.as_dict() for s in many.stats]
    assert one.n_kept == many.n_kept > 0
