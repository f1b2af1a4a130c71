"""ROCOv2's release files (Rückert et al. 2024, Zenodo 10821435), written from a curated release.

::

    train_captions.csv          ID,Caption
    train_concepts.csv          ID,CUIs            (CUIs joined by ";")
    train_concepts_manual.csv   ID,CUIs            (modality; body region and direction for X-ray)
    ... the same for valid_ and test_
    cui_mapping.csv             CUI,Canonical name (every CUI used above)
    license_information.csv     ID,PMCID,DOI,License,License URL,Attribution
    train/ valid/ test/         images as JPEG named <ID>.jpg, as ROCOv2 ships them

IDs follow ROCOv2's ``ROCOv2_2023_train_000001`` pattern with a configurable prefix:
``<prefix>_<split>_<n:06d>``, numbered in release order within each split.
ROCOv2 does not spell out the columns of ``license_information.csv`` beyond ID and
licence; medfig adds PMCID, DOI, the licence URL and the attribution line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from medfig.concepts.manual import DIRECTION_CUI, MODALITY_CUI, REGION_CUI
from medfig.curate.licence import licence_url_for
from medfig.export.release import SPLITS, Release
from medfig.images import open_image
from medfig.io import atomic_write_bytes

MANUAL_NAMES = {
    MODALITY_CUI["angiography"]: "angiogram", MODALITY_CUI["ct"]: "X-Ray Computed Tomography",
    MODALITY_CUI["mri"]: "Magnetic Resonance Imaging", MODALITY_CUI["pet"]: "Positron-Emission Tomography",
    MODALITY_CUI["ultrasound"]: "Ultrasonography", MODALITY_CUI["xray"]: "Plain x-ray",
    MODALITY_CUI["combined"]: "PET/CT scan", REGION_CUI["head"]: "Bone structure of cranium",
    REGION_CUI["neck"]: "Neck", REGION_CUI["chest"]: "Chest", REGION_CUI["abdomen"]: "Abdomen",
    REGION_CUI["pelvis"]: "Pelvis", REGION_CUI["spine"]: "Vertebral column",
    REGION_CUI["upper_extremity"]: "Upper Extremity", REGION_CUI["lower_extremity"]: "Lower Extremity",
    DIRECTION_CUI["pa"]: "Postero-Anterior", DIRECTION_CUI["ap"]: "Anterior-Posterior",
    DIRECTION_CUI["lateral"]: "Lateral", DIRECTION_CUI["oblique"]: "Oblique",
}


def _csv_bytes(header: list[str], rows: list[list]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def _concept_names(release: Release, vocabulary: str | Path | None) -> dict[str, str]:
    names = dict(MANUAL_NAMES)
    vocab_path = vocabulary or release.summary.get("options", {}).get("vocabulary")
    if vocab_path and Path(vocab_path).is_file():
        from medfig.concepts.vocabulary import load_vocabulary

        names.update(load_vocabulary(vocab_path).names)
    return names


def export_rocov2(release: Release, out: str | Path, prefix: str = "medfig", vocabulary: str | Path | None = None,
                  jpeg_quality: int = 95, progress: bool = False) -> dict[str, int]:
    """Write ROCOv2's files to ``out``. Returns figures written per split."""
    from tqdm import tqdm

    out = Path(out)
    names = _concept_names(release, vocabulary)
    used: set[str] = set()
    licence_rows: list[list] = []
    counts: dict[str, int] = {}
    for split, recs in release.by_split().items():
        if split not in SPLITS:
            continue
        caps, concepts, manual = [], [], []
        (out / split).mkdir(parents=True, exist_ok=True)
        n = 0
        for rec in tqdm(recs, desc=f"rocov2 {split}", disable=not progress, leave=False):
            src = release.image_file(rec)
            if src is None:  # ROCOv2 is an image dataset: a text-only figure has no place in it
                continue
            n += 1
            rid = f"{prefix}_{split}_{n:06d}"
            with open_image(src) as im:
                buf = io.BytesIO()
                im.convert("RGB").save(buf, "JPEG", quality=jpeg_quality)
            atomic_write_bytes(out / split / f"{rid}.jpg", buf.getvalue())
            caps.append([rid, rec.get("caption_clean") or rec.get("caption") or ""])
            cuis = list(rec.get("concepts") or [])
            man = list(rec.get("concepts_manual") or [])
            used.update(cuis)
            used.update(man)
            concepts.append([rid, ";".join(cuis)])
            manual.append([rid, ";".join(man)])
            licence_rows.append([rid, rec.get("pmcid") or "", rec.get("doi") or "",
                                 rec.get("licence_effective") or rec.get("licence_spdx") or "",
                                 licence_url_for(rec.get("licence_effective") or rec.get("licence_spdx"),
                                                 rec.get("licence_effective_url") or rec.get("licence_url")),
                                 rec.get("attribution") or ""])
        atomic_write_bytes(out / f"{split}_captions.csv", _csv_bytes(["ID", "Caption"], caps))
        atomic_write_bytes(out / f"{split}_concepts.csv", _csv_bytes(["ID", "CUIs"], concepts))
        atomic_write_bytes(out / f"{split}_concepts_manual.csv", _csv_bytes(["ID", "CUIs"], manual))
        counts[split] = n
    atomic_write_bytes(out / "cui_mapping.csv",
                       _csv_bytes(["CUI", "Canonical name"], [[c, names.get(c, "")] for c in sorted(used)]))
    atomic_write_bytes(out / "license_information.csv",
                       _csv_bytes(["ID", "PMCID", "DOI", "License", "License URL", "Attribution"], licence_rows))
    return counts
