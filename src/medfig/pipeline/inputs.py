"""Which articles a build covers: several inputs merged into one list, and which articles leave.

``medfig build A B C -o DS`` reads every input (folders, archives, single files) and builds them
into one dataset. An article key found in two inputs is one article when both copies have the
same fingerprint (the first input's copy is used); two different articles under one key is an
error naming both, since one would silently replace the other.

Articles already in the dataset but absent from this run's inputs stay (a second corpus built
into a dataset adds to it); they leave only with ``sync=True`` (``--sync``: the dataset mirrors
its inputs), and the build summary names them. Retracted / withdrawn articles (the sources'
status or the ``--removed`` list) leave in every mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from medfig.records import MedfigError

GONE = "gone from the input"


def collect_sources(inputs: Sequence[str | Path]) -> list:
    """Every article of every input, in input order then key order; cross-input duplicates merged."""
    from medfig.sources import iter_sources

    chosen: dict[str, tuple[object, str]] = {}
    out = []
    for path in inputs:
        for source in iter_sources(path):
            first = chosen.get(source.key)
            if first is None:
                chosen[source.key] = (source, str(path))
                out.append(source)
            elif first[0].fingerprint != source.fingerprint:
                raise MedfigError(f"article key {source.key!r} names different articles in {first[1]} "
                                  f"({first[0].container}) and {path} ({source.container}): rename one, "
                                  "or build them into separate datasets")
    return out


def leaving(sources: Iterable, states: dict, removed: dict[str, tuple[str, str]], sync: bool) -> dict:
    """Article key -> (reason, detail) for the articles that leave the dataset this run."""
    sources = list(sources)
    out: dict[str, tuple[str, str]] = {}
    for source in sources:
        mark = removed.get(source.key) or removed.get(source.pmcid or "")
        if source.status in ("retracted", "withdrawn"):
            out[source.key] = (source.status, f"the source marks the article as {source.status}")
        elif mark:
            out[source.key] = mark
    for key in states:
        if key not in out and key in removed:
            out[key] = removed[key]
    if sync:
        present = {s.key for s in sources}
        for key in states:
            if key not in present and key not in out:
                out[key] = (GONE, "")
    return out


def not_in_input(sources: Iterable, states: dict, leaving_now: dict) -> list[str]:
    """Articles of the dataset that this run's inputs do not hold and that stay (no ``--sync``)."""
    present = {s.key for s in sources}
    return sorted(k for k in states if k not in present and k not in leaving_now)


def name_some(keys: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(keys[:limit])
    return shown + (f" ... and {len(keys) - limit} more" if len(keys) > limit else "")
