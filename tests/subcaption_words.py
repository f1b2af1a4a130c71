"""What ``medfig compound`` gives each panel as text, for caption tests: the parser's spans after
the refinements ``analyze_compound`` applies, as the words of each span."""

from __future__ import annotations

from medfig.compound.subcaption_fill import refine_subcaptions
from medfig.text.subcaptions import parse_subcaptions


def refined(caption: str) -> dict[str, list[str]]:
    """Per label, the words of each span, as ``medfig compound`` gives them to panels."""
    parsed = parse_subcaptions(caption)
    refine_subcaptions(parsed)
    return {s.label: [caption[a:b] for a, b in s.spans] for s in parsed.subcaptions}
