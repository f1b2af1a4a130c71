"""Whitespace-band fallback (pdffigures2-like) for a located caption with no figure file.

Everything drawn or written next to the caption, on the graphic's side, up to the
nearest barrier: a body-text line (>= 50 characters; for tables a vertical gap > 1.6
lines), another caption or table, the running header (above y = 58 pt). Only objects
within the caption's horizontal span count (a table caption narrower than 70% of the page,
or a figure caption narrower than 30%, widens to its column, or to the text block when centred); an object counts when 90% of its
width lies in that span. Tables: rows and rules below
the caption, cut at the lowest rule spanning >= 80% of the box (footnotes out).
All boxes: PDF points, origin top-left, [x0, y0, x1, y1].
"""

from __future__ import annotations

from medfig.geometry import union
from medfig.induce.pagetext import PageText

HEADER_BOTTOM_PT = 58.0
BODY_LINE_CHARS = 50
FIGURE_GAP_PT = 40.0
INSIDE_SHARE = 0.9


def page_objects(page) -> list[list[float]]:
    """Boxes of the page's embedded images and visible vector objects (pdfplumber page).
    Page-size backgrounds and invisible white fills are left out."""
    objs = []
    for im in page.images:
        objs.append([max(0, im["x0"]), max(0, im["top"]), min(page.width, im["x1"]), min(page.height, im["bottom"])])
    for o in (*page.rects, *page.lines, *page.curves):
        if (o["x1"] - o["x0"]) * (o["bottom"] - o["top"]) > 0.5 * page.width * page.height:
            continue
        if not o.get("stroke") and not o.get("fill"):
            continue
        col = o.get("non_stroking_color")
        vals = list(col) if isinstance(col, (list, tuple)) else [col] if isinstance(col, (int, float)) else []
        white = bool(vals) and all(isinstance(v, (int, float)) for v in vals) and (
            all(v <= 0.01 for v in vals) if len(vals) == 4 else all(v >= 0.99 for v in vals))
        if o.get("fill") and not o.get("stroke") and white:
            continue  # an invisible white background is not part of what the reader sees
        objs.append([o["x0"], o["top"], o["x1"], o["bottom"]])
    return objs


def text_lines(words: list[dict]) -> list[dict]:
    """Words grouped into line pieces (same baseline, gaps < 12 pt): ``box``, ``size``
    (largest font), ``n`` (characters), ``words``."""
    rows: list[list[dict]] = []
    for w in sorted(words, key=lambda w: (round(w["bottom"]), w["x0"])):
        # same baseline and a small gap to the right; a negative gap is a word of another
        # column that sorted after this row (baselines differ by a fraction of a point)
        if rows and abs(rows[-1][-1]["bottom"] - w["bottom"]) < 2 and -1 < w["x0"] - rows[-1][-1]["x1"] < 12:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [dict(box=union([(w["x0"], w["top"], w["x1"], w["bottom"]) for w in r]), size=max(w["size"] for w in r),
                 n=sum(len(w["text"]) for w in r), words=r) for r in rows]


def _overlaps(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) >= -0.5 and min(a[3], b[3]) - max(a[1], b[1]) >= -0.5


def band_region(page, pt: PageText, cap_box, side: str, body_size: float, is_table: bool,
                other_caps=()) -> list[float] | None:
    """The band next to ``cap_box`` on ``side`` ("above"/"below"); None when it is empty.

    ``page``: the pdfplumber page; ``other_caps``: boxes of other captions/tables on the
    page, which stop the band.
    """
    x0, x1 = cap_box[0] - 12, cap_box[2] + 12
    narrow = (cap_box[2] - cap_box[0]) < (0.7 if is_table else 0.3) * page.width
    if narrow:  # a short (e.g. label-only) caption says little about the graphic's width
        centre = (cap_box[0] + cap_box[2]) / 2
        text_x0 = min((w["x0"] for w in pt.words), default=0)
        text_x1 = max((w["x1"] for w in pt.words), default=page.width)
        if abs(centre - page.width / 2) < 0.08 * page.width:
            x0, x1 = text_x0 - 2, text_x1 + 2  # a centred caption heads a page-wide table
        elif centre < page.width / 2:
            x0, x1 = text_x0 - 2, page.width / 2  # left column
        else:
            x0, x1 = page.width / 2, text_x1 + 2  # right column

    def inspan(b) -> bool:
        # >= 90% of the object's width inside the span: art a hair wider than its caption counts
        w = b[2] - b[0]
        return min(b[2], x1) - max(b[0], x0) >= INSIDE_SHARE * w if w > 0 else x0 <= b[0] <= x1

    words = [w for w in pt.words if inspan((w["x0"], w["top"], w["x1"], w["bottom"]))]
    items = [dict(box=o, kind="obj") for o in page_objects(page) if inspan(o)]
    for line in text_lines(words):
        items.append(dict(box=line["box"], kind="line", body=(not is_table) and line["n"] >= BODY_LINE_CHARS))
    barriers = [list(c) for c in other_caps if min(c[2], x1) - max(c[0], x0) > 0]  # in this caption's columns
    items = [i for i in items if not any(_overlaps(i["box"], b) for b in barriers)]
    items += [dict(box=b, kind="caption", body=True) for b in barriers]
    if side == "above":
        cand = sorted([i for i in items if i["box"][3] <= cap_box[1] + 1], key=lambda i: -i["box"][3])
        edge = cap_box[1]
    else:
        cand = sorted([i for i in items if i["box"][1] >= cap_box[3] - 1], key=lambda i: i["box"][1])
        edge = cap_box[3]
    taken = []
    limit_gap = 1.6 * body_size if is_table else FIGURE_GAP_PT
    for it in cand:
        b = it["box"]
        gap = (edge - b[3]) if side == "above" else (b[1] - edge)
        if it.get("body") or gap > limit_gap or (side == "above" and b[3] < HEADER_BOTTOM_PT):
            break
        taken.append(b)
        edge = min(edge, b[1]) if side == "above" else max(edge, b[3])
    box = union(taken)
    if box is None:
        return None
    box = list(box)  # a list: the table rule below may move its bottom edge
    if is_table:
        rules = [o for o in page_objects(page) if (o[3] - o[1]) < 2 and (o[2] - o[0]) > 0.8 * (box[2] - box[0])
                 and box[1] - 1 <= o[1] <= box[3] + 1]
        if rules:
            box[3] = max(r[3] for r in rules)
    return box
