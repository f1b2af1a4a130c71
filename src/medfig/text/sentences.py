"""Sentence splitting for running text, as character spans into the original string.

syntok is used because it knows the abbreviations of scientific prose ("Fig.", "Figs.",
"et al.", "e.g.", "cf.") and keeps "Figs. 3(b) and 4" inside one sentence, and because
its tokens carry offsets into the input, so a span always maps back exactly.
"""

from __future__ import annotations

from syntok import segmenter


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of the sentences of ``text``, in order.

    ``text[start:end]`` is the sentence without surrounding whitespace; the whitespace
    between sentences belongs to no span.
    """
    spans: list[tuple[int, int]] = []
    for paragraph in segmenter.analyze(text):
        for sentence in paragraph:
            if sentence:
                last = sentence[-1]
                spans.append((sentence[0].offset, last.offset + len(last.value)))
    return spans


def sentence_at(spans: list[tuple[int, int]], start: int, end: int | None = None) -> tuple[int, int] | None:
    """Index range ``(first, last + 1)`` of the sentences covering ``text[start:end]``.

    A position in the whitespace between two sentences belongs to the next sentence
    (an empty ``<xref/>`` before a sentence starts it). ``None`` when there are no sentences.
    """
    if not spans:
        return None
    end = start if end is None else max(start, end)
    first = next((i for i, (_, e) in enumerate(spans) if start < e), len(spans) - 1)
    last = first
    while last + 1 < len(spans) and spans[last + 1][0] < end:
        last += 1
    return first, last + 1
