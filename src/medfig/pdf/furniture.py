"""Page furniture: what the publisher draws at the same place on many pages.

Header bars, page-edge stripes, rules under the running head and logos are drawn at the same
position on most pages of an article; no figure is. Taken as art, they pull a figure region up
into the running head or across the whole page width. A drawn object whose box (rounded to a
point) recurs on at least ``MIN_PAGES`` pages and on at least ``MIN_SHARE`` of the article's
pages is furniture and is left out of region finding. The evidence is the document's own
repetition, so it holds for any publisher's template. Paths (bars, rules, stripes) and
logo-sized images can be furniture; pictures are never: a journal may set the figures of
one article as identical grids of photos, and a scanned page's image is the page.
"""

from __future__ import annotations

import re
from collections import Counter

from medfig.geometry import inside_fraction
from medfig.pdf.types import PageData

MIN_PAGES = 3
MIN_SHARE = 0.4
MAX_IMAGE_SHARE = 0.02  # of the page's area: a logo, not a picture


def _key(box) -> tuple[int, int, int, int]:
    return tuple(round(v) for v in box)  # type: ignore[return-value]


def drop_page_furniture(pages: list[PageData]) -> int:
    """Remove recurring drawn objects from every page's ``graphics``; returns how many were removed."""
    readable = [p for p in pages if p.width > 0]
    if len(readable) < MIN_PAGES:
        return 0
    seen = Counter(key for page in readable for key in {_key(g.box) for g in page.graphics})
    needed = max(MIN_PAGES, MIN_SHARE * len(readable))
    removed = 0
    for page in readable:
        page_area = page.width * page.height
        keep = []
        for g in page.graphics:
            box = g.box
            # images: only logo-sized ones. A journal that sets every figure as the same 2x2 grid of
            # photos draws different pictures at the same places; a logo is small
            picture = g.kind == "image" and (box[2] - box[0]) * (box[3] - box[1]) > MAX_IMAGE_SHARE * page_area
            if seen[_key(box)] >= needed and not picture:
                removed += 1
                continue
            keep.append(g)
        page.graphics = keep
    return removed


_PROSE_CHARS = 40  # a line longer than this is running prose (body text, a caption), not a label


def _line_key(line) -> tuple[int, int, str] | None:
    """Where and what a line is, its numbers left out (page numbers and volume counters change from
    page to page, the head around them does not); None for a line without a letter (tick labels
    of charts drawn alike are numbers at the same places too)."""
    if not any(ch.isalpha() for ch in line.text):
        return None
    return round(line.box[1]), round(line.box[0]), re.sub(r"\d+", "#", line.text)


def drop_running_text(pages: list[PageData]) -> int:
    """Remove the running heads and feet -- text lines set at the same place with the same words
    (numbers aside) on at least ``MIN_PAGES`` pages and ``MIN_SHARE`` of them, above or below all
    the page's prose -- from every page's words and lines. Left in, a head a few points above a
    figure is read as the figure's own text and pulls its region up to the head and across both
    columns. Returns how many lines were removed."""
    readable = [p for p in pages if p.width > 0]
    if len(readable) < MIN_PAGES:
        return 0
    keys = [[_line_key(line) for line in page.lines] for page in readable]
    seen = Counter(key for page_keys in keys for key in set(page_keys) if key)
    needed = max(MIN_PAGES, MIN_SHARE * len(readable))
    removed = 0
    for page, page_keys in zip(readable, keys):
        recurring = [bool(key) and seen[key] >= needed for key in page_keys]
        if not any(recurring):
            continue
        # only in the margins: above or below every line of running prose on the page. Twenty charts
        # drawn alike put the same tick label at the same place on every page; it stays theirs
        prose = [line.box for line, r in zip(page.lines, recurring) if len(line.text) > _PROSE_CHARS and not r]
        top = min((b[1] for b in prose), default=page.height)
        bottom = max((b[3] for b in prose), default=0.0)
        running = [r and (line.box[3] <= top or line.box[1] >= bottom) for line, r in zip(page.lines, recurring)]
        if not any(running):
            continue
        gone = {id(w) for line, r in zip(page.lines, running) if r for w in line.words}
        page.lines = [line for line, r in zip(page.lines, running) if not r]
        page.words = [w for w in page.words if id(w) not in gone]
        removed += sum(running)
    return removed


def drop_caption_containers(pages: list[PageData], captions) -> int:
    """Remove drawn paths that enclose a caption: a box round figure and caption together (BMC's
    rounded frame, Frontiers' border, The Lancet's table panel) is a container, not art; art never
    holds its own caption. Images are kept (a caption printed over a picture is still the picture).
    ``captions``: every caption found, with ``page`` and ``box_pt``. Returns how many were removed."""
    by_page: dict[int, list] = {}
    for caption in captions:
        by_page.setdefault(caption.page, []).append(caption.box_pt)
    removed = 0
    for page in pages:
        boxes = by_page.get(page.index)
        if not boxes:
            continue
        framed = _segmented_frames(page, boxes)
        keep = []
        for i, g in enumerate(page.graphics):
            if i in framed or (g.kind != "image" and any(inside_fraction(box, g.box) >= 0.9 for box in boxes)):
                removed += 1
                continue
            keep.append(g)
        page.graphics = keep
    return removed


def _segmented_frames(page: PageData, captions: list) -> set[int]:
    """Indexes of the paths that draw, piece by piece, a box round a caption: a top and a bottom
    rule of one length, a vertical rule at each end between them, and the corner pieces (BMC
    draws its rounded frame as four rules and four arcs, so no single path encloses the caption).
    Ends may miss each other by a corner's radius, taken as up to one body-text line height."""
    tol = page.body_size
    rules = [(i, g.box) for i, g in enumerate(page.graphics) if g.kind != "image" and g.thin]
    flat = [(i, b) for i, b in rules if b[2] - b[0] > b[3] - b[1]]
    upright = [(i, b) for i, b in rules if b[3] - b[1] > b[2] - b[0]]
    found: set[int] = set()
    for cap in captions:
        spans = [(i, b) for i, b in flat if b[0] <= cap[0] + tol and b[2] >= cap[2] - tol]
        for ti, top in (s for s in spans if s[1][3] <= cap[1]):
            for bi, bottom in (s for s in spans if s[1][1] >= cap[3]):
                if abs(top[0] - bottom[0]) > tol or abs(top[2] - bottom[2]) > tol:
                    continue
                sides = [i for i, b in upright
                         if b[1] <= top[3] + tol and b[3] >= bottom[1] - tol
                         and (abs(b[0] - top[0]) <= tol or abs(b[2] - top[2]) <= tol)]
                if len({round(page.graphics[i].box[0]) for i in sides}) < 2:
                    continue
                corners = [(x, y) for x in (top[0], top[2]) for y in (top[1], bottom[3])]
                found |= {ti, bi, *sides}
                found |= {i for i, g in enumerate(page.graphics) if g.kind != "image" and any(
                    abs(g.box[0] - x) <= tol and abs(g.box[2] - x) <= tol and abs(g.box[1] - y) <= tol
                    and abs(g.box[3] - y) <= tol for x, y in corners)}
    return found
