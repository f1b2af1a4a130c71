"""Free text to an FTS5 MATCH expression.

Users type words, not FTS5 syntax: every word becomes a quoted term (so ``AND``,
``-``, ``*`` or quotes in the text cannot break the expression) and the terms are
OR-ed; BM25 then ranks documents that contain more of the rarer terms first.
Stop words are dropped because under OR they only add work and noise.
"""

from __future__ import annotations

import re

MAX_QUERY_CHARS = 500
MAX_TERMS = 32

STOP_WORDS = frozenset(
    """a about above after again all also an and any are as at be because been before being below between both
    but by can could did do does doing down during each few for from further had has have having he her here hers
    him his how i if in into is it its itself just may me might more most must my no nor not now of off on once
    only or other our out over own same she should shown shows showed show so some such than that the their them
    then there these they this those through to too under until up very was we were what when where which while
    who whom why will with would you your fig figs figure figures panel panels see also et al respectively""".split()
)

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)


def content_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` (hyphenated words split, as FTS5's unicode61 does), stop words and
    single letters dropped, repeats kept."""
    words = []
    for word in _WORD.findall(text.lower()):
        for part in word.replace("'", "-").split("-"):
            if (len(part) >= 2 or part.isdigit()) and part not in STOP_WORDS:
                words.append(part)
    return words


def query_terms(text: str, doc_freq: dict[str, int] | None = None, max_terms: int = MAX_TERMS) -> list[str]:
    """Distinct content words of ``text``, in order.

    With ``doc_freq`` (word -> number of indexed documents containing it) only the ``max_terms``
    rarest words are kept and words no document contains are dropped: under OR, a long citing
    sentence would otherwise make FTS5 score most of the index for words that barely move the
    ranking (BM25 gives common words almost no weight).
    """
    terms = list(dict.fromkeys(content_words(text)))
    if doc_freq is not None:
        known = [t for t in terms if doc_freq.get(t, 0) > 0]
        rarest = set(sorted(known, key=lambda t: (doc_freq[t], terms.index(t)))[:max_terms])
        return [t for t in terms if t in rarest]
    return terms[:max_terms]


def fts_match_expression(text: str, doc_freq: dict[str, int] | None = None, max_terms: int = MAX_TERMS) -> str | None:
    """``'lung cyst CT'`` -> ``'"lung" OR "cyst" OR "ct"'``; None when nothing searchable is left."""
    terms = query_terms(text, doc_freq, max_terms)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
