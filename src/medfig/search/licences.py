"""Licence classes for the search filter, from SPDX ids.

``commercial`` means reuse *and adaptation* (cropping a panel is an adaptation)
are allowed for any purpose: CC0, public domain, CC BY and CC BY-SA. ND and NC
licences are open but not in that class; an unknown licence is in no class.
"""

from __future__ import annotations

import re

COMMERCIAL_FAMILIES = {"CC0", "CC-BY", "CC-BY-SA", "PDDL", "PD"}


def licence_family(spdx: str | None) -> str | None:
    """``CC-BY-NC-4.0`` -> ``CC-BY-NC``; ``CC0-1.0`` -> ``CC0``; None stays None."""
    if not spdx:
        return None
    return re.sub(r"-\d+(\.\d+)*(-[A-Z]{2,3})?$", "", spdx.upper())


def licence_tags(spdx: str | None) -> list[str]:
    """Every filter value that selects this licence: the id, its family, and ``cc`` / ``commercial``."""
    if not spdx:
        return ["unknown"]
    family = licence_family(spdx)
    tags = {spdx.upper(), family}
    if family and (family.startswith("CC-") or family == "CC0"):
        tags.add("CC")
    if family in COMMERCIAL_FAMILIES:
        tags.add("COMMERCIAL")
    return sorted(t for t in tags if t)


def licence_name(spdx: str | None) -> str:
    """Human form for an attribution line: ``CC-BY-4.0`` -> ``CC BY 4.0``."""
    if not spdx:
        return "licence unknown"
    match = re.match(r"^(CC0|CC-[A-Z-]+?)-(\d+(?:\.\d+)*)$", spdx, re.IGNORECASE)
    if match:
        return f"{re.sub(r'^CC-', 'CC ', match.group(1).upper())} {match.group(2)}"
    return re.sub(r"^CC-", "CC ", spdx)
