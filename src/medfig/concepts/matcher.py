"""Dictionary concept matcher: normalised term -> concept ids, longest match first.

Terms and captions are normalised with :mod:`medfig.concepts.normalise` (case,
plurals, hyphens, spellings). The caption is scanned left to right; at each token
the longest term that starts there wins and the scan jumps past it (``longest``
mode, the classic dictionary tagger). In ``overlapping`` mode every term at every
position is reported, which is what a learned lexicon needs (QuickUMLS, which
made ROCO's gold CUIs, reports overlapping spans too: "computed tomography" gives
both tomography and computed tomography).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from medfig.concepts.abbreviations import VARIANTS
from medfig.concepts.normalise import normalise, tokens
from medfig.concepts.vocabulary import Vocabulary


@dataclass(frozen=True)
class Match:
    start: int  # token index where the term starts
    end: int  # token index after the term
    term: tuple[str, ...]
    cuis: tuple[str, ...]


class DictionaryMatcher:
    def __init__(self, terms: dict[tuple[str, ...], Iterable[str]] | None = None, max_len: int = 8):
        self.terms: dict[tuple[str, ...], set[str]] = defaultdict(set)
        self.max_len = max_len
        for term, cuis in (terms or {}).items():
            self.add(term, cuis)

    def add(self, term: tuple[str, ...] | str, cuis: Iterable[str]) -> None:
        key = normalise(term) if isinstance(term, str) else tuple(term)
        if key:
            self.terms[key].update(cuis)
            self.max_len = max(self.max_len, len(key))

    def remove_cui(self, cui: str) -> None:
        for key in list(self.terms):
            self.terms[key].discard(cui)
            if not self.terms[key]:
                del self.terms[key]

    @classmethod
    def from_vocabulary(cls, vocab: Vocabulary, variants: bool = True) -> "DictionaryMatcher":
        m = cls()
        for cui, name in vocab.names.items():
            m.add(name, [cui])
            # "Chest CT" style names also appear as "CT of the chest": left to the learned lexicon
        if variants:
            by_name = vocab.by_name()
            for surface, names in VARIANTS.items():
                cuis = [by_name[n.lower()] for n in names if n.lower() in by_name]
                if cuis:
                    m.add(surface, cuis)
        return m

    def find(self, text: str, overlapping: bool = False) -> list[Match]:
        toks = tokens(text)
        out: list[Match] = []
        i = 0
        while i < len(toks):
            found = None
            for n in range(min(self.max_len, len(toks) - i), 0, -1):
                key = tuple(toks[i:i + n])
                cuis = self.terms.get(key)
                if cuis:
                    m = Match(i, i + n, key, tuple(sorted(cuis)))
                    if overlapping:
                        out.append(m)
                    elif found is None:
                        found = m
                        break
            if found is not None:
                out.append(found)
                i = found.end
            else:
                i += 1
        return out

    def concepts(self, text: str, overlapping: bool = False) -> list[str]:
        """Concept ids in order of first appearance."""
        seen: dict[str, None] = {}
        for m in self.find(text, overlapping):
            for c in m.cuis:
                seen.setdefault(c, None)
        return list(seen)
