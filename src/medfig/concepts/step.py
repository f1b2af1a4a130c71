"""Concept extraction as a curation step (needs the whole release for the frequency cut-off)."""

from __future__ import annotations

from medfig.concepts.tagger import ConceptTagger
from medfig.curate.steps import KEEP, GroupStep, Record, Verdict


class ConceptEnricher(GroupStep):
    """Writes ``concepts`` (list of ids) on every record; never drops a figure."""

    name = "concepts"

    def __init__(self, vocabulary, lexicon=None, min_frequency: int = 10, **kwargs):
        self.tagger = ConceptTagger(vocabulary, lexicon, min_frequency=min_frequency, **kwargs)

    def run_group(self, records: list[Record]) -> list[Verdict]:
        captions = {str(i): r.get("caption_clean") or r.get("caption") or "" for i, r in enumerate(records)}
        tagged = self.tagger.tag_many(captions)
        for i, r in enumerate(records):
            r["concepts"] = tagged[str(i)]
        return [KEEP] * len(records)
