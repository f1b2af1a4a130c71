"""Panel letters ("A", "(b)", "C" in a white disc) read with rapidocr's bundled PP-OCR recogniser.

Running the full OCR detector over a figure costs 0.2-2 s, so it is not used. Label
candidates are found cheaply instead, and only the recogniser (about 10 ms per crop)
runs on them:

1. white letters on black plates anywhere in the figure (read inverted);
2. text blocks the XY-cut left outside every panel ("(a)" under a panel), if short;
3. inside each panel, connected components in the corner windows that look like
   one glyph (letter-sized, high contrast against their surroundings).

A candidate is a label when the recogniser reads exactly one letter (optionally in
brackets, optionally followed by a full stop) or a one/two-digit number with score >=
``MIN_SCORE``. Boxes are ``[x0, y0, x1, y1]`` in pixels of the figure image, origin top-left.

The recogniser is :mod:`medfig.vision.letter_recogniser` (loaded once per process; its models
ship inside the rapidocr wheel, nothing is downloaded).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from PIL import Image

from medfig.geometry import PixelBox, intersection
from medfig.vision.letter_recogniser import recognise
from medfig.vision.figure_edges import mask_bounds
from medfig.vision.glyphs import (NUMBER, first_word, has_close_neighbour, heads_a_panel, in_letter_row, label_proportioned,
                                  letter_plates, letter_shaped, reach_right, same_axis, same_row, stands_free)
from medfig.vision.subfigures import PanelLayout
from medfig.vision.text_blocks import is_rule

MIN_SCORE = 0.6
LABEL_MAX_TEXT_HEIGHTS = 4.0  # a panel letter is at most this many times the figure's text height
MAX_RECOGNITIONS = 20  # per figure: bounds the time spent on figures with many glyph-like blobs
READS_PER_PANEL = 3  # ... raised to this many per panel on figures with more than 6 panels
_LABEL_TEXT = re.compile(r"^[\(\[]?([A-Za-z]|\d{1,2})[\)\]\.:]?$")
# a numbered sub-panel: "Ai", "Aiii", "a1", "B2", "(A-ii)", "(a,i)", "b.2" -- the panel letter,
# then a roman numeral (i-viii) or one digit
_SUB_LABEL_TEXT = re.compile(r"^[\(\[]?([A-Za-z])[\-\u2013.,]?(i{1,3}|iv|vi{0,3}|[1-9])[\)\]\.]?$")
# the recogniser reads the sub-number "1" and the numeral "i" alike as "l", "I" or "|" (one
# vertical stroke): in brackets ("(al)"; a bare "Al" is aluminium in an element map) it is a
# sub-panel label, and the figure's other labels say which ("a2", "b1" or "aii")
_ONE_STROKE_LABEL = re.compile(r"^[\(\[]([A-Za-z])[\-\u2013.,]?[lI|][\)\]]$")


@dataclass(slots=True)
class PanelLabel:
    """A panel letter read in the figure. ``box``: pixels of the figure image, origin top-left."""

    text: str  # normalised: the letter/number only, case kept ("A", "b", "3")
    box: PixelBox
    score: float
    # no other ink within 0.4 of its height around it: a printed panel letter stands alone,
    # a glyph of a word or of a rotated axis title touches its neighbours
    free: bool = True
    # numbered sub-panel: "ii" of "Aii", "2" of "a2" (lower case); "" for a plain letter
    sub: str = ""

    @property
    def key(self) -> str:
        """Letter and sub-number in lower case ("aii", "b2", "c"): one per printed label;
        in alphabetical order within a letter (i < ii < iii < iv < v, 1 < 2)."""
        return self.text.lower() + self.sub


def normalise_label(text: str) -> str | None:
    """``"(a)"`` -> ``"a"``; None unless the text is one letter or a 1-2 digit number."""
    m = _LABEL_TEXT.match(text.replace(" ", ""))
    return m[1] if m else None


def split_label(text: str) -> tuple[str, str] | None:
    """``"(a)"`` -> ``("a", "")``, ``"Aii"`` -> ``("A", "ii")``, ``"(b-2)"`` -> ``("b", "2")``;
    None when the text is no panel label."""
    plain = normalise_label(text)
    if plain is not None:
        return plain, ""
    m = _SUB_LABEL_TEXT.match(text.replace(" ", ""))
    if m is not None:
        return m[1], m[2].lower()
    m = _ONE_STROKE_LABEL.match(text.replace(" ", ""))
    return (m[1], "l") if m else None  # "l": one stroke, settled by settle_one_stroke_subs


def _pad_crop(rgb: np.ndarray, box: PixelBox, pad_fraction: float = 0.35) -> np.ndarray:
    """The box with a margin around it; where the margin leaves the image (a letter in the
    figure's corner) it is filled with the crop's background, as the recogniser expects
    some space round a glyph."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    pad = max(3, int(round(h * pad_fraction)))
    H, W = rgb.shape[:2]
    crop = rgb[max(0, y0 - pad) : min(H, y1 + pad), max(0, x0 - pad) : min(W, x1 + pad)]
    missing = (max(0, pad - y0), max(0, y1 + pad - H), max(0, pad - x0), max(0, x1 + pad - W))
    if not any(missing) or crop.size == 0:
        return crop
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    fill = np.median(edge, axis=0).astype(rgb.dtype)
    out = np.empty((crop.shape[0] + missing[0] + missing[1], crop.shape[1] + missing[2] + missing[3], rgb.shape[2]), rgb.dtype)
    out[:] = fill
    out[missing[0] : missing[0] + crop.shape[0], missing[2] : missing[2] + crop.shape[1]] = crop
    return out


# A panel letter is set larger than most of the figure's own text (its median glyph: digits and
# lower case). On the 144-dpi crops the corner search was built on, 1.2% of the side is about
# 1.2 text heights (text 7-12 px, sides 470-1020 px): the same floor, kept at any reading size
LETTER_MIN_TEXT_HEIGHTS = 1.2


def _plate_crop(rgb: np.ndarray, box: PixelBox) -> np.ndarray:
    """A letter plate's inside, inverted (the white letter made dark on light) and padded with white:
    the recogniser read a 14 px white "E" on black as "日" (0.57), its inverse as "E" (0.99)."""
    x0, y0, x1, y1 = box
    inner = 255 - rgb[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1]
    pad = max(3, round(0.35 * inner.shape[0]))
    out = np.full((inner.shape[0] + 2 * pad, inner.shape[1] + 2 * pad, rgb.shape[2]), 255, rgb.dtype)
    out[pad : pad + inner.shape[0], pad : pad + inner.shape[1]] = inner
    return out


def _with_rim(box: PixelBox) -> PixelBox:
    """A glyph's box from a threshold mask, 1 px wider all round: the mask leaves its anti-aliased rim out."""
    return (max(0, box[0] - 1), max(0, box[1] - 1), box[2] + 1, box[3] + 1)


def _glyph_on_plate(gray: np.ndarray, plate: PixelBox) -> PixelBox:
    x0, y0, x1, y1 = plate
    return mask_bounds(gray[y0:y1, x0:x1] >= 170, x0, y0) or plate


def _corner_candidates(gray: np.ndarray, panel: PixelBox, figure_side: int, text_px: float | None = None) -> list[PixelBox]:
    """Glyph-like connected components in the four corner windows of a panel. The smallest glyph
    taken is 1.2% of the figure's side (specks of a photo's texture are smaller), or, where that is
    more, LETTER_MIN_TEXT_HEIGHTS of the figure's text height if it stands alone: a figure read at
    1,200 px has its text at 10-13 px whatever its print size, and a side-based floor of 14 px
    dropped its letters where the same figure read at 900 px kept them; a glyph that small and not
    alone is a capital of a word ("C" of "Chl a overlay" over a photo)."""
    import cv2

    x0, y0, x1, y1 = panel
    pw, ph = x1 - x0, y1 - y0
    win_w = int(min(pw, max(28, 0.25 * pw)))
    win_h = int(min(ph, max(28, 0.25 * ph)))
    side_floor = max(7, int(0.012 * figure_side))
    min_h = side_floor if not text_px else max(7, min(side_floor, int(LETTER_MIN_TEXT_HEIGHTS * text_px)))
    max_h = max(min_h + 2, int(min(0.3 * ph, 0.12 * figure_side + 12)))
    found: list[tuple[float, PixelBox]] = []
    for cx, cy in ((x0, y0), (x1 - win_w, y0), (x0, y1 - win_h), (x1 - win_w, y1 - win_h)):
        window = gray[cy : cy + win_h, cx : cx + win_w]
        if window.size == 0:
            continue
        for mask in (window >= 200, window <= 55):
            mask = mask.astype(np.uint8)
            if mask.mean() > 0.8:  # the window is all one tone: no glyph on it
                continue
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
            for i in range(1, n):
                bx, by, bw, bh, area = (int(v) for v in stats[i])
                if not (min_h <= bh <= max_h) or not (0.15 * bh <= bw <= 1.6 * bh):
                    continue
                fill = area / float(bw * bh)
                if not 0.12 <= fill <= 0.92:
                    continue
                box = (cx + bx, cy + by, cx + bx + bw, cy + by + bh)
                if bh < side_floor and not stands_free(gray, _with_rim(box), lines_allowed=True):
                    continue  # as small as a capital of the figure's words: only a glyph alone is a letter
                # distance of the glyph to the nearest panel corner, relative to panel size
                gx, gy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                d = min(np.hypot(gx - px, gy - py) for px in (x0, x1) for py in (y0, y1)) / max(pw, ph)
                found.append((d, box))
    found.sort(key=lambda t: t[0])
    return [b for _, b in found[:3]]


def find_panel_labels(image: Image.Image, layout: PanelLayout, wanted: set[str] | None = None) -> list[PanelLabel]:
    """Panel letters of a figure (see module doc); at most one label per position.
    ``wanted``: the caption's panel labels (lower case); reading stops once one per
    panel has been found (without it, once any distinct letter per panel has). Numbers are
    labels only when ``wanted`` holds one; an empty set means the caption names no panel."""
    rgb = np.asarray(image.convert("RGB"))
    gray = np.asarray(image.convert("L"))
    side = max(layout.width, layout.height)
    candidates: list[PixelBox] = []
    first_words: set[PixelBox] = set()
    # a printed panel letter is set at most a few times the figure's own text size; taller blocks
    # (a legend's rows, a column of tick labels merged into one) used up the reads before the letters
    # whenever a figure was saved large enough for its words to fall apart into separate blocks
    text_px = layout.text_px
    tallest = 0.15 * side + 10 if text_px is None else min(0.15 * side + 10, LABEL_MAX_TEXT_HEIGHTS * text_px)
    for b in layout.text_blocks:
        w, h = b[2] - b[0], b[3] - b[1]
        if not 5 <= h <= tallest or is_rule(b):
            continue
        if w > 3.2 * h + 6:  # a heading line: its first word may be the letter ("A: 60 x 120 Networks")
            b = first_word(gray, b)
            w = b[2] - b[0]
            first_words.add(b)
        if w <= 3.2 * h + 6:
            candidates.append(b)
    # letter-shaped blocks first ("(b)", "C"): rotated axis titles, tick-label columns and
    # wide numbers must not use up the recognition budget before the last panel's letter
    # Within a tier, taller first: panel letters are set larger (and bolder) than tick labels,
    # legend entries and axis numbers, which otherwise exhaust the budget on a chart grid
    # (heights in 3 px steps, so reading order still decides between letters of one size).
    # Glyphs with a close neighbour (the letters of a rotated axis title, a word split at
    # its letter gaps) come after free-standing ones: a panel letter stands alone. The first word
    # of a line ("(A)" of "(A) 0.10% net mortality ...") is not crowded by the rest of its line.
    crowded = {b for b in candidates if b not in first_words and has_close_neighbour(b, layout.text_blocks)}
    candidates.sort(key=lambda b: (not letter_shaped(b), -((b[3] - b[1]) // 3), b in crowded))  # stable sort
    # corner glyphs round-robin over panels (every panel's best guess first), so the
    # recognition budget is spread over the panels; a panel whose letter is found is done
    # (Reading blocks with ink round them after the corner glyphs saved 15% of recognitions
    # on real figures but lost letters on the synthetic set: "(a)" close under a panel.)
    per_panel = [_corner_candidates(gray, panel, side, text_px) for panel in layout.panels]
    # white letters on black plates first: the plate says what it is (at most a few: a figure's letters)
    plates = letter_plates(gray, text_px)[: 2 * max(1, len(wanted or ()), len(layout.panels))]
    queue: list[tuple[PixelBox, int | None]] = [(b, None) for b in plates + candidates]
    for rank in range(max((len(c) for c in per_panel), default=0)):
        queue.extend((c[rank], i) for i, c in enumerate(per_panel) if rank < len(c))
    firsts = {c[0] for c in per_panel if c}
    labels: list[PanelLabel] = []
    done: set[int] = set()
    recognitions = 0
    offered: set[PixelBox] = set()
    # numbers read where the caption names letters only are tick labels, glyphs with ink
    # round them letters of words or of rotated axis titles, words legend entries: the blocks
    # lined up with one at its size and close to it are the rest of its axis, title or legend
    # and are not read (they used up the budget before the panel letters were offered)
    ticks: list[PixelBox] = []
    numbers: list[PixelBox] = []  # ... of them the tick labels read or passed over (ticks too: one axis)
    # a number is a panel label only where the caption numbers its panels ("(1)", "2"): elsewhere
    # a number in a figure is a tick label, a scale or a legend value -- the "0" at a chart's
    # origin sits at a panel corner as a printed letter does
    letters_only = wanted is not None and not any(w.isdigit() for w in wanted)
    budget = max(MAX_RECOGNITIONS, READS_PER_PANEL * len(layout.panels))
    for box, panel_index in queue:
        # every panel's best corner glyph is read, over budget too: text blocks (tick labels,
        # legend words) may use up the budget before the corners are reached
        if recognitions >= budget and (panel_index is None or box not in firsts):
            continue
        # the row goes on past a number passed over: "70%" is as near "50%" as "50%" is to "30%".
        # Rows only: a column of y tick labels carried on would reach the panel letter set above it
        carried = panel_index is None and any(same_row(box, t) for t in numbers)
        if carried:
            numbers.append(box)
        if carried or (panel_index is None and any(same_axis(box, t) for t in ticks)):
            continue
        found = {l.text.lower() for l in labels}
        if wanted and wanted <= found and not any(l.sub for l in labels) and len(labels) == len(found):
            break  # every letter the caption names is found once: the rest can only add noise
            # (one read twice -- the "A" of three "PI-A" axis titles -- is not settled yet)
        if len({l.key for l in labels}) >= len(layout.panels) and (not wanted or wanted <= found):
            break  # one distinct label per panel found (sub-panels "Ai", "Aii" count apart)
        if panel_index in done or any(intersection(box, l.box) > 0 for l in labels) or box in offered:
            continue
        if in_letter_row(gray, box):
            continue  # a glyph of a row of significance letters (checked last: it reads pixels)
        offered.add(box)  # merged text blocks may repeat a box: one read each
        recognitions += 1
        text, score = recognise(_plate_crop(rgb, box) if box in plates else _pad_crop(rgb, box))
        letter = normalise_label(text)
        number = letters_only and NUMBER.match(text.replace(" ", "")) is not None
        if panel_index is None and (number or not stands_free(gray, box)):
            ticks.append(box)  # and a glyph with ink round it: a letter of a word or a rotated title
            if number:
                numbers.append(box)
        if letter is None and panel_index is None:
            # a letter set on one line with a tick label or legend ("D 1000", "B  KO mice"):
            # the block was merged; its first word is the letter, at the block's left end
            head, _, rest = text.partition(" ")
            lead = normalise_label(head) if rest.strip() else None
            if lead is not None and lead.isalpha():
                head = (box[0], box[1], min(box[2], box[0] + box[3] - box[1]), box[3])
                recognitions += 1  # read alone it must be that letter (not a rotated title's glyph by a tick label)
                if normalise_label(recognise(_pad_crop(rgb, head))[0]) == lead:
                    letter, box = lead, head
        sub = ""
        if letter is None:
            split = split_label(text)  # a text block "(a1)" / "Aii" read whole
            if split is not None and split[0].isalpha():
                letter, sub = split
        if letter is None and panel_index is None and len(text) >= 2 and box not in ticks:
            ticks.append(box)  # a word: the blocks lined up with it are the rest of its list (a legend)
        if letter is None or score < MIN_SCORE or not label_proportioned(box) or (letters_only and letter.isdigit()):
            continue
        if box in plates:  # the letter is the light glyph on the plate, where the corner search finds it too
            box = _glyph_on_plate(gray, box)
        elif letter.isalpha():  # "A" or "Ai" of a block that left the rest of "Aiii" outside
            wide, longer = _with_sub_number(rgb, gray, box, letter)
            if len(longer) > len(sub):
                box, sub = wide, longer
        free = stands_free(gray, box)
        if wanted is not None and not wanted and not (free or panel_index is None) or (
                wanted is not None and not wanted and panel_index is None and not heads_a_panel(box, layout.panels)):
            continue  # the caption names no panel: only a glyph alone at a panel's corner can be its label
        labels.append(PanelLabel(text=letter, box=box, score=score, free=free, sub=sub))
        if panel_index is not None:
            done.add(panel_index)
    if wanted:
        labels += _search_missing(rgb, gray, labels, wanted)
    return settle_one_stroke_subs(labels)


def settle_one_stroke_subs(labels: list[PanelLabel]) -> list[PanelLabel]:
    """A sub-number read as one stroke ("al" of "(a1)") is "1" where another label of the figure is
    numbered with digits, else the roman "i"."""
    digits = any(l.sub.isdigit() for l in labels)
    for label in labels:
        if label.sub == "l":
            label.sub = "1" if digits else "i"
    return labels


def _with_sub_number(rgb: np.ndarray, gray: np.ndarray, box: PixelBox, letter: str) -> tuple[PixelBox, str]:
    """A letter read on its own may be the head of a numbered sub-panel label ("A" of "Aii"):
    when ink follows it on its line, that stretch is read once more; if it reads as the same
    letter with a sub-number, the label is the sub-panel's (box widened to it)."""
    end = reach_right(gray, box)
    if end - box[2] < 0.15 * (box[3] - box[1]):
        return box, ""
    wide = (box[0], box[1], end, box[3])
    text, score = recognise(_pad_crop(rgb, wide))
    split = split_label(text)
    if split is None or score < MIN_SCORE or split[0] != letter or not split[1]:
        return box, ""
    return wide, split[1]


MISSING_TRIES = 3  # recognitions per missing letter in the targeted search


def _search_missing(rgb: np.ndarray, gray: np.ndarray, labels: list[PanelLabel], wanted: set[str]) -> list[PanelLabel]:
    """Letters the caption names but the first pass did not read, looked for where the
    letters that were read say they must be: a letter between two read letters that share
    a column (or a row) sits in that column (row) between them, at their size. Such a
    letter is often printed inside a chart piece (no text block of its own) or beyond the
    corner windows, so the first pass never offered it to the recogniser."""
    import cv2

    read = {}
    for l in labels:
        k = l.text.lower()
        if l.text.isalpha() and k in wanted and (k not in read or l.score > read[k].score):
            read[k] = l
    missing = sorted(wanted - set(read))
    if not read or not missing or len(missing) > 4:
        return []
    heights = sorted(l.box[3] - l.box[1] for l in read.values())
    h = heights[len(heights) // 2]
    if max(heights) > 1.4 * min(heights):
        return []  # the letters read are not one family of labels
    H, W = gray.shape
    found: list[PanelLabel] = []
    for m in missing:
        before = [k for k in read if k < m]
        after = [k for k in read if k > m]
        # (search window, axis the letter must line up on, coordinate it lines up with)
        strips: list[tuple[PixelBox, int, int]] = []
        if before:
            p = read[max(before)].box
            nxt = read[min(after)].box if after else None
            # same column, below the previous letter (down to the next letter if it is there too)
            y_end = nxt[1] if nxt and abs(nxt[0] - p[0]) <= h else H
            strips.append(((max(0, p[0] - h), p[3], min(W, p[0] + 2 * h), y_end), 0, p[0]))
            # same row, right of the previous letter
            x_end = nxt[0] if nxt and abs(nxt[1] - p[1]) <= h else W
            strips.append(((p[2], max(0, p[1] - h // 2), x_end, min(H, p[3] + h // 2)), 1, p[1]))
        if after:
            q = read[min(after)].box
            strips.append(((0, max(0, q[1] - h // 2), q[0], min(H, q[3] + h // 2)), 1, q[1]))  # row of the next letter
            strips.append(((max(0, q[0] - h), 0, min(W, q[2] + h), q[1]), 0, q[0]))  # column of the next letter, above it
        # then the column and the row of every letter read: a figure's letters sit on a few
        # grid lines ("D" under "B" in a 2 x 2 layout whose lower row is not level)
        tier = len(strips)
        for l in read.values():
            p = l.box
            strips.append(((max(0, p[0] - h), 0, min(W, p[0] + 2 * h), H), 0, p[0]))
            strips.append(((0, max(0, p[1] - h // 2), W, min(H, p[3] + h // 2)), 1, p[1]))
        cands: list[tuple[tuple[bool, float], PixelBox]] = []
        for k, ((x0, y0, x1, y1), axis, at) in enumerate(strips):
            if x1 - x0 < h // 2 or y1 - y0 < h // 2:
                continue
            window = gray[y0:y1, x0:x1]
            # dark letters on a light page, light letters on a dark image
            for mask in (window < 128, window >= 128):
                _, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
                for bx, by, bw, bh, _ in stats[1:].tolist():
                    box = (x0 + bx, y0 + by, x0 + bx + bw, y0 + by + bh)
                    off = abs(box[axis] - at)  # panel letters line up on their left / top edges
                    # x-height letters (a, c, e) are shorter than b, d, f: down to 0.6 of the median
                    if 0.6 * h <= bh <= 1.3 * h and 0.3 * h <= bw <= 1.3 * h and off <= 0.6 * h:
                        # (the box of a < 128 mask leaves the glyph's anti-aliased rim outside: 1 px more)
                        if k >= tier and not stands_free(gray, _with_rim(box)):
                            continue  # away from its neighbours a letter must stand alone to count
                        cands.append(((k >= tier, off + abs(bh - h)), box))
        cands.sort(key=lambda t: t[0])
        tried = [0, 0]  # recognitions in the neighbours' strips, in the other letters' lines
        seen: set[PixelBox] = set()
        for (other_lines, _), box in cands:
            if tried[other_lines] >= MISSING_TRIES:
                continue
            if box in seen or any(intersection(box, l.box) > 0 for l in labels + found):
                continue
            if in_letter_row(gray, box):
                continue  # a significance letter (checked only for the glyphs tried: it reads pixels)
            seen.add(box)
            tried[other_lines] += 1
            text, score = recognise(_pad_crop(rgb, box))
            letter = normalise_label(text)
            if letter is not None and letter.lower() == m and score >= MIN_SCORE:
                found.append(PanelLabel(text=letter, box=box, score=score, free=stands_free(gray, _with_rim(box))))
                break
    return found
