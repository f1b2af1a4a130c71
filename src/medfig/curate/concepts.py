"""Concepts as curation steps: the caption-rule (ROCOv2 "manual") concepts, and vocabulary concepts
(a group step: the frequency cut-off needs the whole release)."""

from __future__ import annotations

from medfig.concepts.manual import manual_concepts
from medfig.concepts.tagger import ConceptTagger
from medfig.pipeline.steps import KEEP, Enricher, GroupStep, Record, Verdict


class ManualConceptEnricher(Enricher):
    name = "manual_concepts"

    def enrich(self, record: Record) -> None:
        record.update(manual_concepts(record.get("caption_clean") or record.get("caption")))


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
