r"""Split a figure caption into per-panel subcaptions, MedICaT style.

MedICaT defines a subcaption as the caption tokens that describe one panel but not
all of them; text shared by every panel (the title, "Scale bars, 50 µm") belongs to
no subcaption. A subcaption may be several spans ("Brain CT (A) ... (A, arrow)").

Panel markers recognised (``L`` is one letter, ranges and lists expanded):

- bracketed: ``(a)``, ``(A)``, ``(a, b)``, ``(A–C)``, ``(a and b)``, ``[b]``, ``a)`` at a clause start;
- bold-style leading letters at a clause start: ``A, ...``, ``A: ...``, ``A. ...``,
  ``a–c Scanning ...`` (Nature) -- only when the caption uses a run of them in order
  (``a``, ``b``, ...), so the article "A patient ..." is never a marker;
- position words in brackets or leading a clause: ``(left)``, ``Right:``, ``(top)``,
  ``upper left``, ``middle`` -> labels such as ``"left"``, ``"upper-left"``; rows and columns:
  ``Top row:``, ``(first column)`` -> ``"row-top"``, ``"column-1"`` (every panel in it).

Not handled: insets ("inset: ...") stay with the text around them.

Each marker is *leading* (its text follows: ``(a) Barium enema``) or *trailing* (its
text precedes: ``Brain CT (A) and MR images (B, C)``). A marker is leading when nothing
but punctuation separates it from the start of its clause; otherwise trailing. A
trailing marker that is alone in its sentence takes the whole sentence (Hindawi:
"... administration (b), there is an inhomogeneous enhancement.").

Offsets are character offsets into the caption as given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DASH = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_L = r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])"  # a one-letter word
_LIST_SEP = rf"\s*(?:[,;&/]|and|or|[{_DASH}]|to)\s*"
# "(a)", "(a, b)", "(A–C)", "(a and c)", "[b]"
_BRACKETED = re.compile(rf"[\(\[]\s*({_L}(?:{_LIST_SEP}{_L})*)\s*[\)\]]")
# "a)" at a clause start (not "(a)")
_HALF_BRACKET = re.compile(rf"(?<![\(\w])({_L})\)")
# "a, b Schematic", "c–e SEM", "A: ...", "B. ..." at a clause start
_LEADING_LETTERS = re.compile(rf"({_L}(?:{_LIST_SEP}{_L})*)(?:\s*[:.,]\s+|\s+)(?=[A-Z(\d\w])")
_POSITION_WORDS = r"(?:upper|lower|top|bottom|middle|center|centre|left|right|first|second|third|fourth)"
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_POSITION = re.compile(
    rf"[\(\[]\s*((?:{_POSITION_WORDS})(?:[\s-]+(?:{_POSITION_WORDS}))?(?:\s+(?:panel|image|row|column))?)\s*[\)\]]"
    rf"|(?:(?<=^)|(?<=[.;:]\s))((?:{_POSITION_WORDS})(?:[\s-]+(?:{_POSITION_WORDS}))?(?:\s+(?:panel|image|row|column)s?)?)\s*[:,]",
    re.IGNORECASE,
)
_LABEL_PREFIX = re.compile(r"^\s*(?:Supplementary\s+)?(?:Figure|Fig\.?|FIGURE|Fig)\s*S?\d+[A-Za-z]?\s*[.:|]?\s*")
_SENTENCE_END = re.compile(
    r"(?<!\b[Ff]ig)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bDr)(?<!\bet al)(?<!\b[A-Za-z])(?<!\bca)(?<!\bapprox)"
    r"[.!?](?=\s+[A-Za-z(\[]|\s*$)"
)
_CLAUSE_PUNCT = ";:"
# "... in a. " or a dotted abbreviation ("... as s.e.m. ", "s.d. ") right before a marker
_LETTER_SENTENCE_END = re.compile(r"(?:\s|[a-z]\.)[a-z]\.\s+$")
_SCALE = re.compile(r"\b(?:scale\s+bars?|bars?\s*[,=:]|original\s+magnification)", re.IGNORECASE)


@dataclass(slots=True)
class Marker:
    """A panel marker found in a caption. ``start``/``end``: character offsets."""

    labels: list[str]  # letters lower-cased, or position words ("left", "top-right")
    start: int
    end: int
    kind: str  # bracketed | half | leading | position
    leading: bool = True


@dataclass(slots=True)
class Subcaption:
    """One panel's subcaption: ``spans`` are [start, end) character offsets into the caption."""

    label: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    text: str = ""


@dataclass(slots=True)
class ParsedCaption:
    caption: str
    subcaptions: list[Subcaption] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.subcaptions]

    @property
    def letter_case(self) -> str | None:
        """"upper" or "lower": how the caption writes its panel letters (None if mixed/none)."""
        cases = set()
        for m in self.markers:
            if m.kind == "position":
                continue
            letters = [c for c in self.caption[m.start : m.end] if c.isalpha()][:1]
            cases.update("upper" if c.isupper() else "lower" for c in letters)
        return cases.pop() if len(cases) == 1 else None

    def get(self, label: str) -> Subcaption | None:
        for s in self.subcaptions:
            if s.label == label.lower():
                return s
        return None


def _expand(text: str) -> list[str]:
    """``"a, b"`` -> [a, b]; ``"A–C"`` -> [a, b, c]; ``"b and c"`` -> [b, c]; lower-case, no repeats."""
    parts = re.split(rf"\s*((?:[{_DASH}]|\bto\b))\s*|\s*(?:[,;&/]|\band\b|\bor\b)\s*", text.strip())
    out: list[str] = []
    range_next = False
    for part in parts:
        if part is None or part == "":
            continue
        if re.fullmatch(rf"[{_DASH}]|to", part):
            range_next = True
            continue
        if not re.fullmatch(_L, part):
            continue
        low = part.lower()
        if range_next and out and out[-1] < low and ord(low) - ord(out[-1]) <= 12:
            out.extend(chr(c) for c in range(ord(out[-1]) + 1, ord(low) + 1))
        elif low not in out:
            out.append(low)
        range_next = False
    return out


def _sentences(caption: str, start: int) -> list[tuple[int, int]]:
    spans = []
    pos = start
    for m in _SENTENCE_END.finditer(caption, start):
        spans.append((pos, m.end()))
        pos = m.end()
    if pos < len(caption):
        spans.append((pos, len(caption)))
    return [(a, b) for a, b in spans if caption[a:b].strip()]


def _clause_start(caption: str, pos: int, floor: int) -> int:
    """Start of the clause containing ``pos``: after the last ; : or sentence end before it."""
    best = floor
    for i in range(pos - 1, floor - 1, -1):
        ch = caption[i]
        if ch in _CLAUSE_PUNCT or (ch in ".!?" and _SENTENCE_END.match(caption, i)):
            best = i + 1
            break
    return best


def _only_punct(text: str) -> bool:
    return not re.search(r"[A-Za-z0-9]", text)


def find_markers(caption: str, body_start: int = 0) -> list[Marker]:
    markers: list[Marker] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _BRACKETED.finditer(caption, body_start):
        inner = m[1]
        labels = _expand(inner)
        # "(T)" in "(T) cells"? keep only letters; a lone capital inside a word-y context is still fine
        if not labels:
            continue
        markers.append(Marker(labels, m.start(), m.end(), "bracketed"))
        taken.append((m.start(), m.end()))
    for m in _POSITION.finditer(caption, body_start):
        text = (m[1] or m[2] or "").lower()
        parts = re.split(r"[\s-]+", text)
        words = [w for w in parts if w not in ("panel", "panels", "image", "images", "row", "rows", "column", "columns")]
        if not words or not free(m.start(), m.end()):
            continue
        kind = next((w.rstrip("s") for w in parts if w.rstrip("s") in ("row", "column")), None)
        words = [_ORDINALS.get(w, w) for w in words]
        label = f"{kind}-{'-'.join(words)}" if kind else "-".join(words)
        markers.append(Marker([label], m.start(), m.end(), "position"))
        taken.append((m.start(), m.end()))
    for m in _HALF_BRACKET.finditer(caption, body_start):
        if free(m.start(), m.end()) and _only_punct(caption[_clause_start(caption, m.start(), body_start) : m.start()]):
            markers.append(Marker(_expand(m[1]), m.start(), m.end(), "half"))
            taken.append((m.start(), m.end()))
    # Leading bare letters: only a run in alphabetical order counts.
    leading: list[Marker] = []
    for m in _LEADING_LETTERS.finditer(caption, body_start):
        if not free(m.start(), m.end()):
            continue
        if m.start() > body_start and not _only_punct(caption[_clause_start(caption, m.start(), body_start) : m.start()]):
            # "... obtained at 0.30 V in a. d Chronoamperometric ...": a sentence that ends on a
            # panel letter is not taken for an initial; the run order below still guards it
            if not _LETTER_SENTENCE_END.search(caption, body_start, m.start()):
                continue
        if m.start() > 0 and caption[m.start() - 1].isalnum():
            continue
        leading.append(Marker(_expand(m[1]), m.start(), m.end(), "leading"))
    seen: list[str] = []
    for mk in leading:
        first = mk.labels[0]
        expected = chr(ord(seen[-1]) + 1) if seen else "a"
        if first == expected:
            markers.append(mk)
            seen.extend(mk.labels)
    if len(seen) < 2:
        markers = [m for m in markers if m.kind != "leading"]
    bare = [m for m in markers if m.kind == "leading"]
    bracketed = [m for m in markers if m.kind in ("bracketed", "half")]
    if bare and bracketed:
        bare_upper = sum(caption[m.start].isupper() for m in bare) > len(bare) / 2
        br_upper = sum(caption[m.start + 1].isupper() for m in bracketed) > len(bracketed) / 2
        if bare_upper == br_upper:
            # Nature style "a, b Schematic of the process (a) ...": brackets are in-text references
            markers = [m for m in markers if m.kind not in ("bracketed", "half")]
        else:
            # "(a) The retina ... A: optic nerve disc": capitals name structures inside panel a
            markers = [m for m in markers if m.kind != "leading"]
    # markers inside scale-bar statements ("Scale bars, 5 µm (c), 500 nm (d)") are not panel text
    for a, b in _sentences(caption, body_start):
        if _SCALE.search(caption, a, b) and re.match(r"\s*(?:scale|bars?|original)", caption[a:b], re.IGNORECASE):
            markers = [m for m in markers if not a <= m.start < b]
    markers.sort(key=lambda m: m.start)
    return _plausible(_group(caption, markers))


_GROUP_GLUE = re.compile(rf"[{_DASH}\s,;&()\[\]]*(?:(?:and|or|to)[\s()\[\]]*)?[{_DASH}\s()\[\]]*")


def _group(caption: str, markers: list[Marker]) -> list[Marker]:
    """``(a) and (b) Note ...``, ``(a)–(c) Reconstruction``, ``((a), (b))``: one marker."""
    out: list[Marker] = []
    for m in markers:
        prev = out[-1] if out else None
        if prev is not None and prev.kind != "position" and m.kind != "position":
            between = caption[prev.end : m.start]
            glue = _GROUP_GLUE.fullmatch(between)
            if glue is not None:
                labels = list(prev.labels)
                if re.search(rf"[{_DASH}]|\bto\b", between) and labels and m.labels and labels[-1] < m.labels[0]:
                    labels += [chr(c) for c in range(ord(labels[-1]) + 1, ord(m.labels[0]))]
                labels += [l for l in m.labels if l not in labels]
                # a closing bracket right after the group belongs to it: "((a), (b))"
                end = m.end
                if caption[end : end + 1] == ")" and caption[prev.start - 1 : prev.start] == "(":
                    end += 1
                    start = prev.start - 1
                else:
                    start = prev.start
                out[-1] = Marker(labels, start, end, prev.kind)
                continue
        out.append(m)
    return out


def _plausible(markers: list[Marker]) -> list[Marker]:
    """Drop letter markers that cannot be panels: panels run a, b, c... with few gaps."""
    letters = sorted({l for m in markers if m.kind != "position" for l in m.labels})
    if not letters:
        return markers
    allowed: set[str] = set()
    expected = "a"
    for l in letters:
        if ord(l) - ord(expected) <= 1:  # tolerate one missing letter
            allowed.add(l)
            expected = chr(ord(l) + 1)
    out = []
    for m in markers:
        if m.kind == "position":
            out.append(m)
            continue
        kept = [l for l in m.labels if l in allowed]
        if kept:
            m.labels = kept
            out.append(m)
    return out


def _strip_span(caption: str, a: int, b: int) -> tuple[int, int]:
    """Trim whitespace, list glue ("and", ",") and dangling punctuation off a span."""
    glue = re.compile(r"(?:\s|[,;:.]|and\b|or\b|with\b|&)+", re.IGNORECASE)
    tail = re.compile(r"(?:\s|[,;:]|\band|\bor|&|\()+$", re.IGNORECASE)
    while a < b:
        m = glue.match(caption, a, b)
        if not m or m.end() == a:
            break
        a = m.end()
    t = tail.search(caption[a:b])
    if t:
        b = a + t.start()
    return a, b


def parse_subcaptions(caption: str) -> ParsedCaption:
    """Subcaptions of a caption, in order of first appearance (see module doc)."""
    caption = caption or ""
    prefix = _LABEL_PREFIX.match(caption)
    body_start = prefix.end() if prefix else 0
    markers = find_markers(caption, body_start)
    parsed = ParsedCaption(caption=caption, markers=markers)
    if not markers:
        return parsed
    sentences = _sentences(caption, body_start)

    def sentence_of(pos: int) -> tuple[int, int]:
        for a, b in sentences:
            if a <= pos < b:
                return a, b
        return body_start, len(caption)

    # Leading or trailing is decided once per sentence, by its first marker.
    style: dict[tuple[int, int], bool] = {}
    for i, mk in enumerate(markers):
        sent = sentence_of(mk.start)
        if sent not in style:
            prev_end = markers[i - 1].end if i > 0 else body_start
            clause = _clause_start(caption, mk.start, max(sent[0], prev_end))
            style[sent] = _is_leading(caption, caption[max(clause, prev_end) : mk.start], mk)
    spans: dict[str, list[tuple[int, int]]] = {}
    order: list[str] = []
    for i, mk in enumerate(markers):
        s_start, s_end = sentence_of(mk.start)
        prev_end = markers[i - 1].end if i > 0 else body_start
        next_start = markers[i + 1].start if i + 1 < len(markers) else len(caption)
        clause = _clause_start(caption, mk.start, max(s_start, prev_end))
        mk.leading = style[(s_start, s_end)] or mk.kind in ("leading", "half")
        in_sentence = [m for m in markers if s_start <= m.start < s_end]
        if mk.leading:
            a = mk.end
            b = next_start
            if i + 1 == len(markers):
                # the last panel's text ends with its sentence: what follows is shared
                b = min(b, s_end)
            pieces = [(a, b)]
        else:
            a = max(clause, prev_end)
            pieces = [(a, mk.start)]
            if len(in_sentence) == 1:
                pieces = [(s_start, mk.start), (mk.end, s_end)]
            elif caption[mk.end : mk.end + 2].lstrip().startswith(":"):
                pieces.append((mk.end, min(next_start, s_end)))
        pieces = [_strip_span(caption, x, y) for x, y in pieces]
        pieces = [(x, y) for x, y in pieces if y > x and not _only_punct(caption[x:y])]
        pieces = [_drop_scale(caption, x, y) for x, y in pieces]
        pieces = [q for x, y in pieces for q in _drop_statistics(caption, x, y)]
        pieces = [(x, y) for x, y in pieces if y > x]
        per_label = {label: pieces for label in mk.labels}
        if mk.kind == "leading" and len(mk.labels) > 1 and len(pieces) == 1:
            per_label = _split_by_inner_references(caption, pieces[0], mk.labels)
        for label in mk.labels:
            if label not in spans:
                spans[label] = []
                order.append(label)
            for p in per_label[label]:
                if p not in spans[label]:
                    spans[label].append(p)
    for label in order:
        merged = sorted(spans[label])
        text = " ".join(caption[a:b] for a, b in merged)
        parsed.subcaptions.append(Subcaption(label=label, spans=merged, text=text))
    return parsed


def _split_by_inner_references(caption: str, span: tuple[int, int], labels: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Nature style "c, d Simulated image (c), ..., and ABF image (d) showing ...": the
    bracketed letters inside a multi-panel text mark the end of each panel's own words.
    Text before the first inner reference is shared (the head noun of all panels) when the
    first reference comes right after it; text after the last one is shared by all."""
    a, b = span
    inner = [
        (m, [l for l in _expand(m[1]) if l in labels])
        for m in _BRACKETED.finditer(caption, a, b)
    ]
    inner = [(m, ls) for m, ls in inner if ls]
    if len({l for _, ls in inner for l in ls}) < 2:
        return {label: [span] for label in labels}
    out: dict[str, list[tuple[int, int]]] = {label: [] for label in labels}
    start = a
    previous: list[str] = []
    for m, ls in inner:
        cut = start
        if previous:
            # "(c), indicating X, and ABF image (d)": words up to the last "and" still
            # describe the previous panel
            joins = list(re.finditer(r",?\s+and\s+", caption[start : m.start()]))
            if joins:
                cut = start + joins[-1].start()
                before = _strip_span(caption, start, cut)
                if before[1] > before[0]:
                    for l in previous:
                        out[l].append(before)
                cut = start + joins[-1].end()
        piece = _strip_span(caption, cut, m.start())
        for l in ls:
            if piece[1] > piece[0]:
                out[l].append(piece)
        start = m.end()
        previous = ls
    tail = _strip_span(caption, start, b)
    for label in labels:
        if tail[1] > tail[0] and not _only_punct(caption[tail[0] : tail[1]]):
            out[label].append(tail)
        if not out[label]:
            out[label] = [span]
    return out


_FUNCTION_WORDS = frozenset(
    "by of in on at for from with without to and or the a an after before during under using via "
    "showing shows show shown demonstrating demonstrates reveals revealing revealed including "
    "is are was were see as between".split()
)


def _is_leading(caption: str, before: str, mk: Marker) -> bool:
    """Does the text of this marker follow it? Yes when only punctuation precedes it in its
    clause, or the preceding word cannot end a description ("as evidenced by (A) colonoscopy")."""
    if _only_punct(before) or mk.kind in ("leading", "half"):
        return True
    after = caption[mk.end : mk.end + 3].lstrip()
    if after[:1] in (",", ".", ";", ":", ")") or not after:
        return False
    words = re.findall(r"[A-Za-z]+", before)
    return bool(words) and words[-1].lower() in _FUNCTION_WORDS


# Sentences of statistics boilerplate ("N = 3 per group.", "Statistic: unpaired t-test.",
# "Bars represent mean and error shown as s.e.m.", "Data are means ± SD.", "*P < 0.05.")
# describe the test, not the panel: MedICaT-style subcaptions leave them out.
_STATISTICS = re.compile(
    r"(?:[nN]\s*=\s*\d|Statistics?\b|Statistical\s+(?:analysis|significance|test)|(?:Error\s+)?[Bb]ars\s+(?:represent|show|indicate|are)"
    r"|Circles\s+represent|Data\s+(?:are|were|is|represented|shown|presented|expressed)\b|Values\s+(?:are|were)\s+(?:mean|expressed|shown|presented)"
    r"|(?:Results\s+are\s+)?(?:[Rr]epresented|[Ee]xpressed|[Ss]hown)\s+as\s+(?:the\s+)?mean|Mean\s*±|[*∗]+\s*[pP]\s*[<=≤]|[pP]\s*[<≤]\s*0?\.\d)"
)


def _drop_statistics(caption: str, a: int, b: int) -> list[tuple[int, int]]:
    """A span without its statistics sentences (kept whole when every sentence is one)."""
    cuts = [a] + [m.end() for m in re.finditer(r"[.;]\s+(?=[A-Z*∗(\[])", caption[a:b])] + [b - a]
    cuts = [a] + [a + c for c in cuts[1:-1]] + [b]
    sents = list(zip(cuts, cuts[1:]))
    keep = [(x, y) for x, y in sents if not _STATISTICS.match(caption, x + len(caption[x:y]) - len(caption[x:y].lstrip()))]
    if not keep or len(keep) == len(sents):
        return [(a, b)]
    out: list[tuple[int, int]] = []
    for x, y in keep:
        x, y = _strip_span(caption, x, y)
        if out and out[-1][1] >= x - 1:
            out[-1] = (out[-1][0], y)
        elif y > x:
            out.append((x, y))
    return out


def _drop_scale(caption: str, a: int, b: int) -> tuple[int, int]:
    """Scale information is not a subcaption (MedICaT): cut a span at "Scale bar"."""
    m = _SCALE.search(caption, a, b)
    if m:
        return _strip_span(caption, a, m.start())
    return a, b
