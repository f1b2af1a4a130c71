"""Relevance and honesty of search results (issue 17, item 1): a floor, diversity, paging, counts,
and modality from a document's own evidence."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
from test_search_fixtures import demo_dataset

from medfig.cli import main
from medfig.search import Filters, PageRequest, SearchDoc, SearchIndex, build_index
from medfig.search.documents import documents_from_dataset
from medfig.search.store import null_queries


def _open():
    return SearchIndex.open(demo_dataset()[1])


def test_nonsense_matches_nothing_and_says_so(capsys):
    index = _open()
    try:
        for mode in ("fused", "bm25", "dense"):
            page = index.search_page("xyzzyplugh", mode=mode)
            assert page.total == 0 and page.hits == [] and page.pages == 0, mode
            assert index.search("xyzzyplugh", k=24, mode=mode) == []
        # a real query still finds panels, through both retrievers
        page = index.search_page("haematoxylin eosin staining")
        assert page.total > 0 and any(h.bm25_rank for h in page.hits) and any(h.dense_rank for h in page.hits)
    finally:
        index.close()
    assert main(["search", str(demo_dataset()[1]), "xyzzyplugh"]) == 0
    assert "no panels or figures match 'xyzzyplugh'" in capsys.readouterr().out


def test_dense_floor_is_the_indexs_own_nonsense_baseline():
    """The stored floor is the best cosine any document reaches to the meaningless strings, so every
    one of them is below it, and it sits below what real caption words reach."""
    index = _open()
    try:
        from medfig.search.encoder import query_encoder

        encoder = query_encoder(index.index_dir)
        null = index.vectors @ encoder.encode(null_queries()).T
        assert index.dense_floor == float(null.max())
        assert index.dense(null_queries()[5], n=100) == []
        caption = documents_from_dataset(demo_dataset()[1])[0].caption
        assert float((index.vectors @ encoder.encode([caption])[0]).max()) > index.dense_floor
    finally:
        index.close()


def test_pages_are_diversified_and_counts_are_of_all_matches():
    index = _open()
    try:
        query = "cyst"
        raw = index.search(query, k=5)
        assert max(Counter((h.doc.article_key, h.doc.figure_id) for h in raw).values()) > 2  # the flood
        per_page = 5
        first = index.search_page(query, PageRequest(page=1, per_page=per_page))
        assert first.total > per_page and first.pages == -(-first.total // per_page)
        seen = []
        for number in range(1, first.pages + 1):
            page = index.search_page(query, PageRequest(page=number, per_page=per_page))
            assert page.total == first.total
            assert [h.rank for h in page.hits] == list(range((number - 1) * per_page + 1,
                                                             (number - 1) * per_page + 1 + len(page.hits)))
            seen += [h.doc_id for h in page.hits]
            if number == 1:
                figures = Counter((h.doc.article_key, h.doc.figure_id) for h in page.hits)
                articles = Counter(h.doc.article_key for h in page.hits)
                assert max(figures.values()) <= 2 and max(articles.values()) <= 3, (figures, articles)
        assert len(seen) == len(set(seen)) == first.total  # every match once, on some page
        everything = index.search_page(query, PageRequest(per_page=100, diversify=False))
        assert [h.doc_id for h in everything.hits] == [h.doc_id for h in index.search(query, k=100)]
        # one result per figure: figures are the unit, and counted as such
        grouped = index.search_page(query, PageRequest(per_page=100, one_per_figure=True))
        keys = [(h.doc.article_key, h.doc.figure_id) for h in grouped.hits]
        assert len(keys) == len(set(keys)) == grouped.total == first.figures < first.total
    finally:
        index.close()


def test_cli_paging_and_one_per_figure(capsys):
    dataset = str(demo_dataset()[1])
    assert main(["search", dataset, "cyst", "--per-page", "4", "--page", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["page"] == 2 and len(data["results"]) == 4 and data["total"] > 8
    assert [r["rank"] for r in data["results"]] == [5, 6, 7, 8]
    assert main(["search", dataset, "cyst", "--one-per-figure"]) == 0
    out = capsys.readouterr().out
    assert f"{data['figures']} matching figures" in out.splitlines()[0]


def _doc(key, figure, caption, subcaption=None, label=None):
    from medfig.search.modality import document_modalities

    return SearchDoc(doc_key=f"{key}/{figure}" + (f"#{label}" if label else ""), kind="panel" if label else "figure",
                     article_key=key, figure_id=figure, panel_label=label, label="Figure 1", caption=caption,
                     subcaption=subcaption, modalities=document_modalities(None, subcaption, None)
                     or document_modalities(None, None, caption))


def test_a_later_histology_clause_does_not_make_mri_panels_histology(tmp_path):
    mri = "MRI of the pelvic mass, before and after contrast (a, b). Definitive histology: leiomyosarcoma."
    docs = [_doc("PMC1", "F1", mri, "(a) before contrast", "a"), _doc("PMC1", "F1", mri, "(b) after contrast", "b"),
            _doc("PMC2", "F2", "Histology of the resected pelvic leiomyosarcoma (H&E, x200)."),
            _doc("PMC3", "F3", "Photomicrograph: smooth muscle bundles of the tumour.")]
    assert [d.modalities for d in docs] == [["MRI"], ["MRI"], ["histology"], ["microscopy"]]
    build_index(tmp_path, index_dir=tmp_path / "search", docs=docs, dense=False, progress=False)
    index = SearchIndex.open(tmp_path)
    try:
        hits = index.search("histology of the leiomyosarcoma", k=10)
        ranked = [h.doc.doc_key for h in hits]
        assert ranked[0] == "PMC2/F2" and set(ranked[1:]) == {"PMC1/F1#a", "PMC1/F1#b"}, ranked
        assert [h.doc.doc_key for h in index.search("leiomyosarcoma", k=10, filters=Filters(modality="histology"))] \
            == ["PMC2/F2"]
        assert {h.doc.doc_key for h in index.search("leiomyosarcoma", k=10, filters=Filters(modality="mri"))} \
            == {"PMC1/F1#a", "PMC1/F1#b"}
        assert np.isclose(index.dense_floor, -1)  # no vectors: no dense side, no floor
    finally:
        index.close()
