"""Where articles come from: folders, PMC ``.tar.gz`` packages, eLife/MECA zips, single files.

``iter_sources(path)`` finds the articles under a path as small picklable
``ArticleSource`` objects; ``source.open()`` gives an ``ArticlePackage`` whose
member names are safe and whose reads are size-capped. Every failure is a
``medfig.records.SourceError`` naming the file and the problem.
"""

from medfig.sources.discover import iter_sources
from medfig.sources.package import ArticlePackage
from medfig.sources.source import ArticleSource

__all__ = ["ArticlePackage", "ArticleSource", "iter_sources"]
