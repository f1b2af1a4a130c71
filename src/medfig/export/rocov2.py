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

``panels=True`` (``medfig export rocov2 --panels``): ROCOv2 holds non-compound images only, so a
compound figure (one with panels) is replaced by its single-modality radiology panels
(decided from the text, see :mod:`medfig.export.panel_modality`) that have a subcaption: the
image is the panel cut from the figure, the caption its subcaption, the concepts the figure's
(concepts are tagged per caption, not per panel), the manual concepts the panel's modality CUI
plus the figure's non-modality ones, and the attribution names the panel. Compound figures
with no such panel, or whose panels ``medfig curate --min-panel-confidence`` dropped (the figure's
``panels_dropped``), are left out; the returned counts say what happened and why.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from collections import Counter

from medfig.concepts.manual import DIRECTION_CUI, MODALITY_CUI, REGION_CUI
from medfig.curate.licence import licence_url_for
from medfig.export.panel_modality import is_radiology, panel_modalities
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


def _jpeg(image, quality: int) -> bytes:
    buf = io.BytesIO()
    from medfig.images import flat_rgb

    flat_rgb(image).save(buf, "JPEG", quality=quality)  # a transparent figure on white, not black
    return buf.getvalue()


def _items(release: Release, rec: dict, panels: bool, stats: Counter) -> list[dict]:
    """What one figure contributes: itself, or (``panels``, compound) its qualifying panels."""
    caption = rec.get("caption_clean") or rec.get("caption") or ""
    figure_item = {"rec": rec, "panel": None, "caption": caption, "concepts": list(rec.get("concepts") or []),
                   "manual": list(rec.get("concepts_manual") or []), "attribution": rec.get("attribution") or ""}
    subfigures = release.panels_of(rec) if panels else []
    if panels and not subfigures and rec.get("panels_dropped"):
        # curate --min-panel-confidence dropped this split: a compound figure all the same, and ROCOv2
        # keeps non-compound images only, so neither it nor its untrusted panels go in
        stats["compound_figures_without_panel_kept:panels_dropped_by_curate"] += 1
        return []
    if not subfigures:
        return [figure_item]
    stats["compound_figures_replaced"] += 1
    modality_cuis = set(MODALITY_CUI.values())
    other_manual = [c for c in figure_item["manual"] if c not in modality_cuis]
    items = []
    for panel, modality in zip(subfigures, panel_modalities(rec, subfigures)):
        if not is_radiology(modality):
            stats["panels_skipped:not_single_modality_radiology"] += 1
        elif not (panel.get("subcaption") or "").strip():
            stats["panels_skipped:no_subcaption"] += 1
        else:
            stats["panels_kept"] += 1
            items.append({**figure_item, "panel": panel, "caption": panel["subcaption"].strip(),
                          "manual": [MODALITY_CUI[modality], *other_manual],
                          "attribution": f"Panel {panel.get('label') or '?'} of {figure_item['attribution']}"})
    if not items:
        stats["compound_figures_without_panel_kept"] += 1
    return items


def export_rocov2(release: Release, out: str | Path, prefix: str = "medfig", vocabulary: str | Path | None = None,
                  jpeg_quality: int = 95, progress: bool = False, panels: bool = False) -> dict[str, int]:
    """Write ROCOv2's files to ``out``. Returns images written per split (and, with ``panels``,
    the panel counts: ``panels_kept``, ``compound_figures_replaced``, skips by reason)."""
    from tqdm import tqdm

    out = Path(out)
    names = _concept_names(release, vocabulary)
    used: set[str] = set()
    licence_rows: list[list] = []
    counts: dict[str, int] = {}
    stats: Counter = Counter()
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
            for item in _items(release, rec, panels, stats):
                n += 1
                rid = f"{prefix}_{split}_{n:06d}"
                with open_image(src) as im:
                    image = im.crop(tuple(item["panel"]["box_px"])) if item["panel"] else im
                    atomic_write_bytes(out / split / f"{rid}.jpg", _jpeg(image, jpeg_quality))
                caps.append([rid, item["caption"]])
                used.update(item["concepts"])
                used.update(item["manual"])
                concepts.append([rid, ";".join(item["concepts"])])
                manual.append([rid, ";".join(item["manual"])])
                spdx = rec.get("licence_effective") or rec.get("licence_spdx")
                licence_rows.append([rid, rec.get("pmcid") or "", rec.get("doi") or "", spdx or "",
                                     licence_url_for(spdx, rec.get("licence_effective_url") or rec.get("licence_url")),
                                     item["attribution"]])
        atomic_write_bytes(out / f"{split}_captions.csv", _csv_bytes(["ID", "Caption"], caps))
        atomic_write_bytes(out / f"{split}_concepts.csv", _csv_bytes(["ID", "CUIs"], concepts))
        atomic_write_bytes(out / f"{split}_concepts_manual.csv", _csv_bytes(["ID", "CUIs"], manual))
        counts[split] = n
    atomic_write_bytes(out / "cui_mapping.csv",
                       _csv_bytes(["CUI", "Canonical name"], [[c, names.get(c, "")] for c in sorted(used)]))
    atomic_write_bytes(out / "license_information.csv",
                       _csv_bytes(["ID", "PMCID", "DOI", "License", "License URL", "Attribution"], licence_rows))
    if panels:
        counts.update({k: stats[k] for k in ("panels_kept", "compound_figures_replaced")})
        counts.update({k: v for k, v in sorted(stats.items()) if k.startswith(("panels_skipped", "compound_figures_without"))})
    return counts
