"""One modality vocabulary and one function, shared by search and curation (issue 17, item 2)."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from test_search_fixtures import hindawi_dataset

from medfig.concepts.manual import MODALITY_CUI, modality_from_caption
from medfig.curate.concepts import ManualConceptEnricher
from medfig.search import documents_from_dataset
from medfig.text.modality import RADIOLOGY_KEYS, VOCABULARY, canonical_modality, modality_of


def test_one_spelling_per_class_and_every_spelling_maps_to_it():
    names = [m.name for m in VOCABULARY]
    assert len(set(names)) == len(names) == len({n.lower() for n in names})
    for spelling in ("X-ray", "X-RAY", "xray", "x ray", "XRAY"):
        assert canonical_modality(spelling) == "X-ray"
    assert canonical_modality("ct") == canonical_modality("CT") == "CT"
    assert canonical_modality("mr") == "MRI" and canonical_modality("combined") == "PET/CT"
    # ROCO's seven radiology classes are exactly the concept table's classes
    assert RADIOLOGY_KEYS == set(MODALITY_CUI)


@pytest.mark.parametrize("caption, name", [
    ("Chest X-ray (PA view) showing a pleural effusion.", "X-ray"),
    ("Axial contrast-enhanced CT of the chest", "CT"),
    ("MRI of the pelvic mass (a, b). Definitive histology: leiomyosarcoma.", "MRI"),
    ("H&E staining, original magnification x200; the CT is shown in Figure 1.", "histology"),
    ("Kaplan-Meier survival curves of both groups", "chart"),
    ("Clinical photograph of the lesion on the forearm", "photograph"),
    ("Endoscopic ultrasound showing a hypoechoic lesion of the gastric wall", "ultrasound"),  # EUS: qualified
    ("Fundus fluorescein angiogram showed delayed filling of retinal arterioles", "angiography"),
    ("Customs and act of the patient", None),
])
def test_modality_of_names_the_image_not_a_later_finding(caption, name):
    assert modality_of(caption) == name
    # curation reads the same function; it keeps ROCO's radiology classes (its concepts have CUIs)
    key = modality_from_caption(caption)
    radiology_names = {m.name for m in VOCABULARY if m.radiology}
    assert (canonical_modality(key) if key else None) == (name if name in radiology_names else None)


def test_same_figure_same_modality_in_search_and_in_curate():
    """Every real Hindawi figure: the modality curation writes (ManualConceptEnricher, the curate step)
    is the one the search document carries; before issue 17 they disagreed on 10 of 120 figures."""
    dataset = hindawi_dataset()
    rows = pq.read_table(dataset / "figures.parquet").to_pylist()
    docs = {(d.article_key, d.figure_id): d for d in documents_from_dataset(dataset) if d.kind == "figure"}
    compared = radiology = 0
    for row in rows:
        record = dict(row)
        ManualConceptEnricher().enrich(record)
        doc = docs[(row["article_key"], row["figure_id"])]
        curated = record["modality"]
        if curated:
            radiology += 1
            assert doc.modalities == [canonical_modality(curated)], (row["caption"][:200], curated, doc.modalities)
        else:  # curate keeps radiology only: search may name a non-radiology class, never a radiology one
            assert not set(doc.modalities) & {m.name for m in VOCABULARY if m.radiology}, doc.modalities
        compared += 1
    assert compared == len(rows) > 100 and radiology > 20
