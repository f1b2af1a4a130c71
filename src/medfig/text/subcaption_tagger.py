r"""A learned subcaption tagger: which caption words belong to which panel marker.

MedICaT tagged subcaptions with BERT + CRF. Here the panel markers are found by the rules
(:func:`medfig.text.panel_markers.find_markers`: letters are reliable to find, hard to
*attach*), and a linear-chain CRF tags every other token of the caption:

- ``P``: text of the nearest marker *before* it ("(a) Barium enema");
- ``F``: text of the nearest marker *after* it ("Brain CT (A)", "the first (a, blue)");
- ``O``: text no single marker owns (the title, shared statements, glue words);
- ``M``: the marker itself (fixed by the rules; the CRF only sees it as context).

A marker naming several panels ("a, b ...") gives its text to each of them (MedICaT's
multi-span subcaptions). The model was trained by ``tools/train_subcaption_tagger.py`` with
python-crfsuite on weak labels (the rule parser on captions whose markers all lead their
clause, where it is reliable) plus the hand annotations of the subfigure gold; its weights
ship as JSON beside this module and are decoded here by Viterbi in numpy, so using the
tagger needs no CRF library.

Offsets are character offsets into the caption as given.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from medfig.records import MedfigError
from medfig.text.caption_clauses import SCALE, STATISTICS, only_punct, sentence_spans
from medfig.text.panel_markers import Marker

TAGS = ("O", "P", "F", "M")
MODEL_PATH = Path(__file__).resolve().parent / "models" / "subcaption_tagger.json"
TOKEN = re.compile(r"[^\W_]+|[^\w\s]")
# words that cannot end a panel's description: a marker after them opens its text
FUNCTION_WORDS = frozenset(
    "by of in on at for from with without to and or the a an after before during under using via "
    "showing shows show shown demonstrating demonstrates reveals revealing revealed including "
    "is are was were see as between".split()
)


def tokenize(caption: str) -> list[tuple[int, int]]:
    """[start, end) of every word and punctuation token."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(caption)]


def _shape(word: str) -> str:
    if not word[0].isalnum():
        return "punct" + word
    if word.isdigit():
        return "digit"
    if len(word) == 1:
        return "LETTER" if word.isupper() else "letter"
    if word.isupper():
        return "UPPER"
    if word[0].isupper():
        return "Cap"
    return "lower" if word.isalpha() else "mixed"


def _bin(n: int) -> str:
    for edge in (1, 2, 3, 5, 8, 13, 21):
        if n <= edge:
            return str(edge)
    return "many"


@dataclass(slots=True)
class _MarkerContext:
    """What the neighbourhood of a marker says about the direction of its text."""

    leads_clause: bool  # only punctuation between the clause start and the marker
    word_before: str  # the word right before it, lower-cased ("" when none)
    char_after: str  # the first non-space character after it


def _marker_context(caption: str, mk: Marker, floor: int) -> _MarkerContext:
    i = mk.start
    while i > floor and caption[i - 1] not in ".;:!?":
        i -= 1
    words = re.findall(r"[^\W_]+", caption[floor : mk.start])
    after = caption[mk.end : mk.end + 3].lstrip()
    return _MarkerContext(only_punct(caption[i : mk.start]) or mk.kind in ("leading", "half"),
                          words[-1].lower() if words else "", after[:1])


_LEXICAL = ("first=", "last=", "before=", "after=", "bias")


def _chunks(caption: str, tokens: list[tuple[int, int]], owner: list[int | None], sentence_ends: set[int]) -> list[int]:
    """Chunk id of every token: a marker, a clause mark (, ; : or the full stop that ends a
    sentence, not "i.v."), or a run of words between them ("(*P < 0.05)" stays inside its
    phrase). The CRF sees a chunk's words with the same features, so a phrase goes to one
    marker whole (word features alone cut phrases apart)."""
    def alone(t: int) -> bool:
        a, b = tokens[t]
        ch = caption[a:b]
        return owner[t] is not None or ch in ",;:" or (ch in ".!?" and b in sentence_ends)

    ids: list[int] = []
    cid = -1
    for t in range(len(tokens)):
        if t == 0 or alone(t) or alone(t - 1):
            cid += 1
        ids.append(cid)
    return ids


def token_features(caption: str, markers: list[Marker], body_start: int = 0,
                   rule_tags: list[str] | None = None) -> tuple[list[tuple[int, int]], list[list[str]], list[int | None], list[int]]:
    """(tokens, features of each token, index of the marker each token belongs to or None,
    chunk id of each token).

    Features describe the token's chunk (:func:`_chunks`): its edge words, its length, and
    where it stands to the markers before and after it (distance, same sentence, punctuation
    between, whether that marker leads its clause, what follows it). ``rule_tags``: the tag
    the rule parser gives each token (see :func:`tags_from_spans`), a feature the CRF weighs
    against the others."""
    tokens = tokenize(caption)
    words = [caption[a:b] for a, b in tokens]
    owner: list[int | None] = [None] * len(tokens)
    for k, mk in enumerate(markers):
        for t, (a, b) in enumerate(tokens):
            if mk.start <= a and b <= mk.end:
                owner[t] = k
    sentences = sentence_spans(caption, body_start) or [(body_start, len(caption))]
    chunk = _chunks(caption, tokens, owner, {len(caption[:b].rstrip()) for _, b in sentences})
    members: dict[int, list[int]] = {}
    for t, c in enumerate(chunk):
        members.setdefault(c, []).append(t)
    sent_of = [next((s for s, (x, y) in enumerate(sentences) if x <= a < y), -1) for a, _ in tokens]
    sent_markers = {sent_of[t] for t in range(len(tokens)) if owner[t] is not None}
    special = {s: ("scale" if SCALE.search(caption, x, y) else "stats" if STATISTICS.match(caption[x:y].lstrip()) else "")
               for s, (x, y) in enumerate(sentences)}
    contexts = [_marker_context(caption, mk, body_start) for mk in markers]
    all_lead = all(c.leads_clause for c in contexts)
    first_tok = [min((t for t in range(len(tokens)) if owner[t] == k), default=0) for k in range(len(markers))]
    last_tok = [max((t for t in range(len(tokens)) if owner[t] == k), default=0) for k in range(len(markers))]
    prev_k: list[int | None] = [None] * len(tokens)
    next_k: list[int | None] = [None] * len(tokens)
    cur = None
    for t in range(len(tokens)):
        if owner[t] is not None:
            cur = owner[t]
        prev_k[t] = cur
    cur = None
    for t in range(len(tokens) - 1, -1, -1):
        if owner[t] is not None:
            cur = owner[t]
        next_k[t] = cur
    by_chunk: dict[int, list[str]] = {}
    for c, ts in members.items():
        t0, t1 = ts[0], ts[-1]
        if owner[t0] is not None:
            mk = markers[owner[t0]]
            by_chunk[c] = ["bias", "marker", f"mkind={mk.kind}", f"mlabels={min(len(mk.labels), 3)}"]
            continue
        w0 = words[t0]
        f = ["bias", f"first={w0.lower()}", f"last={words[t1].lower()}", f"shape={_shape(w0)}",
             f"len={_bin(len(ts))}", f"caption_lead={all_lead}", f"n_markers={_bin(len(markers))}"]
        before = "<edge>" if t0 == 0 else "<M>" if owner[t0 - 1] is not None else words[t0 - 1].lower()
        after = "<edge>" if t1 + 1 >= len(tokens) else "<M>" if owner[t1 + 1] is not None else words[t1 + 1].lower()
        f += [f"before={before}", f"after={after}"]
        s = sent_of[t0]
        f.append(f"sent_marked={s in sent_markers}")
        if s == 0:
            f.append("first_sentence")
        if special.get(s):
            f.append(f"sent={special[s]}")
        pk, nk = prev_k[t0], next_k[t1]
        if pk is None:
            f.append("prev=none")
        else:
            c_ = contexts[pk]
            between = "".join(x for x in words[last_tok[pk] + 1 : t0] if x in ".;:")
            f += [f"prev_d={_bin(t0 - last_tok[pk])}", f"prev_same_sent={sent_of[last_tok[pk]] == s}",
                  f"prev_leads={c_.leads_clause}", f"prev_after={c_.char_after}", f"prev_kind={markers[pk].kind}",
                  f"prev_punct={between[-2:]}"]
        if nk is None:
            f.append("next=none")
        else:
            c_ = contexts[nk]
            between = "".join(x for x in words[t1 + 1 : first_tok[nk]] if x in ".;:")
            f += [f"next_d={_bin(first_tok[nk] - t1)}", f"next_same_sent={sent_of[first_tok[nk]] == s}",
                  f"next_leads={c_.leads_clause}", f"next_after={c_.char_after}", f"next_kind={markers[nk].kind}",
                  f"next_func={c_.word_before in FUNCTION_WORDS}", f"next_punct={between[:2]}"]
        if pk is not None and nk is not None:
            f.append(f"leads={contexts[pk].leads_clause}{contexts[nk].leads_clause}")
        if rule_tags is not None:
            votes = [rule_tags[t] for t in ts]
            rule = max(sorted(set(votes)), key=votes.count)
            # the rule's tag, alone and joined with the context: the CRF learns where the
            # rules go wrong (a trailing "(b) (arrow)", a title after a lone marker)
            f += [f"rule={rule}"] + [f"rule={rule}|{x}" for x in f if not x.startswith(_LEXICAL)]
        # captions whose markers all lead their clause (most of the weak labels) and the rest
        # get weights of their own as well as shared ones
        f += [f"{x}|caption_lead={all_lead}" for x in f if not x.startswith(_LEXICAL) and not x.startswith("rule=")]
        if not w0[0].isalnum():
            # a lone punctuation mark: weights of its own (the text around it is not it)
            f = [f"punct{w0}|{x}" for x in f]
        by_chunk[c] = f
    feats = [by_chunk[chunk[t]] for t in range(len(tokens))]
    return tokens, feats, owner, chunk


def chunk_sequence(feats: list[list[str]], chunk: list[int], tags: list[str] | None = None):
    """The CRF's items: one per chunk (its features; with ``tags``, its majority tag), so a
    long phrase weighs as much as a short one in the chain."""
    firsts = [t for t in range(len(chunk)) if t == 0 or chunk[t] != chunk[t - 1]]
    items = [feats[t] for t in firsts]
    if tags is None:
        return items
    votes: dict[int, list[str]] = {}
    for t, c in enumerate(chunk):
        votes.setdefault(c, []).append(tags[t])
    return items, [max(sorted(set(v)), key=v.count) for _, v in sorted(votes.items())]


def tags_from_spans(caption: str, tokens: list[tuple[int, int]], owner: list[int | None], markers: list[Marker],
                    spans: dict[str, list[tuple[int, int]]]) -> list[str]:
    """Tags of the tokens given each panel's subcaption spans (from the rules or a hand
    annotation): a token of panel L is ``P`` when the marker before it names L, else ``F``
    when the marker after it does, else ``O`` (text this scheme cannot attach)."""
    tags: list[str] = []
    prev: Marker | None = None
    nxt_of: list[Marker | None] = [None] * len(tokens)
    nxt = None
    for t in range(len(tokens) - 1, -1, -1):
        if owner[t] is not None:
            nxt = markers[owner[t]]
        nxt_of[t] = nxt
    for t, (a, b) in enumerate(tokens):
        if owner[t] is not None:
            prev = markers[owner[t]]
            tags.append("M")
            continue
        labels = {label for label, ss in spans.items() if any(x <= a and b <= y for x, y in ss)}
        if prev is not None and labels & set(prev.labels):
            tags.append("P")
        elif nxt_of[t] is not None and labels & set(nxt_of[t].labels):
            tags.append("F")
        else:
            tags.append("O")
    return tags


_GLUE = frozenset(("and", "or", "with", "&"))


def _word(caption: str, token: tuple[int, int]) -> str:
    return caption[token[0] : token[1]].lower()


def spans_from_tags(caption: str, tokens: list[tuple[int, int]], owner: list[int | None], markers: list[Marker],
                    tags: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Each panel label's [start, end) spans: runs of tokens given to the same marker."""
    runs: list[tuple[int, int, int]] = []  # (marker index, first token, last token)
    prev_k: int | None = None
    next_k: list[int | None] = [None] * len(tokens)
    nxt = None
    for t in range(len(tokens) - 1, -1, -1):
        if owner[t] is not None:
            nxt = owner[t]
        next_k[t] = nxt
    for t, tag in enumerate(tags):
        if owner[t] is not None:
            prev_k = owner[t]
            continue
        k = prev_k if tag == "P" else next_k[t] if tag == "F" else None
        if k is None:
            continue
        if runs and runs[-1][0] == k and runs[-1][2] == t - 1:
            runs[-1] = (k, runs[-1][1], t)
        else:
            runs.append((k, t, t))
    out: dict[str, list[tuple[int, int]]] = {}
    for k, first, last in runs:
        # list glue at a span's edges is no panel's text ("(A) and MR images (B)")
        while first <= last and (caption[tokens[first][0]] in ",;:.)]" or _word(caption, tokens[first]) in _GLUE):
            first += 1
        while last >= first and (caption[tokens[last][0]] in ",;:([" or _word(caption, tokens[last]) in _GLUE):
            last -= 1
        if first > last:
            continue
        span = (tokens[first][0], tokens[last][1])
        for label in markers[k].labels:
            out.setdefault(label, []).append(span)
    return out


class SubcaptionTagger:
    """A linear-chain CRF (weights from python-crfsuite), decoded by Viterbi in numpy."""

    def __init__(self, model: dict):
        self.tags: list[str] = list(model["tags"])
        self.transitions = np.asarray(model["transitions"], dtype=np.float64)  # [from, to]
        self.weights: dict[str, np.ndarray] = {}
        for attr, row in model["features"].items():
            vec = np.zeros(len(self.tags))
            for tag, w in row.items():
                vec[self.tags.index(tag)] = w
            self.weights[attr] = vec

    @classmethod
    def from_file(cls, path: Path) -> SubcaptionTagger:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def tag(self, features: list[list[str]], fixed: list[int | None] | None = None) -> list[str]:
        """Best tag sequence; ``fixed[t]`` not None forces ``M`` there and forbids it elsewhere."""
        n = len(features)
        if n == 0:
            return []
        emit = np.zeros((n, len(self.tags)))
        for t, f in enumerate(features):
            for attr in f:
                vec = self.weights.get(attr)
                if vec is not None:
                    emit[t] += vec
        if fixed is not None and "M" in self.tags:
            m = self.tags.index("M")
            for t, k in enumerate(fixed):
                if k is None:
                    emit[t, m] = -np.inf
                else:
                    keep = emit[t, m]
                    emit[t] = -np.inf
                    emit[t, m] = keep
        score = emit[0].copy()
        back = np.zeros((n, len(self.tags)), dtype=np.int64)
        for t in range(1, n):
            cand = score[:, None] + self.transitions
            back[t] = np.argmax(cand, axis=0)
            score = cand[back[t], np.arange(len(self.tags))] + emit[t]
        best = [int(np.argmax(score))]
        for t in range(n - 1, 0, -1):
            best.append(int(back[t, best[-1]]))
        return [self.tags[i] for i in reversed(best)]

    def subcaption_spans(self, caption: str, markers: list[Marker], body_start: int = 0,
                         rule_spans: dict[str, list[tuple[int, int]]] | None = None) -> dict[str, list[tuple[int, int]]]:
        """Each panel label's spans as the tagger attaches the caption's words to its markers."""
        tokens, _, owner, _ = token_features(caption, markers, body_start)
        rule_tags = tags_from_spans(caption, tokens, owner, markers, rule_spans) if rule_spans is not None else None
        tokens, feats, owner, chunk = token_features(caption, markers, body_start, rule_tags)
        fixed = [owner[t] for t in range(len(chunk)) if t == 0 or chunk[t] != chunk[t - 1]]
        chunk_tags = self.tag(chunk_sequence(feats, chunk), fixed)
        return spans_from_tags(caption, tokens, owner, markers, [chunk_tags[c] for c in chunk])


@lru_cache(maxsize=1)
def default_tagger() -> SubcaptionTagger:
    """The shipped model, loaded once (``tools/train_subcaption_tagger.py`` rebuilds it)."""
    if not MODEL_PATH.is_file():
        raise MedfigError(f"{MODEL_PATH}: subcaption tagger model missing; run tools/train_subcaption_tagger.py")
    return SubcaptionTagger.from_file(MODEL_PATH)
