"""Issue 17 item 6: MedICaT's keyword list is the default (shipped, rules documented); the image classifier
gives keyword misses a second chance, so a coronary angiogram and a clinical photograph are kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from medfig.curate.keywords import MEDICAT_KEYWORDS, load_keywords, medicat_matcher

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_the_shipped_list_is_medicats_appendix_b():
    shipped = load_keywords(MEDICAT_KEYWORDS)
    paper = [ln.strip() for ln in (DATA / "medicat_keywords" / "keywords.txt").read_text().splitlines() if ln.strip()]
    assert shipped == paper and len(shipped) == 39
    assert "Subramanian" in MEDICAT_KEYWORDS.read_text() and "Appendix B" in MEDICAT_KEYWORDS.read_text()


@pytest.mark.parametrize("text,hits", [
    ("Axial CT of the chest", ["CT"]),                       # acronym as written
    ("ct values were exact", []),                             # ... not in lower case
    ("ACTA2 staining", []),                                   # ... not inside a word
    ("pet owners", []), ("PET/CT fusion", ["PET", "CT"]),     # slash is a boundary
    ("CT-guided biopsy", ["CT"]),                             # hyphen is a boundary
    ("Chest X ray on admission", ["x ray"]), ("X-ray-guided", ["x-ray"]),  # hyphen = space
    ("two radiographs of the knee", ["radiographs"]), ("serial MRIs", ["MRIs"]),  # plurals
    ("Ultrasound image", ["ultrasound"]), ("scanning electron micrograph", []),  # whole words only
    ("Endoscopic retrograde Cholangiopancreatography", ["cholangiopancreatography"]),
    ("calcium imaging of neurons", ["imaging"]),              # the paper's recall-first bare words
])
def test_medicat_matching_rules(text, hits):
    assert medicat_matcher().find(text) == hits


def test_keywords_alone_miss_angiography_and_clinical_photos():
    m = medicat_matcher()
    assert m.find("Diagnostic coronary angiography. (a) Chronic total occlusion of right coronary artery (RCA).") == []
    assert m.find("Clinical photo of the right knee showing a swelling anterior to the patella.") == []


@pytest.fixture(scope="module")
def hindawi_release(tmp_path_factory):
    pytest.importorskip("torch")  # the image classifier needs medfig[torch]
    from medfig.curate.run import CurateOptions, curate
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("in")
    for key in ("PMC4738934", "PMC4739213"):  # a coronary angiogram; a clinical photograph of a knee
        shutil.copytree(DATA / "pmc_hindawi_xml_pdf" / key, inputs / key)
    dataset = tmp_path_factory.mktemp("ds")
    build(inputs, dataset, workers=0, progress=False, subfigures=False)
    releases = {}
    for name, second in (("both", True), ("keywords", False)):
        out = tmp_path_factory.mktemp(name)
        curate(dataset, out, CurateOptions(licence="open", language=False, duplicates=False,
                                           medical_second_chance=second))
        releases[name] = out
    return releases


def _kept(release: Path) -> dict[tuple[str, str], dict]:
    import pyarrow.parquet as pq

    return {(r["article_key"], r["figure_id"]): r for r in pq.read_table(release / "figures.parquet").to_pylist()}


def test_the_second_chance_keeps_a_coronary_angiogram_and_a_clinical_photo(hindawi_release):
    both, keywords = _kept(hindawi_release["both"]), _kept(hindawi_release["keywords"])
    for key in (("PMC4738934", "fig1"), ("PMC4738934", "fig4"), ("PMC4739213", "fig2"), ("PMC4739213", "fig4")):
        assert key not in keywords  # no MedICaT keyword in caption or references
        assert key in both and both[key]["medical_by"] in ("image_terms", "image_classifier"), key
    assert both[("PMC4739213", "fig2")]["medical_keywords"] == ["clinical photo"]
    assert both[("PMC4738934", "fig4")]["medical_keywords"] == ["angiogram"]


def test_the_image_classifier_alone_keeps_a_coronary_angiogram(hindawi_release, tmp_path):
    """The head never saw these two articles (benchmarks/curate_medical_filter.py leaves them out)."""
    from medfig.curate.medical_filter import DEFAULT_HEAD
    from medfig.vision.image_filter import FeatureExtractor, ImageFilterHead

    release = hindawi_release["both"]
    row = _kept(release)[("PMC4738934", "fig1")]  # "Diagnostic coronary angiography", two angiograms
    head = ImageFilterHead.load(DEFAULT_HEAD)
    p = float(head.probability(FeatureExtractor().features_of_files([release / row["image_path"]]))[0])
    assert p >= head.threshold
    assert (DEFAULT_HEAD.stat().st_size < 500_000 and "pmc_hindawi_xml_pdf" in head.trained_on["sources"])
