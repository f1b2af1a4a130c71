"""Captions of an image-only page read by OCR: caption candidates near the detector's
figures and tables, cut into lines by their ink and read by rapidocr's recogniser (the
engine :mod:`medfig.vision.panel_labels` loads), OCR-misread label words repaired; a block
whose first line parses as a caption label (:mod:`medfig.pdf.labels`) is a caption.

Boxes in and out are PDF points, origin top-left of the page, ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import re

import numpy as np
from rapidfuzz.distance import Levenshtein

from medfig.geometry import PointBox, edge_distance, inside_fraction, union
from medfig.pdf.labels import parse_label
from medfig.pdf.layout import LayoutBox
from medfig.pdf.page_image import MIN_LINE_PT, grow_text_block, text_block_at, text_line_bands, to_px
from medfig.pdf.pairing import MAX_PAIR_DISTANCE_PT
from medfig.pdf.types import PdfCaption

MIN_OCR_SCORE = 0.5


def ocr_lines(rgb: np.ndarray, box_pt: PointBox, dpi: float, max_lines: int | None = None) -> list[tuple[str, PointBox, float]]:
    """Text lines (text, box in points, score) of the block ``box_pt``, top to bottom.

    Lines are cut by the row ink profile and each is read by rapidocr's recogniser only
    (:mod:`medfig.vision.letter_recogniser`): its text detector, run single-threaded
    on a wide caption strip, costs seconds per block; one recognition costs tens of ms."""
    from medfig.vision.letter_recogniser import recognise

    scale = dpi / 72.0
    x0, y0, x1, y1 = to_px(box_pt, scale, rgb.shape, pad_px=4)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    block = rgb[y0:y1, x0:x1]
    lines = []
    for bx0, by0, bx1, by1 in text_line_bands(block.mean(axis=2), int(MIN_LINE_PT * scale))[:max_lines]:
        pad = 3
        crop = block[max(0, by0 - pad):by1 + pad, max(0, bx0 - pad):bx1 + pad]
        text, score = recognise(np.ascontiguousarray(crop))
        if text.strip() and score >= MIN_OCR_SCORE:
            lines.append((text.strip(), ((x0 + bx0) / scale, (y0 + by0) / scale, (x0 + bx1) / scale, (y0 + by1) / scale),
                          score))
    return lines



_KIND_WORDS = {"figure": "Figure", "table": "Table", "fig": "Fig."}


def fix_ocr_label(line: str) -> str:
    """Repair an OCR-misread label word at the start of a line: "FiGuRe 5:", "FtGuuz 5:",
    "TAB1E 3:", "TABL.E 1:", "Fig, 4." -> "Figure 5:", "Table 3:", "Fig. 4." (the kind word
    within a small edit distance of figure/table/fig, followed by a number)."""
    numbered = re.match(r"^\s*\d{1,4}\s*(?=[A-Za-z])", line)  # a preprint's margin line number: "565Table 2."
    if numbered and parse_label(fix_ocr_label(line[numbered.end():])) is not None:
        return fix_ocr_label(line[numbered.end():])
    m = re.match(r"^\s*(\S{3,8}?)[,.]?\s+(S?\d{1,3}[A-Za-z]?\b.*)$", line)
    if not m:
        return line
    word = re.sub(r"[^a-z]", "", m[1].lower().replace("1", "l").replace("0", "o").replace("$", "s"))
    for canon, printed in _KIND_WORDS.items():
        if word == canon or (canon == "fig" and len(word) == 3 and word[1:] == "ig") or (len(canon) > 3 and abs(len(word) - len(canon)) <= 1 and word[:1] == canon[0]
                             and Levenshtein.distance(word, canon) <= (3 if len(word) == len(canon) else 2)):
            return f"{printed} {m[2]}"
    return line


def _caption_from_block(rgb: np.ndarray, block: LayoutBox, dpi: float, page_index: int,
                        labelled_by_detector: bool) -> PdfCaption | None:
    first = ocr_lines(rgb, block.box, dpi, max_lines=1)  # most blocks near art are body text: read one line first
    if not first:
        return None
    label = parse_label(fix_ocr_label(first[0][0]))
    if label is None:
        return None
    if not labelled_by_detector and not (label.delimiter or not label.rest):
        return None  # "Figure 2 shows ..." at the start of a body paragraph
    lines = ocr_lines(rgb, block.box, dpi)
    lines[0] = (fix_ocr_label(lines[0][0]), *lines[0][1:]) if lines else first[0]
    text = " ".join(" ".join(t for t, _, _ in lines).split())
    box = union(b for _, b, _ in lines)
    score = 2.0 + (1.0 if labelled_by_detector else 0.0) + (1.0 if label.delimiter else 0.0)
    return PdfCaption(name=label.name, fig_type=label.fig_type, kind=label.kind, number=label.number,
                      label=label.printed, page=page_index, box_pt=box, text=text, score=score)


def caption_candidates(gray: np.ndarray, layout: list[LayoutBox], art: list[LayoutBox], dpi: float) -> list[tuple[PointBox, bool]]:
    """Blocks that may be captions, as (box in points, labelled a caption by the detector),
    most trusted first: the detector's caption boxes; its text blocks within pairing reach of
    a figure/table; text lines right below/above a figure/table that no detector box covers;
    the first line inside a table/figure box (the detector often boxes a caption with its table)."""
    art_boxes = [b.box for b in art]
    out: list[tuple[PointBox, bool]] = []
    for block in layout:
        if block.label in ("figure_caption", "table_caption"):
            out.append((grow_text_block(gray, block.box, dpi, art_boxes), True))
    for block in layout:
        if block.label == "text" and any(edge_distance(block.box, a) <= MAX_PAIR_DISTANCE_PT for a in art_boxes):
            out.append((grow_text_block(gray, block.box, dpi, art_boxes), False))
    covered = [b.box for b in layout if b.label not in ("figure", "table")]
    for a in art_boxes:
        for downward in (True, False):
            edge = a[3] if downward else a[1]
            found = text_block_at(gray, (a[0], a[2]), edge + (1 if downward else -1), dpi, downward)
            if found is not None and not any(inside_fraction(found, c) > 0.5 for c in covered):
                out.append((grow_text_block(gray, found, dpi, [x for x in art_boxes if x != a]), False))
        inner = text_block_at(gray, (a[0], a[2]), a[1], dpi, True, reach_pt=6.0)
        if inner is not None:
            out.append((inner, False))
    return out


def ocr_captions(rgb: np.ndarray, gray: np.ndarray, layout: list[LayoutBox], art: list[LayoutBox], dpi: float,
                  page_index: int) -> list[PdfCaption]:
    captions: list[PdfCaption] = []
    for box, by_detector in caption_candidates(gray, layout, art, dpi):
        if any(inside_fraction(box, c.box_pt) > 0.5 or inside_fraction(c.box_pt, box) > 0.5 for c in captions):
            continue  # one caption found as a caption box, a text block and a line below the art
        cap = _caption_from_block(rgb, LayoutBox("caption", box, 1.0), dpi, page_index, by_detector)
        if cap is not None and not any(c.name == cap.name for c in captions):
            captions.append(cap)
    return captions
