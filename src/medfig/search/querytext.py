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


def query_terms(text: str) -> list[str]:
    """Distinct lower-cased words of ``text`` minus stop words and single letters, in order."""
    seen, terms = set(), []
    for word in _WORD.findall(text.lower()):
        for part in word.replace("'", "-").split("-"):
            if len(part) < 2 and not part.isdigit() or part in STOP_WORDS or part in seen:
                continue
            seen.add(part)
            terms.append(part)
    return terms[:MAX_TERMS]


def fts_match_expression(text: str) -> str | None:
    """``'lung cyst CT'`` -> ``'"lung" OR "cyst" OR "ct"'``; None when nothing searchable is left."""
    terms = query_terms(text)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
