"""Caption -> concept ids: vocabulary + variants (+ learned lexicon), frequency cut-off, allow/deny lists."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Mapping

from medfig.concepts.lexicon import Lexicon, combined_matcher, load_lexicon
from medfig.concepts.matcher import DictionaryMatcher
from medfig.concepts.vocabulary import Vocabulary, load_vocabulary
from medfig.records import MedfigError


def read_id_list(path: str | Path) -> set[str]:
    path = Path(path)
    if not path.is_file():
        raise MedfigError(f"{path}: concept list not found")
    return {ln.split()[0] for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")}


class ConceptTagger:
    """``tag(text)`` for one caption; ``tag_many`` adds the corpus-level frequency cut-off.

    ``mode``: ``longest`` (non-overlapping longest match) or ``overlapping`` (every
    term at every position). Default: overlapping with a learned lexicon (it was
    learned from overlapping gold), longest without.
    """

    def __init__(self, vocabulary: Vocabulary | str | Path, lexicon: Lexicon | str | Path | None = None,
                 mode: str | None = None, allow: set[str] | None = None, deny: set[str] | None = None,
                 min_frequency: int = 10):
        self.vocabulary = vocabulary if isinstance(vocabulary, Vocabulary) else load_vocabulary(vocabulary)
        base = DictionaryMatcher.from_vocabulary(self.vocabulary)
        if lexicon is not None:
            lex = lexicon if isinstance(lexicon, Lexicon) else load_lexicon(lexicon)
            self.matcher = combined_matcher(base, lex)
        else:
            self.matcher = base
        self.mode = mode or ("overlapping" if lexicon is not None else "longest")
        if self.mode not in ("longest", "overlapping"):
            raise ValueError(f"mode must be 'longest' or 'overlapping', not {self.mode!r}")
        self.allow = allow
        self.deny = deny or set()
        self.min_frequency = min_frequency

    def tag(self, text: str | None) -> list[str]:
        if not text:
            return []
        cuis = self.matcher.concepts(text, overlapping=self.mode == "overlapping")
        return [c for c in cuis if c in self.vocabulary and c not in self.deny
                and (self.allow is None or c in self.allow)]

    def tag_many(self, captions: Mapping[str, str]) -> dict[str, list[str]]:
        """Tag every caption, then drop concepts found in fewer than ``min_frequency`` captions (ROCOv2: 10)."""
        tagged = {k: self.tag(v) for k, v in captions.items()}
        freq = Counter(c for cuis in tagged.values() for c in set(cuis))
        return {k: [c for c in cuis if freq[c] >= self.min_frequency] for k, cuis in tagged.items()}
