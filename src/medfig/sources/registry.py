"""Openers by source kind: how an :class:`~medfig.sources.source.ArticleSource` becomes a package.

Each container module registers the kinds it opens when it is imported (``package``:
folder and file; ``archives``: tar and zip, MECA included; ``pmc_cloud``: pmc-cloud), and
``ArticleSource.open()`` looks the opener up here, so no module has to import the
others back. Importing :mod:`medfig.sources` imports every opener module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from medfig.records import SourceError

# ArticleSource -> ArticlePackage; typed loosely because this leaf imports neither module.
Opener = Callable[[Any], Any]

_OPENERS: dict[str, Opener] = {}


def register_opener(kind: str, opener: Opener) -> None:
    """Make ``opener`` the one for sources of ``kind``."""
    _OPENERS[kind] = opener


def open_source(source: Any) -> Any:
    """Open ``source`` with the opener of its kind; raises SourceError for an unknown kind."""
    opener = _OPENERS.get(source.kind)
    if opener is None:
        raise SourceError(f"{source.container}: unknown source kind {source.kind!r}")
    return opener(source)
