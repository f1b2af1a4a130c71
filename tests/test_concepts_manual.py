"""Manual-style concepts from caption rules: modality, IRMA body region, X-ray direction."""

from __future__ import annotations

import pytest

from medfig.concepts.manual import MODALITY_CUI, manual_concepts, modality_from_caption


@pytest.mark.parametrize(
    "caption,modality",
    [("Axial contrast-enhanced CT of the abdomen.", "ct"),
     ("Coronal CT angiogram showing the aneurysm.", "angiography"),  # CTA is angiography, as ROCO codes it
     ("FDG PET/CT fusion image.", "combined"),
     ("Positron emission tomography-computed tomography scan", "combined"),
     ("MRI of the knee compared with the earlier CT", "mri"),  # first-named modality wins
     ("Sagittal T2-weighted image of the lumbar spine", "mri"),
     ("Transverse T1\u2010weighted image after contrast", "mri"),  # Unicode hyphen
     ("Renal US long R kidney demonstrating cysts.", "ultrasound"),
     ("Transesophageal echocardiography revealing a flail valve.", "ultrasound"),
     ("Chest radiograph (PA view) showing dextrocardia.", "xray"),
     ("AXR on day 2", "xray"),
     ("Selective coronary angiography.", "angiography"),
     ("Exact match of the sequences", None),
     ("T1 vertebral body fracture", None),  # a vertebra, not an MR sequence
     ("US patients in the cohort", None)],
)
def test_modality_rules(caption, modality):
    assert modality_from_caption(caption) == modality


def test_region_and_direction_only_for_xray():
    xr = manual_concepts("Chest X-ray (PA view) showing a pleural effusion.")
    assert (xr["modality"], xr["body_region"], xr["direction"]) == ("xray", "chest", "pa")
    assert xr["concepts_manual"] == [MODALITY_CUI["xray"], "C0817096", "C1996865"]
    knee = manual_concepts("Lateral radiograph of the knee after arthroplasty.")
    assert (knee["body_region"], knee["direction"]) == ("lower_extremity", "lateral")
    ct = manual_concepts("Axial CT of the chest.")
    assert ct["body_region"] is None and ct["concepts_manual"] == [MODALITY_CUI["ct"]]


def test_modality_agrees_with_rocos_own_modality_cuis(data_dir):
    from medfig.concepts.roco import read_roco_split

    inv = {v: k for k, v in MODALITY_CUI.items()}
    caps, cuis = read_roco_split(data_dir / "roco_v1_text" / "data" / "validation" / "radiology")
    n = ok = 0
    for k, text in caps.items():
        gold = [inv[c] for c in cuis.get(k, []) if c in inv]
        if len(gold) == 1:
            n += 1
            ok += modality_from_caption(text) == gold[0]
    assert n > 2000 and ok / n >= 0.95, ok / n
