r"""Split a figure caption into per-panel subcaptions, MedICaT style.

MedICaT defines a subcaption as the caption tokens that describe one panel but not
all of them; text shared by every panel (the title, "Scale bars, 50 µm") belongs to
no subcaption. A subcaption may be several spans ("Brain CT (A) ... (A, arrow)").

Panel markers recognised (``L`` is one letter, ranges and lists expanded):

- bracketed: ``(a)``, ``(A)``, ``(a, b)``, ``(A–C)``, ``(a and b)``, ``[b]``, ``a)`` at a clause start
  (or continuing such a run: ``a) ..., whereas b) ...``);
- numbered sub-panels name their letter: ``(Ai)``, ``(A-i)``, ``Panel (Aii)``, ``(a1–a3)``,
  ``(b1,b2)`` -> ``a`` / ``b`` (never a range A..I); letters in the other case that never start
  at ``a`` abbreviate words ("Forehead (F)") and are no panels;
- bold-style leading letters at a clause start: ``A, ...``, ``A: ...``, ``A. ...``,
  ``a–c Scanning ...`` (Nature) -- only when the caption uses a run of them in order
  (``a``, ``b``, ...; a group may skip, "A and D: ... B, C: ...", and a group's letters may
  come back one by one, "e, f A woman ... e Bilateral GGOs. f 4 days later"), so the article
  "A patient ..." is never a marker;
- position words in brackets or leading a clause: ``(left)``, ``Right:``, ``(top)``,
  ``upper left``, ``middle`` -> labels such as ``"left"``, ``"upper-left"``; rows and columns:
  ``Top row:``, ``(first column)`` -> ``"row-top"``, ``"column-1"`` (every panel in it).

Not handled: insets ("inset: ...") stay with the text around them.

Each marker is *leading* (its text follows: ``(a) Barium enema``) or *trailing* (its
text precedes: ``Brain CT (A) and MR images (B, C)``). A marker is leading when nothing
but punctuation separates it from the start of its clause, or a function word comes right
before it ("as evidenced by (A) colonoscopy", "either (A) ... or (D) ..."); otherwise trailing. A
trailing marker that is alone in its sentence takes the whole sentence (Hindawi:
"... administration (b), there is an inhomogeneous enhancement.").

Markers are found by :mod:`medfig.text.panel_markers`; this module turns them into spans.
Where a marker sits inside its clause (trailing or mid-description letters), a learned
tagger (:mod:`medfig.text.subcaption_tagger`) attaches the words to the markers instead of
the rules; a panel it leaves without words keeps the rules' text (``mode`` chooses).
Offsets are character offsets into the caption as given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from medfig.text.caption_clauses import (SCALE, STATISTICS, clause_start, last_panel_end, only_punct, sentence_spans,
                                         sentences_naming_one_panel)
from medfig.text.panel_markers import BRACKETED, Marker, expand_labels, find_markers, marker_letter
from medfig.text.subcaption_tagger import SubcaptionTagger, default_tagger

# how the subcaption spans are chosen: the rules alone, the tagger alone, or the tagger
# where the rules are weak (a marker inside its clause: "the first (a, blue)", "(a) side,
# (b) top") and the rules where every marker leads its clause
MODES = ("rules", "tagger", "hybrid")

_LABEL_PREFIX = re.compile(r"^\s*(?:Supplementary\s+)?(?:Figure|Fig\.?|FIGURE|Fig)\s*S?\d+[A-Za-z]?\s*[.:|]?\s*")


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
    # True when the learned tagger, not the rules, attached the words to the markers
    tagged: bool = False

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
            letter = marker_letter(self.caption, m)
            if letter:
                cases.add("upper" if letter.isupper() else "lower")
        return cases.pop() if len(cases) == 1 else None

    def get(self, label: str) -> Subcaption | None:
        for s in self.subcaptions:
            if s.label == label.lower():
                return s
        return None
def _strip_span(caption: str, a: int, b: int) -> tuple[int, int]:
    """Trim whitespace, list glue ("and", ",") and dangling punctuation off a span."""
    # glue before a panel's words: list separators, and the conjunction opening a contrast
    # ("(left panel) while chest radiograph (right panel)")
    glue = re.compile(r"(?:\s|[,;:.]|and\b|or\b|with\b|(?-i:while|whereas)\b|&)+", re.IGNORECASE)
    # an article cannot end a description: "..., and the panel (Aiii)" leaves "the" behind
    tail = re.compile(r"(?:\s|[,;:]|\band|\bor|\bthe|\bwhereas|\bwhile|&|\()+$", re.IGNORECASE)
    while a < b:
        m = glue.match(caption, a, b)
        if not m or m.end() == a:
            break
        a = m.end()
    t = tail.search(caption[a:b])
    if t:
        b = a + t.start()
    return a, b


def caption_body_start(caption: str) -> int:
    """Offset where the caption's text starts, after its "Figure 3." label if any."""
    prefix = _LABEL_PREFIX.match(caption)
    return prefix.end() if prefix else 0


def parse_subcaptions(caption: str, mode: str = "hybrid", tagger: SubcaptionTagger | None = None) -> ParsedCaption:
    """Subcaptions of a caption, in order of first appearance (see module doc).

    ``mode`` (one of :data:`MODES`) and ``tagger`` (default: the shipped model) choose who
    attaches words to markers; the markers themselves always come from the rules."""
    caption = caption or ""
    body_start = caption_body_start(caption)
    markers = find_markers(caption, body_start)
    sentences = sentence_spans(caption, body_start)
    markers, groups = _fold_inner_references(caption, markers, sentences)
    parsed = ParsedCaption(caption=caption, markers=markers)
    if not markers:
        return parsed

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
            clause = clause_start(caption, mk.start, max(sent[0], prev_end))
            nxt = next((m for m in markers[i + 1 :] if m.start < sent[1]), None)
            last = [m for m in markers if sent[0] <= m.start < sent[1]][-1]
            # a marker alone in its sentence runs to the sentence end ("Screening strategy
            # and validation (A) Schematic illustration of ...": a title without a full stop)
            style[sent] = _is_leading(caption, caption[max(clause, prev_end) : mk.start], mk,
                                      caption[mk.end : nxt.start if nxt is not None else sent[1]],
                                      re.search(r"[A-Za-z]{2,}", caption[last.end : sent[1]]) is not None)
    spans: dict[str, list[tuple[int, int]]] = {}
    # "Patient 2 (c, d): ground-glass opacities": what the colon after a trailing marker opens
    # is its text too (kept when the tagger chooses the words)
    after_colon: dict[str, tuple[int, int]] = {}
    order: list[str] = []
    referenced: set[str] = set()  # panels whose words the group's inner references mark
    for i, mk in enumerate(markers):
        s_start, s_end = sentence_of(mk.start)
        prev_end = markers[i - 1].end if i > 0 else body_start
        next_start = markers[i + 1].start if i + 1 < len(markers) else len(caption)
        clause = clause_start(caption, mk.start, max(s_start, prev_end))
        # a marker that opens its clause leads it whatever the sentence's first marker did
        # ("Sections (a1–a3) show the cortex; (b) hippocampus")
        opens_clause = prev_end <= clause_start(caption, mk.start, s_start) and only_punct(
            caption[clause_start(caption, mk.start, s_start) : mk.start])
        mk.leading = style[(s_start, s_end)] or mk.kind in ("leading", "half") or opens_clause
        in_sentence = [m for m in markers if s_start <= m.start < s_end]
        if mk.leading:
            a = mk.end
            b = next_start
            if i + 1 == len(markers):
                b = last_panel_end(caption, sentences, spans, s_end, b, only_punct(caption[s_start : mk.start]), mk.labels)
            elif markers[i + 1].kind == "mid" and sentence_of(next_start)[0] > a:
                b = sentence_of(next_start)[0]  # the words before a letter inside a sentence are its
            elif markers[i + 1].kind == "bracketed" and _OPENER.fullmatch(
                    caption[clause_start(caption, next_start, a) : next_start]):
                b = clause_start(caption, next_start, a)  # "...; in (b), ...": the opener is (b)'s
            pieces = [(a, b)]
            if mk.kind == "mid" and in_sentence[0].kind == "mid" and in_sentence[0].start > s_start:
                # "Light-induced b temperature changes and c ionic current changes": the head of
                # the sentence describes each letter in it
                pieces.insert(0, (s_start, in_sentence[0].start))
        else:
            a = max(clause, prev_end)
            pieces = [(a, mk.start)]
            if len(in_sentence) == 1:
                pieces = [(s_start, mk.start), (mk.end, s_end)]
            elif caption[mk.end : mk.end + 2].lstrip().startswith(":"):
                pieces.append((mk.end, min(next_start, s_end)))
            # only for a marker alone in its sentence: after a list ("CT (a) and MRI (b): large
            # mass") the colon opens what the whole list shares
            if len(in_sentence) == 1 and caption[mk.end : mk.end + 2].lstrip().startswith(":"):
                colon_piece = _strip_span(caption, mk.end, min(next_start, s_end))
                if colon_piece[1] > colon_piece[0]:
                    after_colon.update({label: colon_piece for label in mk.labels})
        pieces = [_strip_span(caption, x, y) for x, y in pieces]
        pieces = [(x, y) for x, y in pieces if y > x and not only_punct(caption[x:y])]
        pieces = [_drop_scale(caption, x, y) for x, y in pieces]
        pieces = [q for x, y in pieces for q in _drop_statistics(caption, x, y)]
        pieces = [(x, y) for x, y in pieces if y > x]
        per_label = {label: pieces for label in mk.labels}
        if (mk.kind == "leading" or i in groups) and len(mk.labels) > 1 and len(pieces) == 1:
            per_label = _split_by_inner_references(caption, pieces[0], mk.labels)
            if i in groups:
                referenced.update(mk.labels)
        for label in mk.labels:
            if label not in spans:
                spans[label] = []
                order.append(label)
            for p in per_label[label]:
                if p not in spans[label]:
                    spans[label].append(p)
    if mode == "tagger" or (mode == "hybrid" and not all(m.leading for m in markers)):
        tagger = tagger or default_tagger()
        learned = tagger.subcaption_spans(caption, markers, body_start, spans)
        # a panel the tagger leaves without words keeps the rules' text: never emptier
        for label in order:
            if label in referenced:
                continue  # the caption's own references beat the tagger's guess
            # (never the "Figure 2." label the body starts after: the tagger has read it as words)
            trimmed = [x for x in (_strip_span(caption, max(a, body_start), b) for a, b in learned.get(label, [])) if x[1] > x[0]]
            colon_piece = after_colon.get(label)
            if trimmed and colon_piece and not any(x < colon_piece[1] and colon_piece[0] < y for x, y in trimmed):
                trimmed.append(colon_piece)
            if trimmed:
                spans[label] = trimmed
        parsed.tagged = True
    _drop_all_panel_text(caption, markers, spans)
    own_end = max([markers[-1].end] + [y for pieces in spans.values() for _, y in pieces])
    for label, pieces in sentences_naming_one_panel(caption, sentences, own_end, set(spans)).items():
        spans[label].extend(pieces)
    for label in order:
        merged = sorted(spans[label])
        text = " ".join(caption[a:b] for a, b in merged)
        parsed.subcaptions.append(Subcaption(label=label, spans=merged, text=text))
    return parsed


def _fold_inner_references(caption: str, markers: list[Marker],
                           sentences: list[tuple[int, int]]) -> tuple[list[Marker], set[int]]:
    """"(D and E) Phenotypic rescue (D) and adverse effect (E) for the 14 plates": bracketed
    letters of a group that sit inside its sentence after words are references marking each
    panel's own words, not markers of their own. They are dropped from the markers; the
    returned indices name the groups whose text :func:`_split_by_inner_references` divides.
    A letter that opens its clause ("(a, b) A 35-year-old man. (a) Axial CT ...") stays, and so
    do letters after a group that does not open its own clause ("individuals (in (A, B)) and
    the non-vaccinated group ... (B)"): its text precedes it."""
    keep: list[Marker] = []
    groups: set[int] = set()
    group: Marker | None = None
    for mk in markers:
        if group is not None and mk.kind == "bracketed" and set(mk.labels) <= set(group.labels):
            same_sentence = any(a <= group.start and mk.start < b for a, b in sentences)
            clause = clause_start(caption, mk.start, group.end)
            if same_sentence and not only_punct(caption[clause : mk.start]):
                groups.add(len(keep) - 1)
                continue
        opens = only_punct(caption[clause_start(caption, mk.start, keep[-1].end if keep else 0) : mk.start])
        group = mk if len(mk.labels) > 1 and mk.kind != "position" and opens else None
        keep.append(mk)
    return keep, groups


def _split_by_inner_references(caption: str, span: tuple[int, int], labels: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Nature style "c, d Simulated image (c), ..., and ABF image (d) showing ...": the
    bracketed letters inside a multi-panel text mark the end of each panel's own words.
    Text before the first inner reference is shared (the head noun of all panels) when the
    first reference comes right after it; text after the last one is shared by all."""
    a, b = span
    inner = [
        (m, [l for l in expand_labels(m[1]) if l in labels])
        for m in BRACKETED.finditer(caption, a, b)
    ]
    inner = [(m, ls) for m, ls in inner if ls]
    if len({l for _, ls in inner for l in ls}) < 2:
        return {label: [span] for label in labels}
    words_before = re.findall(r"[A-Za-z]+", caption[a : inner[0][0].start()])
    if words_before and words_before[-1].lower() in _FUNCTION_WORDS:
        return _split_by_leading_references(caption, span, labels, inner)
    out: dict[str, list[tuple[int, int]]] = {label: [] for label in labels}
    start = a
    previous: list[str] = []
    for m, ls in inner:
        cut = start
        if previous and len(ls) == 1:
            # "(c), indicating X, and ABF image (d)": words up to the last "and" still
            # describe the previous panel; before a reference to several panels the "and"
            # joins their items ("artery (a), anterior and posterior arteries (b, c)")
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
        if tail[1] > tail[0] and not only_punct(caption[tail[0] : tail[1]]):
            out[label].append(tail)
        if not out[label]:
            out[label] = [span]
    return out


def _split_by_leading_references(caption: str, span: tuple[int, int], labels: list[str],
                                 inner: list[tuple[re.Match, list[str]]]) -> dict[str, list[tuple[int, int]]]:
    """"A and D: numbers expressed as a function of either (A) overall reduction or (D) the
    mean coverage": inner references after a function word open their panel's words; the
    head before the first one is every panel's of the group, and a panel without a
    reference of its own keeps the whole text."""
    a, b = span
    head = _strip_span(caption, a, inner[0][0].start())
    out: dict[str, list[tuple[int, int]]] = {label: [] for label in labels}
    for n, (m, ls) in enumerate(inner):
        end = inner[n + 1][0].start() if n + 1 < len(inner) else b
        piece = _strip_span(caption, m.end(), end)
        for label in ls:
            out[label] += [x for x in (head, piece) if x[1] > x[0] and x not in out[label]]
    return {label: spans or [span] for label, spans in out.items()}


# a preposition opening a clause on a panel marker: "In (a), ...", "in panel (b), ..."
_OPENER = re.compile(r"\s*(?:[Ii]n|[Aa]t|[Oo]n|[Ff]rom|[Ff]or)(?:\s+[Pp]anels?)?\s*")
_FUNCTION_WORDS = frozenset(
    "either both by of in on at for from with without to and or the a an during under using via "
    "showing shows show shown demonstrating demonstrates reveals revealing revealed including "
    "is are was were see as between".split()
)


_OPENS_A_DESCRIPTION = re.compile(r"\s*[A-Z][a-z]{2,}\b")  # "Visualization", not "CT" or "T2"
_LIST_JOIN_END = re.compile(r"(?:,|;|\band|\bor)\s*$", re.IGNORECASE)
_LIST_JOIN_START = re.compile(r"^\s*(?:[,;.:)]|and\b|or\b)", re.IGNORECASE)


def _is_leading(caption: str, before: str, mk: Marker, to_next: str | None = None, last_has_words: bool = False) -> bool:
    """Does the text of this marker follow it? Yes when only punctuation precedes it in its
    clause, the preceding word cannot end a description ("as evidenced by (A) colonoscopy"),
    or the words up to the sentence's next marker run from this one to a list join before that
    one ("OTU (a) richness and (b) Shannon diversity": each marker opens its item)."""
    if only_punct(before) or mk.kind in ("leading", "half"):
        return True
    if mk.kind == "bracketed" and _OPENER.fullmatch(before):
        return True  # "In (a), the mass is visible; in (b), ...": the clause opens on the marker
    after = caption[mk.end : mk.end + 3].lstrip()
    if after[:1] in (",", ".", ";", ":", ")") or not after:
        return False
    if mk.kind == "bracketed" and before.rstrip().endswith(",") and last_has_words:
        # "A spleen scan before splenectomy, (A) posterior view (B) left lateral view.": a letter
        # after a comma starts an item, and the sentence's last letter has words after it
        return True
    if to_next is not None and to_next.strip() and _LIST_JOIN_END.search(to_next) and not _LIST_JOIN_START.match(to_next):
        return True
    if (last_has_words and to_next is not None and _OPENS_A_DESCRIPTION.match(to_next)
            and not re.search(r"\b(?:and|or)\s*$", to_next)):
        # "Visual feature extraction (a) Visualization of ... (b) Examples of ...": a capitalised
        # word right after the marker starts its description, and the sentence's last marker has
        # words after it; trailing markers are followed by the sentence's next words ("a fluid
        # collection (A) encasing the graft (B)") or a join, and the last one by its full stop
        # ("... on agarose gel (a) Glyceraldehyde-3-phosphate ... (165 bp) (b).")
        return True
    words = re.findall(r"[A-Za-z0-9]+", before)  # "grade 0 to 1 (A)": a number ends a description
    return bool(words) and words[-1].lower() in _FUNCTION_WORDS


def _drop_statistics(caption: str, a: int, b: int) -> list[tuple[int, int]]:
    """A span without its statistics sentences (kept whole when every sentence is one)."""
    cuts = [a] + [m.end() for m in re.finditer(r"[.;]\s+(?=[A-Z*∗#†‡§(\[\"“])", caption[a:b])] + [b - a]
    cuts = [a] + [a + c for c in cuts[1:-1]] + [b]
    sents = list(zip(cuts, cuts[1:]))
    keep = [(x, y) for x, y in sents if not STATISTICS.match(caption, x + len(caption[x:y]) - len(caption[x:y].lstrip()))]
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
    m = SCALE.search(caption, a, b)
    if m:
        return _strip_span(caption, a, m.start())
    return a, b


def _drop_all_panel_text(caption: str, markers: list[Marker], spans: dict[str, list[tuple[int, int]]]) -> None:
    """Words a marker naming every panel gives them ("Video 2(a–d) Supramitral ring. ...
    (a) 2-D TEE, (b) ...") are shared by all panels, and MedICaT leaves shared words out of
    subcaptions; they stay where a panel has no words of its own."""
    letters = {l for m in markers for l in m.labels if len(l) == 1}
    if len(letters) < 2 or all(set(m.labels) == letters for m in markers):
        return  # no marker names fewer panels: nothing tells shared words from panel words
    if letters != {chr(ord("a") + i) for i in range(len(letters))}:
        return  # "(b) and (c)" where the caption never names a: not every panel of the figure
    for mk in markers:
        if set(mk.labels) != letters or len(mk.labels) < 2:
            continue
        near = [(x, y) for x, y in spans.get(mk.labels[0], []) if mk.end <= x <= mk.end + 3 or mk.start - 3 <= y <= mk.start]
        for label in mk.labels:
            own = [p for p in spans[label] if p not in near]
            if own:
                spans[label] = own
