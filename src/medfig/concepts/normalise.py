"""Token normalisation shared by the vocabulary, the learned lexicon and the captions.

Lower case; tokens are runs of letters/digits, so hyphens and slashes split words
("X-ray" -> x ray, "PET/CT" -> pet ct, "T2-weighted" -> t2 weighted); a few
spellings are rewritten to one form ("xray" -> x ray); English plurals are folded
to the singular with suffix rules (a light stemmer, not a lemmatiser: "arteries"
-> artery, "masses" -> mass, "vertebrae" -> vertebra). Tokens of <= 3 characters
are left alone so that abbreviations (CT, MRI, US) survive.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[a-z0-9]+")
SPELLINGS = {
    "xray": ("x", "ray"), "xrays": ("x", "ray"), "roentgenogram": ("radiograph",),
    "tumour": ("tumor",), "tumours": ("tumor",), "haemorrhage": ("hemorrhage",), "oedema": ("edema",),
    "oesophagus": ("esophagus",), "haematoma": ("hematoma",), "ultrasonography": ("ultrasonography",),
    "sonography": ("ultrasonography",), "ultrasonographic": ("ultrasonography",),
}
_KEEP_S = ("ss", "us", "is", "ous", "sis")


@lru_cache(maxsize=200_000)
def singular(tok: str) -> str:
    if len(tok) <= 3 or tok.isdigit():
        return tok
    if tok.endswith("ies") and len(tok) > 4:
        return tok[:-3] + "y"
    if tok.endswith(("sses", "xes", "zes", "ches", "shes")):
        return tok[:-2]
    if tok.endswith("ae") and len(tok) > 4:
        return tok[:-1]
    if tok.endswith("s") and not tok.endswith(_KEEP_S):
        return tok[:-1]
    return tok


def tokens(text: str) -> list[str]:
    out: list[str] = []
    for t in _TOKEN.findall(text.lower()):
        if t in SPELLINGS:
            out.extend(SPELLINGS[t])
        else:
            out.append(singular(t))
    return out


def normalise(text: str) -> tuple[str, ...]:
    return tuple(tokens(text))
