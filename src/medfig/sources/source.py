"""``ArticleSource``: a small, picklable pointer to one article.

Sources are made in the parent process and shipped to workers, so they carry
only strings; opening (and any I/O beyond a stat) happens in the worker, through
the opener registered for the source's kind (:mod:`medfig.sources.registry`).
Fingerprints are computed in :mod:`medfig.sources.fingerprint`.
"""

from __future__ import annotations

from dataclasses import dataclass

from medfig.sources.registry import open_source

# ArticlePackage (medfig.sources.package) appears in annotations only, unimported:
# package imports this module, and this one stays below it.
KINDS = ("folder", "tar", "zip", "file", "pmc-cloud")


@dataclass(frozen=True, kw_only=True)
class ArticleSource:
    """Where one article lives.

    ``key`` is the article id in a build (unique within one input); ``container``
    the folder, archive or file path (for error messages); ``prefix`` the member
    prefix of this article inside an archive holding several; ``fingerprint`` a
    cheap change detector over names, sizes and mtimes of the files involved.
    """

    key: str
    container: str
    kind: str
    prefix: str = ""
    fingerprint: str
    pmcid: str | None = None  # when the listing knows it (PMC cloud metadata)
    status: str = ""  # "retracted" or "withdrawn" when the listing says so: the article leaves the dataset
    updated: str | None = None  # last-updated date from the listing (ISO 8601), for incremental updates
    endpoint: str | None = None  # S3-compatible endpoint for remote sources (None: AWS)
    # Problems discovery found with this source (a key it had to change): the opened package
    # starts its warnings with these, so they reach the article's ``warnings`` column.
    warnings: tuple[str, ...] = ()

    def open(self) -> ArticlePackage:
        """Open the container; raises SourceError when it cannot be opened or listed."""
        return open_source(self)
