"""One page of results: diversified per figure and per article, with honest counts.

A ranking is a list of documents (panels or whole figures) best first. Shown as is, one compound
figure's five panels, or one article's figures, fill the first page. A page here takes documents in
rank order but at most ``max_per_figure`` panels of one figure and ``max_per_article`` documents of
one article; documents over a cap move to a later page instead (nothing is dropped, and when the
remaining documents cannot fill a page under the caps the page is filled in rank order). With
``one_per_figure`` (as Semantic Scholar's figure search) each figure appears once, as its best-ranked
panel, and the counts are of figures. ``diversify=False`` shows the raw ranking.

Counts are of everything that matched (BM25: at least one query word; dense: above the index's
floor, see ``store.dense_floor``), never of the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_PER_FIGURE = 2  # panels of one figure on a page: a figure is worth a look, its siblings are one click away
MAX_PER_ARTICLE = 3
MAX_PER_PAGE = 100


@dataclass(slots=True)
class PageRequest:
    page: int = 1
    per_page: int = 10
    one_per_figure: bool = False
    diversify: bool = True
    max_per_figure: int = MAX_PER_FIGURE
    max_per_article: int = MAX_PER_ARTICLE

    def depth(self) -> int:
        """How many ranked candidates each retriever must return to fill this page after diversifying."""
        return max(100, 4 * self.page * self.per_page)


@dataclass(slots=True)
class SearchPage:
    """``hits``: this page's results. ``total``: every matching document (figures when one_per_figure);
    ``figures`` / ``articles``: how many distinct ones match."""

    query: str
    hits: list = field(default_factory=list)
    total: int = 0
    figures: int = 0
    articles: int = 0
    page: int = 1
    per_page: int = 10
    one_per_figure: bool = False

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page)) if self.total else 0

    def summary(self) -> str:
        if not self.total:
            return f"no panels or figures match {self.query!r}"
        noun = ("matching figure" if self.one_per_figure else "matching panel/figure") + ("" if self.total == 1 else "s")
        noun = noun.replace("panel/figures", "panels/figures")
        first = (self.page - 1) * self.per_page + 1
        shown = f"{first}-{first + len(self.hits) - 1}" if self.hits else "none"
        return (f"{self.total} {noun} ({self.figures} figures in {self.articles} articles); "
                f"page {self.page} of {self.pages}, results {shown}")


def one_per_figure(ranked: list[int], figure_of: dict[int, tuple]) -> list[int]:
    """The best-ranked document of each figure, in rank order."""
    seen, out = set(), []
    for doc_id in ranked:
        figure = figure_of[doc_id]
        if figure not in seen:
            seen.add(figure)
            out.append(doc_id)
    return out


def paginate(ranked: list[int], figure_of: dict[int, tuple], request: PageRequest) -> list[int]:
    """The doc ids of page ``request.page`` (diversified unless asked not to)."""
    if not request.diversify or request.one_per_figure:
        start = (request.page - 1) * request.per_page
        return ranked[start:start + request.per_page]
    remaining = list(ranked)
    page: list[int] = []
    for _ in range(request.page):
        page, taken, per_figure, per_article = [], set(), {}, {}
        for doc_id in remaining:
            if len(page) == request.per_page:
                break
            figure = figure_of[doc_id]
            article = figure[0]
            if per_figure.get(figure, 0) < request.max_per_figure and \
                    per_article.get(article, 0) < request.max_per_article:
                page.append(doc_id)
                taken.add(doc_id)
                per_figure[figure] = per_figure.get(figure, 0) + 1
                per_article[article] = per_article.get(article, 0) + 1
        if len(page) < request.per_page:  # the caps cannot fill the page: fill it in rank order
            for doc_id in remaining:
                if len(page) == request.per_page:
                    break
                if doc_id not in taken:
                    page.append(doc_id)
                    taken.add(doc_id)
            position = {d: i for i, d in enumerate(remaining)}
            page.sort(key=position.__getitem__)
        remaining = [d for d in remaining if d not in taken]
    return page
