"""A page's words (pdfplumber) and their letters-and-digits text, for caption search.

Words are split at gaps > 15% of the font size (Hindawi PDFs draw no space glyphs).
``text`` is the alphanumeric, lower-cased concatenation of the words in content-stream
order; ``owner[i]`` is the index of the word that character ``i`` came from, so an
aligned span of ``text`` maps back to words and their boxes (PDF points, origin top-left).
"""

from __future__ import annotations

from medfig.geometry import PointBox
from medfig.text.labels import alnum


def word_box(w: dict) -> PointBox:
    return (w["x0"], w["top"], w["x1"], w["bottom"])


class PageText:
    """Words of one pdfplumber page with an alphanumeric index."""

    def __init__(self, page=None) -> None:
        """``page``: a pdfplumber page (None: an empty page, for one that could not be read)."""
        self.words: list[dict] = [] if page is None else page.extract_words(
            x_tolerance_ratio=0.15, extra_attrs=["size"], use_text_flow=True)
        parts: list[str] = []
        self.owner: list[int] = []
        for i, w in enumerate(self.words):
            a = alnum(w["text"])
            parts.append(a)
            self.owner += [i] * len(a)
        self.text = "".join(parts)

    def body_size(self) -> float:
        """The most common font size on the page (body text), 10 pt when the page has no words."""
        sizes = [round(w["size"], 1) for w in self.words]
        return max(set(sizes), key=sizes.count) if sizes else 10.0
