"""Licence policy: which Creative Commons licences a release accepts, and attribution.

Licences arrive as SPDX ids from the JATS parser (``CC-BY-4.0``, ``CC-BY-NC-ND-3.0``,
bare families such as ``CC-BY`` when the version is not stated, ``CC0-1.0``,
``LicenseRef-PDM-1.0``) or ``None`` when unknown. A policy looks only at the
family (BY / NC / ND / SA), never the version.

Presets (``--licence``):

============  ==========================================================
commercial    CC0, Public Domain Mark, CC BY                      (reuse for anything)
rocov2        CC BY, CC BY-NC - no ND, no SA, as ROCOv2 (Rückert et al. 2024)
noncommercial everything without ND: CC0, PDM, BY, BY-SA, BY-NC, BY-NC-SA
open          any Creative Commons licence or public-domain dedication
============  ==========================================================

A figure's own licence wins over its article's: the built figure rows already
carry the effective licence with ``licence_source`` = ``figure`` or ``article``.
When a figure states its own licence and medfig could not read it (source
``figure``, spdx unknown), the article's licence is NOT used instead: a figure
under a separate, unreadable licence is exactly the case that must not be guessed.
Unknown licences are dropped with reason ``unknown``.
"""

from __future__ import annotations

import re

from medfig.pipeline.steps import KEEP, Enricher, Filter, Record, Verdict, drop

PRESETS: dict[str, frozenset[str]] = {
    "commercial": frozenset({"CC0", "PDM", "CC-BY"}),
    "rocov2": frozenset({"CC-BY", "CC-BY-NC"}),
    "noncommercial": frozenset({"CC0", "PDM", "CC-BY", "CC-BY-SA", "CC-BY-NC", "CC-BY-NC-SA"}),
    "open": frozenset({"CC0", "PDM", "CC-BY", "CC-BY-SA", "CC-BY-NC", "CC-BY-NC-SA", "CC-BY-ND", "CC-BY-NC-ND"}),
}

_CC_FAMILY = re.compile(r"^CC-BY((?:-NC)?(?:-ND|-SA)?)(?:-\d\.\d)?$", re.IGNORECASE)


def licence_family(spdx: str | None) -> str | None:
    """``CC-BY-NC-4.0`` -> ``CC-BY-NC``; ``CC0-1.0`` -> ``CC0``; unknown -> None."""
    if not spdx:
        return None
    s = spdx.strip()
    if s.upper().startswith("CC0"):
        return "CC0"
    if s.upper().startswith("LICENSEREF-PDM"):
        return "PDM"
    m = _CC_FAMILY.match(s)
    if m:
        return "CC-BY" + m.group(1).upper()
    return None


def effective_licence(record: Record) -> tuple[str | None, str | None, str]:
    """(spdx, url, source) of the licence that governs this figure.

    Figure-level licence wins; an article licence is used only when the figure has
    none of its own (``licence_source`` != ``figure``).
    """
    spdx, url, source = record.get("licence_spdx"), record.get("licence_url"), record.get("licence_source") or "none"
    if spdx or source == "figure":
        return spdx, url, source
    # the row inherited nothing: fall back to the article table's licence
    a_spdx = record.get("article_licence_spdx")
    if a_spdx:
        return a_spdx, record.get("article_licence_url"), "article"
    return None, None, "none"


class LicenceFilter(Filter):
    name = "licence"

    def __init__(self, policy: str = "rocov2"):
        if policy not in PRESETS:
            raise ValueError(f"unknown licence policy {policy!r}; choose from {', '.join(PRESETS)}")
        self.policy = policy
        self.accepted = PRESETS[policy]

    def filter(self, record: Record) -> Verdict:
        spdx, url, source = effective_licence(record)
        record["licence_effective"] = spdx
        record["licence_effective_url"] = url
        record["licence_effective_source"] = source
        family = licence_family(spdx)
        if family is None:
            text = (record.get("licence_text") or "")[:120]
            return drop("unknown", f"{source} licence not recognised: spdx={spdx!r} text={text!r}")
        if family not in self.accepted:
            return drop("not_allowed", f"{spdx} ({source} licence) not in policy {self.policy!r}")
        return KEEP


def licence_url_for(spdx: str | None, url: str | None) -> str:
    """The licence URL given in the article, else the canonical CC deed for the SPDX id."""
    if url:
        return url
    fam = licence_family(spdx)
    if fam is None or spdx is None:
        return ""
    if fam == "CC0":
        return "https://creativecommons.org/publicdomain/zero/1.0/"
    if fam == "PDM":
        return "https://creativecommons.org/publicdomain/mark/1.0/"
    code = fam[3:].lower()  # "by-nc"
    if not re.search(r"\d\.\d$", spdx):  # version not stated: point at the family, never guess a version
        return f"https://creativecommons.org/licenses/{code}/"
    return f"https://creativecommons.org/licenses/{code}/{spdx.rsplit('-', 1)[-1]}/"


def attribution(record: Record) -> str:
    """One line crediting a figure: label, authors, year, title, journal, DOI, licence + URL."""
    authors = list(record.get("authors") or [])
    if len(authors) > 3:
        who = ", ".join(authors[:3]) + " et al."
    else:
        who = ", ".join(authors) or "Unknown authors"
    parts = [f"{record.get('label') or record.get('figure_id')} from {who}"]
    if record.get("year"):
        parts[0] += f" ({record['year']})"
    if record.get("title"):
        parts.append(f"\"{record['title']}\"")
    if record.get("journal"):
        parts.append(str(record["journal"]))
    if record.get("doi"):
        parts.append(f"https://doi.org/{record['doi']}")
    spdx = record.get("licence_effective", record.get("licence_spdx"))
    lic_url = licence_url_for(spdx, record.get("licence_effective_url", record.get("licence_url")))
    parts.append(f"Licensed under {spdx or 'an unknown licence'}" + (f" ({lic_url})" if lic_url else ""))
    return ". ".join(parts) + "."


class AttributionEnricher(Enricher):
    name = "attribution"

    def enrich(self, record: Record) -> None:
        record["attribution"] = attribution(record)
