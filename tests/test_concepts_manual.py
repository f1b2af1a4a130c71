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
     # named in French / Spanish / German
     ("TDM thoracique montrant une lyse sternale", "ct"),
     ("Coupe scannographique axiale montrant une masse", "ct"),
     ("Échographie par voie sus-pubienne montrant une masse tissulaire", "ultrasound"),
     ("Image échographique montrant l'aorte", "ultrasound"),
     ("Artériographie cérébrale montrant une tumeur hypervasculaire", "angiography"),
     ("Imagerie par résonance magnétique: utérus bicorne", "mri"),
     ("Tomografía computarizada de tórax", "ct"),
     ("Röntgenaufnahme des Thorax", "xray"),
     ("Cervical TC scan", "ct"),
     # not named but implied: used only when nothing is named
     ("Lateral view of the cervical spine showing fusion of C2-C3", "xray"),
     ("Retrograde urethrogram showing a stricture", "xray"),
     ("Radiological aspect of the femur after 9 months", "xray"),
     ("Inhomogeneous structure with low echogenicity: muscle rupture", "ultrasound"),
     ("Four-chamber view showing a dilated left atrium", "ultrasound"),
     ("Hyperintense lesion in the left thalamus", "mri"),
     ("Hypoattenuating mass in the pancreatic head", "ct"),
     ("Cardiac catheterization showing a 90% LAD stenosis", "angiography"),
     ("Lateral view of the knee MRI", "mri"),  # a named modality beats an implied one
     ("Intraoperative lateral view of the wound", None),  # photographs are not radiographs
     ("Frontal view of the face of the patient", None),
     ("Positron emission tomography\u2010CT scan shows pulmonary lesions", "combined"),
     ("Chest PA shows a cavitary lesion in the right lung", "xray"),
     ("Gastrographin enema showing a perforation", "xray"),
     ("Early-phase ICG of the left eye showing a hypocyanescent area", "angiography"),
     ("Axial bright blood imaging revealing a horseshoe kidney", "mri"),
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
