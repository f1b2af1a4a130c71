"""Learning a term -> concept lexicon by distant supervision (the DeepFigures way).

The vocabulary has one canonical name per concept, but captions say "CT",
"radiograph", "chest film". Given captions that already have concept labels (ROCO's
CUIs), we learn which caption n-grams signal which concept:

1. count, for every n-gram (n <= 4 normalised tokens) seen in >= ``min_count``
   captions, how often each gold concept co-occurs with it;
2. for each concept, take candidate n-grams in order of precision P(concept | n-gram)
   and accept one only if it still predicts the concept on the captions that the
   n-grams accepted before it do *not* cover ("explaining away"): "axial" co-occurs
   with CT because axial images are mostly CT, but among captions without "CT" /
   "computed tomography" it rarely does, so it is rejected;
3. dictionary triggers (canonical names + the hand variant table) that the labelled
   data contradicts (seen >= ``min_count`` times, precision < ``block_precision``) are
   blocked; the others stay, so concepts absent from the training data still match.

The result is saved as a TSV (``term<TAB>CUI;CUI<TAB>support<TAB>precision``; blocked
dictionary pairs as ``-term<TAB>CUI``) and loaded with :func:`load_lexicon`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from medfig.concepts.matcher import DictionaryMatcher
from medfig.concepts.normalise import tokens
from medfig.records import MedfigError


@dataclass
class Lexicon:
    entries: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    stats: dict[tuple[tuple[str, ...], str], tuple[int, float]] = field(default_factory=dict)
    blocked: set[tuple[tuple[str, ...], str]] = field(default_factory=set)

    def save(self, path: str | Path) -> None:
        from medfig.io import atomic_write_bytes

        lines = ["# medfig learned lexicon: term<TAB>concepts<TAB>support<TAB>precision; -term<TAB>concept = blocked"]
        for term in sorted(self.entries):
            for cui in sorted(self.entries[term]):
                sup, prec = self.stats.get((term, cui), (0, 0.0))
                lines.append(f"{' '.join(term)}\t{cui}\t{sup}\t{prec:.3f}")
        for term, cui in sorted(self.blocked):
            lines.append(f"-{' '.join(term)}\t{cui}")
        atomic_write_bytes(Path(path), ("\n".join(lines) + "\n").encode("utf-8"))


def load_lexicon(path: str | Path) -> Lexicon:
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: lexicon file not found")
    lex = Lexicon()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 2:
            raise MedfigError(f"{path}:{lineno}: expected 'term<TAB>concept'")
        if parts[0].startswith("-"):
            lex.blocked.add((tuple(parts[0][1:].split()), parts[1]))
            continue
        term = tuple(parts[0].split())
        lex.entries.setdefault(term, set()).update(c for c in parts[1].split(";") if c)
        if len(parts) >= 4:
            for c in parts[1].split(";"):
                lex.stats[(term, c)] = (int(parts[2]), float(parts[3]))
    return lex


# Function words never trigger a concept on their own, nor start or end a trigger.
STOPWORDS = frozenset(
    "a an the of in on at to and or with without for from by as is are was were be been this that these those "
    "it its which who after before during showing show shows shown demonstrating reveal revealed than".split()
)


def _grams(toks: list[str], max_n: int) -> set[tuple[str, ...]]:
    return {g for n in range(1, max_n + 1) for i in range(len(toks) - n + 1)
            if (g := tuple(toks[i:i + n]))[0] not in STOPWORDS and g[-1] not in STOPWORDS}


def learn_lexicon(examples: Iterable[tuple[str, Iterable[str]]], base: DictionaryMatcher | None = None,
                  keep: set[str] | None = None, max_n: int = 4, min_count: int = 3, min_precision: float = 0.5,
                  block_precision: float = 0.2) -> Lexicon:
    """Learn triggers from ``(caption, gold concepts)`` pairs; see the module docstring."""
    grams_of: list[set[tuple[str, ...]]] = []
    gold_of: list[set[str]] = []
    count: Counter = Counter()
    for caption, gold in examples:
        g = _grams(tokens(caption), max_n)
        grams_of.append(g)
        gold_of.append({c for c in gold if keep is None or c in keep})
        count.update(g)
    frequent = {g for g, n in count.items() if n >= min_count}
    postings: dict[tuple[str, ...], list[int]] = defaultdict(list)
    cooc: Counter = Counter()
    for i, (grams, gold) in enumerate(zip(grams_of, gold_of)):
        for g in grams & frequent:
            postings[g].append(i)
            for c in gold:
                cooc[(g, c)] += 1
    candidates: dict[str, list[tuple[float, int, tuple[str, ...]]]] = defaultdict(list)
    for (g, c), n in cooc.items():
        prec = n / count[g]
        if n >= min_count and prec >= min_precision:
            candidates[c].append((prec, n, g))
    lex = Lexicon()
    for c, cands in candidates.items():
        cands.sort(key=lambda x: (-x[0], -x[1], len(x[2]), x[2]))  # fully ordered: same input, same lexicon
        covered: set[int] = set()
        for prec, n, g in cands:
            rest = [i for i in postings[g] if i not in covered]
            pos = sum(1 for i in rest if c in gold_of[i])
            if pos >= 2 and pos / len(rest) >= min_precision:
                lex.entries.setdefault(g, set()).add(c)
                lex.stats[(g, c)] = (n, round(prec, 3))
                covered.update(postings[g])
    if base is not None:
        for term, cuis in base.terms.items():
            n = count.get(term, 0)
            if n < min_count:
                continue
            for c in cuis:
                if cooc.get((term, c), 0) / n < block_precision:
                    lex.blocked.add((term, c))
    return lex


def combined_matcher(base: DictionaryMatcher, lexicon: Lexicon) -> DictionaryMatcher:
    """Dictionary triggers minus the blocked ones, plus the learned entries."""
    m = DictionaryMatcher()
    for term, cuis in base.terms.items():
        kept = {c for c in cuis if (term, c) not in lexicon.blocked}
        if kept:
            m.add(term, kept)
    for term, cuis in lexicon.entries.items():
        m.add(term, cuis)
    return m
