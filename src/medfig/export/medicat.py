"""MedICaT's JSONL (Subramanian et al. 2020; fields as in allenai/medicat sample.jsonl).

One line per figure::

    pdf_hash, fig_key, fig_uri, s2_caption, s2orc_caption, s2orc_references, radiology,
    scope, predicted_type, oa_info{doi, doi_url, oa{is_oa, oa_status, journal_is_oa,
    journal_is_in_doaj, license, provenance}}

and the image at ``figures/<pdf_hash>_<fig_uri>`` (PNG), as MedICaT lays it out.

How medfig fills fields that came from Semantic Scholar's pipeline in MedICaT:
- ``pdf_hash``: the build's article fingerprint (a SHA-1 hex like S2's PDF hash), else
  SHA-1 of the article key;
- ``fig_uri``: ``<page>-<FigKey>-1.png`` with the 1-based PDF page when the figure was
  cropped from the PDF, 0 when it came from a figure file;
- ``s2_caption`` = ``s2orc_caption`` = "<label>. <caption>";
- ``s2orc_references``: the inline reference sentences, ``null`` when none (as MedICaT);
- ``radiology``: the caption modality is one of ROCO's seven; ``scope``: medical keyword
  found and not radiology; ``predicted_type``: ``null`` (MedICaT's image classifier type is
  not produced by medfig);
- ``oa_info.oa.license``: the licence in Unpaywall's spelling (``cc-by-nc-nd``);
  ``provenance``: ``"medfig:jats"``; fields medfig cannot know are ``null``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from medfig.curate.licence import licence_family
from medfig.export.release import Release
from medfig.images import open_image
from medfig.io import atomic_write_bytes

RADIOLOGY = {"angiography", "ct", "mri", "pet", "ultrasound", "xray", "combined"}


def fig_key(rec: dict) -> str:
    label = rec.get("label") or rec.get("figure_id") or "Figure"
    return re.sub(r"[^A-Za-z0-9]+", "", label) or str(rec.get("figure_id"))


def medicat_record(rec: dict, article: dict) -> dict:
    pdf_hash = article.get("fingerprint") or ""
    if not re.fullmatch(r"[0-9a-f]{40}", pdf_hash):
        pdf_hash = hashlib.sha1(str(rec.get("article_key")).encode()).hexdigest()
    page = rec.get("pdf_page")
    key = fig_key(rec)
    caption = rec.get("caption_clean") or rec.get("caption") or ""
    label = rec.get("label")
    s2_caption = f"{label}. {caption}" if label else caption
    refs = [r.get("sentence") for r in rec.get("inline_refs") or [] if r.get("sentence")]
    radiology = (rec.get("modality") or "") in RADIOLOGY
    family = licence_family(rec.get("licence_effective") or rec.get("licence_spdx"))
    doi = rec.get("doi")
    return {
        "pdf_hash": pdf_hash,
        "fig_key": key,
        "fig_uri": f"{(page + 1) if isinstance(page, int) else 0}-{key}-1.png",
        "s2_caption": s2_caption,
        "s2orc_caption": s2_caption,
        "s2orc_references": refs or None,
        "radiology": radiology,
        "scope": bool(rec.get("medical_keywords")) and not radiology,
        "predicted_type": None,
        "oa_info": {
            "doi": doi,
            "doi_url": f"https://doi.org/{doi}" if doi else None,
            "oa": {"is_oa": True, "oa_status": None, "journal_is_oa": None, "journal_is_in_doaj": None,
                   "license": family.lower() if family else None, "provenance": "medfig:jats"},
        },
    }


def export_medicat(release: Release, out: str | Path, include_text_only: bool = False) -> int:
    """Write ``<out>/medicat.jsonl`` and ``<out>/figures/``. Returns lines written."""
    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    lines = []
    for rec in release.figures:
        src = release.image_file(rec)
        if src is None and not include_text_only:
            continue
        row = medicat_record(rec, release.articles.get(rec["article_key"], {}))
        if src is not None:
            target = out / "figures" / f"{row['pdf_hash']}_{row['fig_uri']}"
            if src.suffix.lower() == ".png":
                atomic_write_bytes(target, src.read_bytes())
            else:
                with open_image(src) as im:
                    im.save(target, "PNG")
        lines.append(json.dumps(row, ensure_ascii=False))
    atomic_write_bytes(out / "medicat.jsonl", ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))
    return len(lines)
