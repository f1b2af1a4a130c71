"""MedICaT's JSONL (Subramanian et al. 2020; fields as in allenai/medicat sample.jsonl).

One line per figure::

    pdf_hash, fig_key, fig_uri, s2_caption, s2orc_caption, s2orc_references, radiology,
    scope, predicted_type, oa_info{doi, doi_url, oa{is_oa, oa_status, journal_is_oa,
    journal_is_in_doaj, license, provenance}}

and the image at ``figures/<pdf_hash>_<fig_uri>`` (PNG), as MedICaT lays it out.

Panels go to ``subcaptions.jsonl`` in the layout of MedICaT's subfigure-subcaption
annotations (``subcaptions_public.jsonl``, Prodigy records, as allenai/medicat's
``subcaption_box`` and ``object`` dataset readers read them), one line per figure with panels::

    pdf_hash, fig_uri, answer, text, tokens[{text, start, end, id, ws}], width, height,
    spans[{label, points[[x,y] x4], type, x, y, width, height, score, label_source}],
    subcaptions{label: [token ids]}, medfig{article_key, figure_id, n_panels, predicted}

- ``pdf_hash``/``fig_uri`` are the figure's medicat.jsonl keys (same image file);
- ``text`` is the build's caption (the text ``subcaption_spans`` index), ``tokens`` words and
  punctuation marks with character offsets (MedICaT: spaCy tokens; medfig: ``\\w+|[^\\w\\s]``);
- ``spans``: one rectangle per panel, ``points`` its four corners in pixels of the image
  (top-left first, clockwise); ``label`` the panel letter, ``panel<n>`` when none was read,
  ``<label>#<n>`` for a repeated letter (the label keys ``subcaptions``, so it must be unique);
- ``subcaptions``: the ids of the tokens each panel's subcaption covers; a panel without a
  subcaption has no key (as in MedICaT, where such panels are not scored);
- ``answer`` is ``"accept"`` so MedICaT's readers take the record, but these are medfig's
  *predictions*, not human annotations: ``medfig.predicted`` is ``true`` and each span carries
  the splitter's ``score``, ``label_source`` (ocr | order | none) and ``confidence`` (the
  calibrated probability that the panel is a true panel; null only when no model is shipped).

How medfig fills fields that came from Semantic Scholar's pipeline in MedICaT:
- ``pdf_hash``: the build's article fingerprint (a SHA-1 hex like S2's PDF hash), else
  SHA-1 of the article key;
- ``fig_uri``: ``<page>-<FigKey>-1.png`` with the 1-based PDF page when the figure was
  cropped from the PDF, 0 when it came from a figure file;
- ``s2_caption`` = ``s2orc_caption`` = "<label>. <caption>";
- ``s2orc_references``: the inline reference sentences, each once (a sentence citing the figure
  twice, "Figure 1(a) ... Figure 1(b)", is one reference; compared with whitespace and case
  folded), ``null`` when none (as MedICaT);
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
from medfig.export.panel_modality import RADIOLOGY, normalise
from medfig.export.release import Release
from medfig.images import open_image
from medfig.io import atomic_write_bytes



def fig_key(rec: dict) -> str:
    label = rec.get("label") or rec.get("figure_id") or "Figure"
    return re.sub(r"[^A-Za-z0-9]+", "", label) or str(rec.get("figure_id"))


def unique_sentences(sentences) -> list[str]:
    """Each sentence once, in first-seen order; two sentences are the same when they differ only
    in whitespace or case."""
    seen: set[str] = set()
    out = []
    for sentence in sentences:
        if not sentence:
            continue
        key = " ".join(sentence.split()).casefold()
        if key not in seen:
            seen.add(key)
            out.append(sentence)
    return out


def medicat_record(rec: dict, article: dict) -> dict:
    pdf_hash = article.get("fingerprint") or ""
    if not re.fullmatch(r"[0-9a-f]{40}", pdf_hash):
        pdf_hash = hashlib.sha1(str(rec.get("article_key")).encode()).hexdigest()
    page = rec.get("pdf_page")
    key = fig_key(rec)
    caption = rec.get("caption_clean") or rec.get("caption") or ""
    label = rec.get("label")
    s2_caption = f"{label}. {caption}" if label else caption
    refs = unique_sentences(r.get("sentence") for r in rec.get("inline_refs") or [])
    radiology = normalise(rec.get("modality")) in RADIOLOGY  # "xray", "X-ray" and "XRAY" alike
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


_TOKEN = re.compile(r"\w+|[^\w\s]")


def caption_tokens(text: str) -> list[dict]:
    """Prodigy-style tokens of ``text``: words and single punctuation marks with character offsets."""
    tokens = []
    for i, m in enumerate(_TOKEN.finditer(text)):
        tokens.append({"text": m.group(), "start": m.start(), "end": m.end(), "id": i,
                       "ws": m.end() < len(text) and text[m.end()].isspace()})
    return tokens


def _subcaption_spans(caption: str, panel: dict) -> list[tuple[int, int]]:
    spans = [tuple(s) for s in panel.get("subcaption_spans") or []]
    if not spans and panel.get("subcaption"):  # older rows: find the text itself
        start = caption.find(panel["subcaption"])
        if start >= 0:
            spans = [(start, start + len(panel["subcaption"]))]
    return spans


def subcaption_record(rec: dict, panels: list[dict], row: dict) -> dict:
    """MedICaT's subfigure-subcaption record of one figure (see the module doc)."""
    caption = rec.get("caption") or ""
    tokens = caption_tokens(caption)
    spans, subcaptions, used = [], {}, set()
    for n, panel in enumerate(panels, 1):
        key = panel.get("label") or f"panel{n}"
        if key in used:
            key = f"{key}#{n}"
        used.add(key)
        x0, y0, x1, y1 = (int(v) for v in panel["box_px"])
        spans.append({"label": key, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "type": "rect",
                      "x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0,
                      "score": None if panel.get("score") is None else round(float(panel["score"]), 4),
                      "label_source": panel.get("label_source"), "confidence": panel.get("confidence")})
        covered = _subcaption_spans(caption, panel)
        ids = [t["id"] for t in tokens if any(t["start"] < end and t["end"] > start for start, end in covered)]
        if ids:
            subcaptions[key] = ids
    return {"pdf_hash": row["pdf_hash"], "fig_uri": row["fig_uri"], "answer": "accept", "text": caption,
            "tokens": tokens, "width": rec.get("width"), "height": rec.get("height"), "spans": spans,
            "subcaptions": subcaptions,
            "medfig": {"article_key": rec["article_key"], "figure_id": rec["figure_id"],
                       "n_panels": len(panels), "predicted": True}}


def export_medicat(release: Release, out: str | Path, include_text_only: bool = False) -> dict[str, int]:
    """Write ``<out>/medicat.jsonl``, ``<out>/subcaptions.jsonl`` and ``<out>/figures/``.
    Returns ``{"lines": figures written, "panels": panels written}``."""
    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    lines, panel_lines, n_panels = [], [], 0
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
        panels = release.panels_of(rec)
        if panels and src is not None:  # boxes are pixels of the image: no image, no record
            panel_lines.append(json.dumps(subcaption_record(rec, panels, row), ensure_ascii=False))
            n_panels += len(panels)
    atomic_write_bytes(out / "medicat.jsonl", _jsonl(lines))
    atomic_write_bytes(out / "subcaptions.jsonl", _jsonl(panel_lines))
    return {"lines": len(lines), "panels": n_panels}


def _jsonl(lines: list[str]) -> bytes:
    return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")
