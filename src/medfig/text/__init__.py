"""Text processing: sentences and figure mentions in running text."""

from medfig.text.mentions import find_mentions, panels_in_text
from medfig.text.sentences import split_sentences

__all__ = ["find_mentions", "panels_in_text", "split_sentences"]
