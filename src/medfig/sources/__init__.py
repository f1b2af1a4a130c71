"""Where articles come from: folders, PMC ``.tar.gz`` packages, eLife/MECA zips, single files.

``iter_sources(path)`` finds the articles under a path as small picklable
``ArticleSource`` objects; ``source.open()`` gives an ``ArticlePackage`` whose
member names are safe and whose reads are size-capped. Every failure is a
``medfig.records.SourceError`` naming the file and the problem.
"""

# Importing the container modules registers their openers (medfig.sources.registry).
from medfig.sources import archives, package, pmc_cloud  # noqa: F401
from medfig.sources.discover import iter_sources
from medfig.sources.package import ArticlePackage
from medfig.sources.source import ArticleSource

__all__ = ["ArticlePackage", "ArticleSource", "iter_sources"]
