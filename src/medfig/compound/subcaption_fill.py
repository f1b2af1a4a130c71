"""Every panel of a compound figure whose caption describes its panels gets a subcaption.

:func:`medfig.compound.align.label_alignment` gives a panel the subcaption of its letter.
Three cases leave panels empty, and each is closed here, from the caption's own evidence:

- more panels than caption letters (numbered sub-panels a1/a2/b1, a letter spanning a row
  of tiles): a panel without a letter takes the subcaption of the panel before it in
  reading order (a2 follows a1), or after it for the first panel (MedICaT's heuristic
  gives extra boxes the last subcaption; a neighbour is nearer in meaning);
- no panel markers at all, but the caption lists one item per panel ("typical habitats:
  wetlands, dry grassland, oak woods and farmland"): MedICaT's order heuristic, panels in
  reading order take the enumerated items in order (:func:`enumerated_parts`);
- a trailing inline letter ("types of data—images a, signals b") whose parsed text is the
  whole clause before it: cut back to the phrase the letter closes (:func:`trim_inline`);
  likewise the first of a list of trailing letters or positions ("deaths over time for South
  Africa (A), Malawi (B)") loses the head the whole list shares (MedICaT: text shared by all
  panels is no panel's), and the words running on after a list that names only some of the
  panels ("Paraxial (a) and parasagittal (b) maximum intensity projection ...") are each listed
  panel's (text shared by a subset belongs to each of them), as is a sentence ending in a colon
  right before a run of short items mid-caption (:func:`share_list_heads`).

Offsets are character offsets into the caption as given.
"""

from __future__ import annotations

import re

from medfig.compound.align import reading_order
from medfig.geometry import PixelBox
from medfig.text.ordinal_markers import numbers_as_letters
from medfig.text.caption_clauses import sentence_spans
from medfig.text.subcaptions import ParsedCaption, Subcaption, parse_subcaptions

# list separators: ", ", "; ", " and ", ", and ", " or "
_ITEM_SEP = re.compile(r"\s*(?:;|,\s*(?:and|or)\b|,|\band\b|\bor\b)\s*")
# a list starts after a colon or a dash that introduces it, else at the sentence start
_LIST_INTRO = re.compile(r"[:\u2014\u2013]\s*")
# where the short phrase an inline letter opens ends
_PHRASE_END = re.compile(r"[,;:(]|\s(?:and|or|with|using|for|whereas|while)\s", re.IGNORECASE)
# where the head shared by a list of trailing letters ends: "deaths over time for | South
# Africa (A), Malawi (B)", "Diagrams of an attractor in | asynchronous (a) and synchronous (b)"
# (an en dash between two words joins them: "Posterior–anterior (A) and oblique (B)")
_HEAD_CUT = re.compile(r"[,;:\u2014]|\s\u2013|\u2013\s|\s(?:for|in)\s", re.IGNORECASE)
_PREPOSITIONS = frozenset("of in on at for from with without to by via under after before during between".split())
# sentences whose lists name no panels: abbreviations ("Abbreviations: LEF, leukocyte erythroid
# factor; TCF, T-cell factor"), credits and links ("taken from http://..., freely available")
_NO_PANEL_LIST = re.compile(r"https?://|www\.|\bAbbreviations?\b|\b[A-Z]{2,}[\w-]*,\s+[a-z]")
_LIST_GLUE = re.compile(r"\s*(?:[,;&/]|and\b|or\b)", re.IGNORECASE)
_PHRASE_CUT = re.compile(r"(?:[,;:(\u2014]|\s\u2013|\u2013\s|\s(?:and|or|of|in|with|using|from|for|by|at|on|to"
                        r"|between|versus|vs\.?|after|before|during|under|via|through|into)\s)", re.IGNORECASE)
# a picture's verb ("MRI showing ...") and the words that name a picture
_SHOWS = r"\b(?:show\w*|demonstrat\w*|reveal\w*|depict\w*|display\w*|illustrat\w*|indicat\w*)\b"
_PICTURE = (r"(?:CT|MRI?|MR|PET|SPECT|US|X-?rays?|T[12]\S*|images?|views?|scans?|sections?|slices?|phases?|projections?"
            r"|radiographs?|reconstructions?|sequences?|magnifications?|micrographs?|photographs?|ultrasound|sonogra\w*"
            r"|angiogra\w*|endoscop\w*|stain(?:ing|s)?)\b")
_HEAD_PREDICATE = re.compile(_SHOWS + r"\s+")
_NAMES_A_PICTURE = re.compile(r"\b" + _PICTURE, re.IGNORECASE)


def _respan(caption: str, sub: Subcaption, spans: list[tuple[int, int]]) -> None:
    """Give ``sub`` these spans of the caption, and their words as its text."""
    sub.spans = spans
    sub.text = " ".join(caption[a:b] for a, b in spans)


def _strip(caption: str, a: int, b: int) -> tuple[int, int]:
    while a < b and not caption[a].isalnum():
        a += 1
    while b > a and not (caption[b - 1].isalnum() or caption[b - 1] in ")]%"):
        b -= 1
    return a, b


def enumerated_parts(caption: str, n: int, body_start: int = 0) -> list[tuple[int, int]] | None:
    """Spans of the ``n`` items of the first list in the caption that has exactly ``n``
    items ("wetlands, dry grassland, oak woods and farmland"), or None. A list is the
    part of a sentence after its introducing colon or dash (or the whole sentence),
    split at commas, semicolons and and/or; items must be short (at most 8 words), not bare numbers, and the list introduced
    (colon, dash) or closed by and/or, so
    that ordinary prose with commas is not taken for a list."""
    if n < 2:
        return None
    for a, b in sentence_spans(caption, body_start):
        if _NO_PANEL_LIST.search(caption, a, b):
            continue
        intro = _LIST_INTRO.search(caption, a, b)
        start = intro.end() if intro else a
        text = caption[start:b].rstrip(". ")
        cuts = [m.span() for m in _ITEM_SEP.finditer(text)]
        items: list[tuple[int, int]] = []
        pos = 0
        for s, e in cuts + [(len(text), len(text))]:
            items.append(_strip(caption, start + pos, start + s))
            pos = e
        items = [(x, y) for x, y in items if y > x]
        # two items need an introducing colon or dash ("known and discovered partitions" is
        # no list); three or more need commas and a closing and/or, or the intro
        commas = "," in text or ";" in text
        listed = intro is not None or (n >= 3 and commas and re.search(r"\b(?:and|or)\b", text) is not None)
        if (len(items) == n and listed and all(len(caption[x:y].split()) <= 8 for x, y in items)
                and not any(re.fullmatch(r"[\d.\s%]+\w{0,3}", caption[x:y]) for x, y in items)):
            return items
    return None


def trim_inline(caption: str, sub: Subcaption, marker_start: int, marker_end: int, leading: bool,
                cut: re.Pattern = _PHRASE_CUT) -> None:
    """An inline letter marks a short phrase: a trailing one closes it (keep the words after
    the last phrase boundary before it: "... types of data—images a" -> "images"), a
    leading one opens it (keep the words up to the next boundary: "b waste engine oil with
    or without ..." -> "waste engine oil")."""
    keep = []
    for a, b in sub.spans:
        if not leading and marker_start - 2 <= b <= marker_start and b > a:
            cuts = list(cut.finditer(caption, a, b))
            if cuts:
                a = _strip(caption, cuts[-1].end(), b)[0]
        elif leading and marker_end <= a <= marker_end + 2 and b > a:
            cut = _PHRASE_END.search(caption, a, b)
            if cut:
                b = _strip(caption, a, cut.start())[1]
        keep.append((a, b))
    _respan(caption, sub, keep)


def trim_list_head(caption: str, sub: Subcaption, markers: list, i: int) -> None:
    """The first item of a list of trailing markers starts where its parallel items do:
    at the word the second item starts with ("Effects of PrEP on | the overall number ...
    (A) and the overall HIV incidence (B)", "sheath | fully undeflected (left panel) and fully
    deflected (right panel)"), else after the head's last clause break ("deaths over time for |
    South Africa (A), Malawi (B)"), else after the last phrase break among as many words as
    the longest other item has, plus one, when the span starts its sentence and so still holds
    the head every item shares ("PrEP on | the prevalence (A) and incidence of HIV (B)",
    "binding to | YAC-1 (left panel), Meth-A (middle panel)")."""
    mk = markers[i]
    items = []
    for x, y in zip(markers[i:], markers[i + 1 :]):
        a, b = _strip(caption, x.end, y.start)
        items.append(re.sub(r"^(?:and|or)\s+", "", caption[a:b], flags=re.IGNORECASE))
    items = [t for t in items if t]
    if not items:
        return
    keep = []
    for a, b in sub.spans:
        if mk.start - 2 <= b <= mk.start and b > a:
            if _HEAD_PREDICATE.search(caption, a, b) and any(_NAMES_A_PICTURE.search(t) for t in items):
                keep.append((a, b))  # "Axial CT showing a lesion in the liver (a), coronal MRI (b)":
                continue  # a picture, its verb and its finding, then other pictures: nothing shared
            a = _list_head_start(caption, a, b, items)
        keep.append((a, b))
    _respan(caption, sub, keep)


def _list_head_start(caption: str, a: int, b: int, items: list[str]) -> int:
    first_word = items[0].split()[0].lower()
    # a preposition is no anchor ("stained with H&E (a) and with Masson trichrome (b)": the
    # verb before it is the item's); a content word or an article is
    parallel = [m for m in re.finditer(r"[^\s(\[]+", caption[a:b])
                if m[0].lower() == first_word and first_word not in _PREPOSITIONS]
    if parallel and parallel[-1].start() > 0:
        # an article before the parallel word is the item's own ("the right hand (a), right foot (b)")
        article = re.search(r"\b(?:the|a|an)\s+$", caption[a : a + parallel[-1].start()], re.IGNORECASE)
        return a + (article.start() if article else parallel[-1].start())
    cuts = list(_HEAD_CUT.finditer(caption, a, b))
    if cuts:
        return _strip(caption, cuts[-1].end(), b)[0]
    words = list(re.finditer(r"\S+", caption[a:b]))
    window = max(len(t.split()) for t in items) + 1
    # only a span that still holds its sentence's head ("Effects of PrEP on ...") has one to cut
    sentence_start = any(_strip(caption, x, y)[0] == a for x, y in sentence_spans(caption, 0))
    if len(words) <= window or not sentence_start:
        return a
    start = a + words[-window].start()
    cuts = list(_PHRASE_CUT.finditer(caption, start - 1, b))
    return _strip(caption, cuts[-1].end(), b)[0] if cuts else start


def _first_of_a_list(parsed: ParsedCaption, i: int) -> bool:
    """Is marker ``i`` the first of two or more trailing markers in one sentence ("South
    Africa (A), Malawi (B)")? Its text then starts after the head the list shares."""
    caption = parsed.caption
    for a, b in sentence_spans(caption, 0):
        if a <= parsed.markers[i].start < b:
            same = [m for m in parsed.markers if a <= m.start < b]
            if len(same) < 2 or same[0] is not parsed.markers[i] or any(m.leading for m in same):
                return False
            # a list of short parallel items ("Malawi (B), Zimbabwe (C), and Uganda (D)"), not
            # sentences that each end on their letter ("... in their learning ability (a), ...")
            between = [caption[x.end : y.start] for x, y in zip(same, same[1:])]
            # items are joined by list separators: "(left panel) while chest radiograph (right
            # panel)" is a second clause, not a list
            return all(len(re.findall(r"[^\W_]+", re.sub(r"\b(?:and|or)\b", " ", t))) <= 4
                       and _LIST_GLUE.match(t) for t in between)
    return False


def share_list_tails(parsed: ParsedCaption) -> None:
    """"Paraxial (a) and parasagittal (b) maximum intensity projection from cardiac CT, ...
    ((c), (d))": the words running on after a list of trailing markers (no punctuation after
    the last one) finish every item's noun phrase. When the list names some panels but not
    all, those words are the subset's (MedICaT: text shared by a subset belongs to each of
    them); they end where another panel's text or the sentence ends."""
    caption, markers = parsed.caption, parsed.markers
    every = set(parsed.labels)
    i = 0
    while i < len(markers):
        run = [markers[i]]
        while (i + len(run) < len(markers) and markers[i + len(run)].kind == run[0].kind
               and _LIST_GLUE.match(caption[run[-1].end : markers[i + len(run)].start])
               and len(re.findall(r"[^\W_]+", re.sub(r"\b(?:and|or)\b", " ",
                                                     caption[run[-1].end : markers[i + len(run)].start]))) <= 4):
            run.append(markers[i + len(run)])
        i += len(run)
        named = {l for m in run for l in m.labels}
        if len(run) < 2 or any(m.leading for m in run) or named >= every or run[0].kind != "bracketed":
            continue
        last = run[-1]
        if not re.match(r"\s+[^\W\d_]", caption[last.end : last.end + 3]):
            continue  # "(b)," or "(b)." closes the list
        end = next((a for a, _ in sentence_spans(caption, 0) if a > last.end), len(caption))
        others = [x for s in parsed.subcaptions if s.label not in named for x, _ in s.spans if x > last.end]
        tail = _strip(caption, last.end, min([end] + others))
        if tail[1] <= tail[0]:
            continue
        for label in named:
            sub = parsed.get(label)
            if sub is not None and not any(x < tail[1] and tail[0] < y for x, y in sub.spans):
                _respan(caption, sub, sorted(sub.spans + [tail]))


def share_list_heads(parsed: ParsedCaption) -> None:
    """"... control. The column graphs represent beta values from the three regions: b) inferior
    parietal cortex, c) right DLPFC, and d) left DLPFC": a sentence that ends in a colon right
    before a run of short items is those items' shared head (MedICaT: text shared by a subset of
    panels belongs to each), not the end of the panel before it. Only where that panel keeps text
    of its own; a colon right after a marker ("(A) Dose: (B) 1 mg, (C) 5 mg") is left alone."""
    caption, markers = parsed.caption, parsed.markers
    for i in range(1, len(markers)):
        colon = re.search(r":\s*$", caption[markers[i - 1].end : markers[i].start])
        if colon is None:
            continue
        run = [markers[i]]
        for nxt in markers[i + 1 :]:
            item = caption[run[-1].end : nxt.start]
            if len(re.findall(r"[^\W_]+", item)) > 6 or not re.search(r"(?:[,;]|\band|\bor)\s*$", item):
                break
            run.append(nxt)
        if len(run) < 2:
            continue
        at = markers[i - 1].end + colon.start()  # the colon
        start = next((a for a, b in sentence_spans(caption, 0) if a <= at < b), None)
        own = None if start is None else _strip(caption, markers[i - 1].end, start)
        if own is None or own[1] <= own[0]:
            continue  # the head is all the panel before has
        head = _strip(caption, start, at)
        for label in markers[i - 1].labels:
            sub = parsed.get(label)
            if sub is not None:
                _respan(caption, sub, [(a, min(b, _strip(caption, a, start)[1])) for a, b in sub.spans if a < start])
        for label in {l for m in run for l in m.labels}:
            sub = parsed.get(label)
            if sub is not None and not any(x < head[1] and head[0] < y for x, y in sub.spans):
                _respan(caption, sub, sorted(sub.spans + [head]))


# what a list of modifiers shares when it runs on: the pictures ("(a) axial and (b) coronal CT
# images") or what they show ("(B) arterial, (C) portal venous and (D) delayed phase CT scan
# showing slight enhancement")
_PICTURE_HEAD = re.compile(_PICTURE)
_DESCRIBES = re.compile(_SHOWS)
_ITEM_END = re.compile(r"(?:,|\band|\bor)\s*$")


def share_distributed_tail(parsed: ParsedCaption) -> None:
    """"(B) Arterial, (C) portal venous and (D) delayed phase CT scan showing slight enhancement":
    leading letters whose items are a few words ending in a list join, before a last item that
    runs on, modify what that item goes on to say; its words after as many as the longest other
    item has are each item's too (MedICaT: text shared by a subset belongs to each of them).
    Only where those words name the pictures or say what they show."""
    caption, markers = parsed.caption, parsed.markers
    i = 0
    while i < len(markers) - 1:
        run = [markers[i]]
        for nxt in markers[i + len(run):]:
            item = caption[run[-1].end : nxt.start]
            words = re.findall(r"[^\W_]+", re.sub(r"\b(?:and|or)\b", " ", item))
            if not (run[-1].leading and nxt.leading and 1 <= len(words) <= 3 and _ITEM_END.search(item)
                    and not re.search(r"[.;:]", item)):
                break
            run.append(nxt)
        i += len(run)
        if len(run) < 2:
            continue
        last = parsed.get(run[-1].labels[0]) if len(run[-1].labels) == 1 else None
        if last is None or not last.spans or last.spans[0][0] > run[-1].end + 2:
            continue
        a, b = last.spans[0]
        sentence_end = next((y for x, y in sentence_spans(caption, 0) if x <= a < y), b)
        b = min(b, sentence_end)
        k = max(len(re.findall(r"[^\W_]+", re.sub(r"\b(?:and|or)\b", " ", caption[x.end : y.start])))
                for x, y in zip(run, run[1:]))
        words = list(re.finditer(r"[^\s,;]+", caption[a:b]))
        if len(words) < k + 2:
            continue
        tail = _strip(caption, a + words[k].start(), b)
        text = caption[tail[0] : tail[1]]
        # the predicate follows the shared noun ("CT scan showing"), not deep in a clause of its own
        if tail[1] <= tail[0] or not (_PICTURE_HEAD.match(text) or _DESCRIBES.search(" ".join(text.split()[:4]))):
            continue
        for mk in run[:-1]:
            for label in mk.labels:
                sub = parsed.get(label)
                if sub is not None and not any(x < tail[1] and tail[0] < y for x, y in sub.spans):
                    _respan(caption, sub, sorted(sub.spans + [tail]))


def cut_predicate_head(parsed: ParsedCaption) -> None:
    """"T2-weighted MRI showing a retroclival hematoma (A), stripping of the tectorial membrane (B),
    and prevertebral hemorrhage (C)": the picture and its verb head the whole list of trailing
    letters; the first item starts after the verb, as the others do (MedICaT: text shared by all
    panels is no panel's). Not where another item has a verb of its own ("Electrocardiogram
    showing sinus rhythm (left panel) while chest radiograph (right panel) revealing ...") or
    names a picture of its own ("Axial CT showing a mass (a), coronal MRI (b)")."""
    caption, markers = parsed.caption, parsed.markers
    for a, b in sentence_spans(caption, 0):
        same = [m for m in markers if a <= m.start < b]
        if len(same) < 2 or any(m.leading for m in same) or _HEAD_PREDICATE.search(caption, same[0].end, b):
            continue
        if _NAMES_A_PICTURE.search(caption, same[0].end, same[-1].start):
            continue  # "Axial CT showing a mass (a), coronal MRI (b)": each item names its own picture
        for label in same[0].labels:
            sub = parsed.get(label)
            if sub is None or not sub.spans:
                continue
            x, y = sub.spans[0]
            if _strip(caption, a, y)[0] != x or y > same[0].start:
                continue  # the span does not start its sentence: no head left on it
            verb = _HEAD_PREDICATE.search(caption, x, y)
            if verb is None or len(caption[x : verb.start()].split()) > 5:
                continue  # a long subject is a clause of its own, not a picture's name
            rest = _strip(caption, verb.end(), y)
            if rest[1] > rest[0]:
                _respan(caption, sub, [rest] + sub.spans[1:])


def fill_labels(boxes: list[PixelBox], labels: list[str | None], parsed: ParsedCaption) -> list[str | None]:
    """Panels without a caption label take their reading-order neighbour's (a2 after a1)."""
    if not parsed.subcaptions or all(l is None for l in labels):
        return labels
    order = reading_order(boxes)
    out = list(labels)
    for rank, i in enumerate(order):
        if out[i] is not None:
            continue
        before = [out[j] for j in order[:rank] if out[j] is not None]
        after = [labels[j] for j in order[rank + 1 :] if labels[j] is not None]
        out[i] = before[-1] if before else (after[0] if after else None)
    return out


def refine_subcaptions(parsed: ParsedCaption) -> None:
    """The caption-only refinements of the parsed subcaptions, in place: an inline letter's
    phrase, a list's shared head cut from its first item, words running on after a list given to
    each of its items, a picture-and-verb head cut from a list of trailing letters.
    ``analyze_compound`` applies them to every caption it splits."""
    caption = parsed.caption
    for i, mk in enumerate(parsed.markers):
        if mk.kind == "inline":
            for label in mk.labels:
                sub = parsed.get(label)
                if sub is not None:
                    trim_inline(caption, sub, mk.start, mk.end, mk.leading)
        elif mk.kind in ("bracketed", "position") and not mk.leading and _first_of_a_list(parsed, i):
            for label in mk.labels:
                sub = parsed.get(label)
                if sub is not None:
                    trim_list_head(caption, sub, parsed.markers, i)
    share_list_tails(parsed)
    share_list_heads(parsed)
    share_distributed_tail(parsed)
    cut_predicate_head(parsed)


def numbered_subcaptions(caption: str) -> list[Subcaption]:
    """Subcaptions of a caption that numbers its panels ("(i) ..., (ii) ...", "CT (1), MRI (2)"),
    labelled with the numbers as written, in order; [] when it does not
    (:mod:`medfig.text.ordinal_markers`)."""
    found = numbers_as_letters(caption)
    if found is None:
        return []
    rewritten, names = found
    parsed = parse_subcaptions(rewritten)
    if len(parsed.subcaptions) < 2 or any(s.label not in names for s in parsed.subcaptions):
        return []
    refine_subcaptions(parsed)
    return [Subcaption(label=names[s.label], spans=s.spans, text=" ".join(caption[a:b] for a, b in s.spans))
            for s in parsed.subcaptions if s.spans]


def subcaptions_for(
    boxes: list[PixelBox], labels: list[str | None], parsed: ParsedCaption
) -> tuple[list[str | None], list[Subcaption | None]]:
    """(label, subcaption) of every panel, no panel left empty when the caption describes
    its panels (see module doc). A panel that takes its neighbour's subcaption keeps its
    own label (None): no letter was read for it or named by the caption."""
    caption = parsed.caption
    if parsed.subcaptions:
        refine_subcaptions(parsed)
        # a panel given its neighbour's text keeps no letter of its own (none was read or named)
        filled = fill_labels(boxes, labels, parsed)
        return labels, [parsed.get(l) if l else None for l in filled]
    numbered = numbered_subcaptions(caption)
    if len(numbered) == len(boxes):
        # panels numbered, not lettered (as many numbers as panels: numbers that count more or
        # fewer things name structures inside the images, "(1) sciatic nerve. (2) piriformis"):
        # a panel whose letter the image prints takes its number (b: 2), the others the numbers
        # left, in reading order, as MedICaT's heuristic; the numbers never moved a cut
        def printed(label: str | None) -> int:
            k = ord(label) - ord("a") if label and len(label) == 1 and label.isalpha() else -1
            return k if 0 <= k < len(numbered) else -1

        taken = {printed(l) for l in labels}
        left = [k for k in range(len(numbered)) if k not in taken]
        labels, subs = list(labels), [None] * len(boxes)
        for i in reading_order(boxes):
            k = printed(labels[i])
            k = k if k >= 0 else (left.pop(0) if left else len(numbered) - 1)  # a letter printed twice
            subs[i], labels[i] = numbered[k], numbered[k].label
        return labels, subs
    parts = enumerated_parts(caption, len(boxes), _body_start(caption))
    if parts is None:
        return labels, [None] * len(boxes)
    subs: list[Subcaption | None] = [None] * len(boxes)
    for rank, i in enumerate(reading_order(boxes)):
        a, b = parts[rank]
        subs[i] = Subcaption(label=labels[i] or "", spans=[(a, b)], text=caption[a:b])
    return labels, subs


_PREFIX = re.compile(r"^\s*(?:Supplementary\s+)?(?:Figure|Fig\.?|FIGURE)\s*S?\d+[A-Za-z]?\s*[.:|]?\s*")


def _body_start(caption: str) -> int:
    m = _PREFIX.match(caption)
    return m.end() if m else 0
