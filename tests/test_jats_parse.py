"""parse_jats on the real corpus in ../shared/data (values checked by hand against the XML) and on bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from medfig.jats.metadata import normalise_pmcid
from medfig.jats.parse import parse_jats
from medfig.records import JatsError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
PACKAGES = DATA / "jats_pdf_figure_packages"
XML_ONLY = DATA / "jats_xml_only"
ELIFE = DATA / "elife_xml_pdf_pairs"
NIH = PACKAGES / "PMC10802347_partial_oa_package"
NIH_XML = NIH / "nihpp-2023.12.31.573776v1.nxml"


def squash(text: str | None) -> str:
    return "".join((text or "").split())


_UNSCRIPT = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e"
                          "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e\u2212",
                          "0123456789+-=()0123456789+-=()-")


def plain(text: str | None) -> str:
    """Text without the typography medfig writes for <sup>/<sub> (10⁷, SUV_{max}), whitespace squashed:
    what ``itertext()`` of the XML gives (minus signs as '-' on both sides)."""
    text = re.sub(r"[\^_]\{([^{}]*)\}", r"\1", text or "")
    return squash(re.sub(r"[\^_](\S)", r"\1", text).translate(_UNSCRIPT))


def real_xml_files() -> list[Path]:
    if not DATA.is_dir():  # fail, never skip: a missing corpus must not look like a pass
        pytest.fail(f"real test data not found at {DATA}")
    return sorted(
        [*HINDAWI.glob("*/fulltext.xml"), *XML_ONLY.glob("*/*.xml"), *XML_ONLY.glob("*/*.nxml"),
         *PACKAGES.glob("*/*.nxml"), *PACKAGES.glob("elife-*/*.xml"), *PACKAGES.glob("*/content/*.xml"),
         *ELIFE.glob("*/*.xml")]
    )


def members(folder: Path) -> list[str]:
    """Package member names (POSIX, relative) of a folder, as a source would list them."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def parse_file(path: Path, package: Path | None = None):
    package = package or path.parent
    return parse_jats(
        path.read_bytes(),
        key=package.name,
        xml_file=path.relative_to(package).as_posix(),
        package_files=members(package),
    )


def fig_elements(path: Path) -> list[etree._Element]:
    root = etree.fromstring(path.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True))
    return root.xpath("//*[local-name()='fig']")


@pytest.fixture(scope="module")
def hindawi() -> dict[str, object]:
    files = sorted(HINDAWI.glob("*/fulltext.xml"))
    assert len(files) == 30, f"expected 30 Hindawi articles under {HINDAWI}"
    return {f.parent.name: parse_file(f) for f in files}


# ------------------------------------------------------------------ whole corpus


def test_every_real_article_parses_and_keeps_every_fig():
    files = real_xml_files()
    # 30 Hindawi + 27 PMC (efetch/OAI + nxml) + 4 packages + 3 eLife pairs
    assert len(files) == 64, [f.relative_to(DATA).as_posix() for f in files]
    for path in files:
        article = parse_file(path)
        assert len(article.figures) == len(fig_elements(path)), path
        ids = [f.figure_id for f in article.figures]
        assert len(ids) == len(set(ids)), path
        assert article.title, path
        for figure in article.figures:
            assert figure.licence.source in ("article", "figure"), path


def test_hindawi_one_figure_per_fig_element_with_full_caption(hindawi):
    total = 0
    for key, article in hindawi.items():
        xml = HINDAWI / key / "fulltext.xml"
        figs = fig_elements(xml)
        assert len(article.figures) == len(figs), key
        for fig, figure in zip(figs, article.figures):
            assert figure.figure_id == fig.get("id")
            caption = fig.find("caption")
            xml_text = squash("".join(caption.itertext())) if caption is not None else ""
            if xml_text:
                assert figure.caption, (key, figure.figure_id)
            assert plain(figure.caption) == plain(xml_text), (key, figure.figure_id)
        total += len(figs)
    assert total == 120


def test_hindawi_figures_without_caption_are_kept_with_a_warning(hindawi):
    # PMC4706934 fig2 and fig3 have a <label> and a <graphic> but no <caption> at all.
    article = hindawi["PMC4706934"]
    fig2 = next(f for f in article.figures if f.figure_id == "fig2")
    assert fig2.caption == "" and fig2.label == "Figure 2"
    assert any("fig2" in w and "empty caption" in w for w in article.warnings)


def test_hindawi_licence_is_cc_by_family_without_version(hindawi):
    for key, article in hindawi.items():
        assert article.licence.spdx == "CC-BY", key
        assert article.licence.source == "article"
        assert article.licence.url is None
        assert "Creative Commons Attribution License" in article.licence.text
        for figure in article.figures:
            assert (figure.licence.spdx, figure.licence.source) == ("CC-BY", "article")


def test_hindawi_fig_xrefs_in_running_text(hindawi):
    assert sum(a.n_fig_xrefs for a in hindawi.values()) == 161
    assert hindawi["PMC4738740"].n_fig_xrefs == 9


# ------------------------------------------------------------------ hand-checked articles


@pytest.mark.parametrize(
    ("path", "n_figures", "n_tables"),
    [
        ("pmc_hindawi_xml_pdf/PMC4738934/fulltext.xml", 9, 0),
        ("pmc_hindawi_xml_pdf/PMC4691483/fulltext.xml", 8, 2),
        ("pmc_hindawi_xml_pdf/PMC4735909/fulltext.xml", 0, 2),
        ("pmc_hindawi_xml_pdf/PMC4709619/fulltext.xml", 3, 6),
        ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.xml", 31, 1),
        ("elife_xml_pdf_pairs/elife-00777-vor-r1/elife-00777.xml", 4, 1),
        ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.xml", 7, 1),
        ("jats_xml_only/illumination-k_pubmed-client/PMC9000000.xml", 14, 11),
        ("jats_xml_only/illumination-k_pubmed-client/PMC9500000.xml", 5, 1),  # incl. graphical abstract
        ("jats_xml_only/titipata_pubmed_parser/1471-2180-11-174.nxml", 4, 3),
        ("jats_pdf_figure_packages/PMC10802347_partial_oa_package/nihpp-2023.12.31.573776v1.nxml", 4, 0),
        ("jats_pdf_figure_packages/medrxiv-24301711_meca/content/24301711.xml", 1, 4),
    ],
)
def test_figure_and_table_counts(path, n_figures, n_tables):
    article = parse_file(DATA / path)
    assert (len(article.figures), len(article.tables)) == (n_figures, n_tables)


def test_hindawi_metadata(hindawi):
    article = hindawi["PMC4657150"]
    assert article.pmcid == "PMC4657150"  # written as bare digits, pub-id-type="pmcid"
    assert article.pmid is None
    assert article.doi == "10.1155/2016/8752821"
    assert article.journal == "Oxidative Medicine and Cellular Longevity"
    assert article.year == 2015  # epub 2015-11-10 wins over ppub 2016
    assert article.article_type == "research-article"
    assert article.title.startswith("Induction of Expression of p75 Neurotrophin Receptor Intracellular Domain")
    assert article.authors == ["Yaoli Pu Yang", "Louis Lotta", "Gisela Beutner", "Xingguo Li", "Nina F. Schor"]
    radiology = hindawi["PMC4738740"]
    assert radiology.title == "Detection of Myofascial Herniation on Dynamic Sonography and Magnetic Resonance Imaging"
    assert radiology.year == 2016 and radiology.article_type == "case-report"
    assert radiology.authors[:2] == ["Sanjay M. Khaladkar", "Sushen Kumar Kondapavuluri"]


def test_pmc_nxml_metadata():
    article = parse_file(NIH_XML)
    assert article.pmcid == "PMC10802347"  # pub-id-type="pmc"
    assert article.pmid == "38260464"
    assert article.doi == "10.1101/2023.12.31.573776"
    assert article.journal == "bioRxiv"
    assert article.year == 2024
    assert article.title == "Mitochondrial choline import regulates purine nucleotide pools via SLC25A48"
    assert article.authors[0] == "Anthony R.P. Verkerke" and len(article.authors) == 5


def test_oai_pmh_wrapped_article_in_jats_namespace():
    path = XML_ONLY / "illumination-k_pubmed-client" / "PMC10200000.xml"
    assert etree.parse(str(path)).getroot().tag == "{http://www.openarchives.org/OAI/2.0/}OAI-PMH"
    article = parse_file(path)
    assert article.pmcid == "PMC10200000"
    assert article.pmid == "37209189"
    assert article.doi == "10.1007/s40820-023-01106-5"
    assert article.journal == "Nano-Micro Letters"
    assert article.year == 2023
    assert article.licence.spdx == "CC-BY-4.0"
    assert [f.figure_id for f in article.figures] == ["Fig1", "Fig2", "Fig3", "Fig4", "Fig5"]
    assert article.figures[0].label == "Fig. 1"
    assert article.figures[0].caption.startswith("Setup of the MSITS. a Schematic representation of MSITS")


# ------------------------------------------------------------------ captions


def test_full_caption_single_paragraph_exact():
    article = parse_file(HINDAWI / "PMC4738740" / "fulltext.xml")
    fig1 = article.figures[0]
    assert fig1.label == "Figure 1" and fig1.caption_title is None
    assert fig1.caption == (
        "(a) Longitudinal section on the anterolateral aspect of left upper leg superior to the site of muscle "
        "hernia showing intact echogenic fascia with underlying tibialis anterior muscle. (b) Transverse section "
        "on the anterolateral aspect of left upper leg in standing position showing a defect in echogenic fascia "
        "(marked by arrow) with an increase in herniation of underlying tibialis anterior muscle through the "
        "defect. (c) Transverse section on the anterolateral aspect of left upper leg in standing position "
        "showing the defect of size 9.9 mm in echogenic fascia with herniation of underlying tibialis anterior "
        "muscle through the defect. (d) Longitudinal section on the anterolateral aspect of left upper leg at "
        "rest at the site of muscle hernia showing a defect in echogenic fascia with herniation of underlying "
        "tibialis anterior muscle through the defect (marked by arrow)."
    )


def test_full_caption_title_and_paragraph():
    fig = parse_file(PACKAGES / "elife-19405_pmc_deposit" / "elife-19405.xml").figures[0]
    assert fig.label == "Figure 1"
    assert fig.caption_title == "Membrane invaginations and cell division."
    assert fig.caption.startswith(
        "Membrane invaginations and cell division. Schematic diagram showing two neighboring cells in the "
        "developing embryo of a sea squirt. (A) Before the cells divide"
    )
    assert fig.caption.endswith("Negishi et al. propose that the membrane invagination holds the centrosome to orient the spindle.")
    assert "Figure 1." not in fig.caption  # the label is not caption text


def test_caption_keeps_every_paragraph():
    # pubmed_parser keeps the first <p> only, which here is just the title-like first line.
    fig1 = parse_file(XML_ONLY / "illumination-k_pubmed-client" / "PMC9500000.xml").figures[1]
    assert fig1.figure_id == "fig1"
    assert fig1.caption.startswith("High-throughput screening strategy and validation (A) Schematic illustration")
    assert "(B) A deep neural network can be used as an efficient classifier" in fig1.caption
    assert fig1.caption.endswith("The neural network correctly identifies the rescued HTT^{−/−} + HTT-OE as WT.")

    nih = parse_file(NIH_XML).figures[0]
    assert nih.caption_title == "SLC25A48 is required for optimal brown adipose tissue thermogenesis."
    assert "B. Proteinase K (PK) assay in brown adipocyte mitochondria." in nih.caption
    assert nih.caption.endswith(
        "J. Relative quantified protein abundance of UCP1 in brown fat from control and SLC25A48-KO mice. "
        "N = 4 per group. Statistic: unpaired t-test. Bars represent mean and error shown as s.e.m., individual values presented."
    )

    ehp = parse_file(XML_ONLY / "titipata_pubmed_parser" / "ehp-116-1694.nxml").figures[0]
    assert ehp.caption == (
        "Exposure to PBDE-47 depressed circulating concentrations of total T₄ in males and females (A), "
        "but had no effect on total T₃ in males (B). *p < 0.05 compared with control."
    )


def test_caption_only_paragraph_and_elife_doi_line_dropped():
    medrxiv = parse_file(PACKAGES / "medrxiv-24301711_meca" / "content" / "24301711.xml", PACKAGES / "medrxiv-24301711_meca")
    fig = medrxiv.figures[0]
    assert (fig.figure_id, fig.label, fig.fig_type) == ("fig1", "Figure 1", "figure")
    assert fig.caption == "Flow chart of participant selection for this study"
    assert medrxiv.tables[0].caption.startswith("Baseline characteristics of the study participants")

    elife = parse_file(ELIFE / "elife-04177-vor-r1" / "elife-04177.xml")
    fig1 = elife.figures[0]
    assert "Irf3^{−/−}" in fig1.caption  # <italic> kept as text, <sup> as a superscript (issue 17 item 8)
    assert fig1.caption.endswith("All in vitro killing assays were performed at least three times with high reproducibility. Represented as means ± SD.")
    assert "dx.doi.org" not in fig1.caption


# ------------------------------------------------------------------ licences


@pytest.mark.parametrize(
    ("path", "spdx", "n_figures"),  # n_figures: the <fig> elements in the file, so the inheritance check sees some
    [
        ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.xml", "CC-BY-4.0", 31),
        ("jats_pdf_figure_packages/elife-00353_vor/elife-00353-v1.xml", "CC-BY-3.0", 1),
        ("jats_pdf_figure_packages/elife-19405_pmc_deposit/elife-19405.xml", "CC-BY-4.0", 1),
        ("jats_pdf_figure_packages/PMC10802347_partial_oa_package/nihpp-2023.12.31.573776v1.nxml", "CC-BY-NC-ND-4.0", 4),
        ("jats_pdf_figure_packages/medrxiv-24301711_meca/content/24301711.xml", "CC-BY-4.0", 1),
        ("jats_xml_only/titipata_pubmed_parser/mds526.nxml", "CC-BY-NC-3.0", 2),
        ("jats_xml_only/titipata_pubmed_parser/ehp-116-1694.nxml", "LicenseRef-PDM-1.0", 3),
        ("jats_xml_only/titipata_pubmed_parser/pone.0000217.nxml", "CC-BY", 3),  # NLM 2.3: in <copyright-statement>
        ("jats_xml_only/illumination-k_pubmed-client/PMC4500000.xml", "CC-BY-NC-ND-3.0", 0),  # no figures: licence only
        ("jats_xml_only/illumination-k_pubmed-client/PMC6500000.xml", "CC-BY-4.0", 3),  # not the CC0 data waiver
    ],
)
def test_real_licences(path, spdx, n_figures):
    article = parse_file(DATA / path)
    assert article.licence.spdx == spdx
    assert article.licence.source == "article"
    assert len(article.figures) == n_figures
    assert all(f.licence.spdx == spdx for f in article.figures)


def test_unknown_real_licences_keep_their_text():
    covid = parse_file(XML_ONLY / "illumination-k_pubmed-client" / "PMC9000000.xml").licence
    assert covid.spdx is None and covid.source == "article"
    assert covid.text.startswith("This article is made available via the PMC Open Access Subset")
    bjc = parse_file(XML_ONLY / "titipata_pubmed_parser" / "6605965a.nxml").licence
    assert bjc.spdx is None and bjc.text == "Copyright © 2010 Cancer Research UK"


def test_nih_licence_url_and_text():
    licence = parse_file(NIH_XML).licence
    assert licence.url == "https://creativecommons.org/licenses/by-nc-nd/4.0/"
    assert "Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International License" in licence.text


# ------------------------------------------------------------------ fig-groups, graphics


def test_elife_figure_supplements_point_at_their_main_figure():
    article = parse_file(ELIFE / "elife-04177-vor-r1" / "elife-04177.xml")
    by_id = {f.figure_id: f for f in article.figures}
    assert (by_id["fig1"].parent_id, by_id["fig1"].fig_type) == (None, None)
    assert (by_id["fig1s1"].parent_id, by_id["fig1s1"].fig_type) == ("fig1", "figure-supplement")
    assert by_id["fig1s1"].label == "Figure 1—figure supplement 1"
    assert by_id["fig1s1"].caption_title == "Critical role of IRF5 in the suppression of tumor growth."
    assert by_id["fig2s8"].parent_id == "fig2"
    assert by_id["fig5s6"].parent_id == "fig5"
    supplements = [f for f in article.figures if f.fig_type == "figure-supplement"]
    assert len(supplements) == 25
    assert by_id["fig6"].parent_id is None


def test_fig_group_members_get_the_group_id():
    xml = b"""<article><front><article-meta><title-group><article-title>T</article-title></title-group>
    </article-meta></front><body><fig-group id="G1"><caption><p>Group</p></caption>
    <fig id="a"><caption><p>A</p></caption></fig><fig id="b"><caption><p>B</p></caption></fig></fig-group></body></article>"""
    article = parse_jats(xml, key="k")
    assert [(f.figure_id, f.parent_id, f.caption) for f in article.figures] == [("a", "G1", "A"), ("b", "G1", "B")]


def test_pmc_package_graphics_prefer_jpg_over_gif_thumbnail():
    article = parse_file(NIH_XML)
    files = {f.figure_id: f.graphic_file for f in article.figures}
    assert files == {
        "F1": "nihpp-2023.12.31.573776v1-f0001.gif",  # f0001.jpg is missing from this package
        "F2": "nihpp-2023.12.31.573776v1-f0002.jpg",
        "F3": "nihpp-2023.12.31.573776v1-f0003.jpg",
        "F4": "nihpp-2023.12.31.573776v1-f0004.jpg",
    }
    assert article.figures[1].graphic_href == "nihpp-2023.12.31.573776v1-f0002"
    assert [w for w in article.warnings if "thumbnail" in w] == [
        "figure F1: only a GIF thumbnail 'nihpp-2023.12.31.573776v1-f0001.gif' for graphic 'nihpp-2023.12.31.573776v1-f0001'"
    ]


def test_package_graphics_resolve_in_subfolders_and_without_extension():
    meca = PACKAGES / "medrxiv-24301711_meca"
    fig = parse_file(meca / "content" / "24301711.xml", meca).figures[0]
    assert (fig.graphic_href, fig.graphic_file) == ("24301711v1_fig1.tif", "content/24301711v1_fig1.tif")
    elife = parse_file(PACKAGES / "elife-19405_pmc_deposit" / "elife-19405.xml").figures
    assert [(f.graphic_href, f.graphic_file) for f in elife] == [("elife-19405-fig1", "elife-19405-fig1.tif")]
    vor = parse_file(PACKAGES / "elife-00353_vor" / "elife-00353-v1.xml").figures[0]
    assert vor.graphic_file == "elife-00353-fig1-v1.tif" and vor.label is None


# ------------------------------------------------------------------ bad and synthetic input


def minimal(body: str, permissions: str = "", head: str = "") -> bytes:
    return (
        f'{head}<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article"><front>'
        f"<article-meta><title-group><article-title>T</article-title></title-group>{permissions}</article-meta>"
        f"</front><body>{body}</body></article>"
    ).encode()


def test_malformed_xml_raises_naming_the_file_and_line():
    with pytest.raises(JatsError, match=r"pkg/broken\.xml: malformed XML at line 3"):
        parse_jats(b"<article>\n<front>\n</article>", key="k", xml_file="pkg/broken.xml")
    with pytest.raises(JatsError, match="k: malformed XML"):  # no xml_file: the key names it
        parse_jats(b"", key="k")


def test_non_jats_root_raises():
    with pytest.raises(JatsError, match=r"manifest\.xml: root element <manifest> is not a JATS <article>"):
        parse_jats((PACKAGES / "medrxiv-24301711_meca" / "manifest.xml").read_bytes(), key="k", xml_file="manifest.xml")
    with pytest.raises(JatsError, match="not JATS"):
        parse_jats(b'<article xmlns="http://www.w3.org/1999/xhtml"><p/></article>', key="k", xml_file="x.html")
    with pytest.raises(JatsError, match="holds no JATS <article>"):
        parse_jats(b"<pmc-articleset><error>not found</error></pmc-articleset>", key="k", xml_file="e.xml")


def test_pmc_articleset_wrapper_and_doctype():
    article_xml = minimal('<fig id="f1"><caption><p>Cap</p></caption></fig>')
    wrapped = parse_jats(b"<pmc-articleset>" + article_xml * 2 + b"</pmc-articleset>", key="k")
    assert [f.caption for f in wrapped.figures] == ["Cap"]
    assert "2 articles in <pmc-articleset>: parsed the first only" in wrapped.warnings
    doctype = b'<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving" "JATS-archivearticle1.dtd">\n'
    assert parse_jats(doctype + article_xml, key="k").figures[0].caption == "Cap"


def test_entities_are_not_expanded_and_files_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xml = (
        f'<?xml version="1.0"?><!DOCTYPE article [<!ENTITY xxe SYSTEM "file://{secret}"><!ENTITY lol "lollollol">]>'
        "<article><front><article-meta><title-group><article-title>A&xxe;B&lol;</article-title></title-group>"
        "</article-meta></front></article>"
    ).encode()
    article = parse_jats(xml, key="k")
    assert "TOP-SECRET" not in (article.title or "") and "lol" not in (article.title or "")


def test_named_entities_of_the_unloaded_dtd_become_characters():
    # The DTD is never loaded, so &ndash; is not declared; only standard character names are mapped.
    doctype = b'<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96)" "JATS-archivearticle1.dtd">'
    xml = doctype + minimal('<fig id="f1"><caption><p>5&ndash;10&nbsp;mm &#x2013; ok&unknown;</p></caption></fig>')
    assert parse_jats(xml, key="k").figures[0].caption == "5–10 mm – ok"


def test_empty_caption_gives_empty_string_and_warning():
    article = parse_jats(minimal('<fig id="f1"><label>Figure 1</label><caption><p>  </p></caption></fig>'), key="k")
    assert article.figures[0].caption == ""
    assert article.warnings == ["figure f1: empty caption", "figure f1: no <graphic>"]


def test_missing_graphic_gives_none_and_warning():
    xml = minimal('<fig id="f1"><caption><p>C</p></caption><graphic xlink:href="fig9"/></fig>')
    article = parse_jats(xml, key="k", xml_file="a.nxml", package_files=["a.nxml", "fig1.jpg"])
    assert (article.figures[0].graphic_href, article.figures[0].graphic_file) == ("fig9", None)
    assert "figure f1: graphic 'fig9' not found in the package" in article.warnings
    # without a package listing nothing is resolved and nothing is claimed missing
    assert parse_jats(xml, key="k").warnings == []


def test_best_graphic_of_alternatives_is_chosen():
    xml = minimal(
        '<fig id="f1"><caption><p>C</p></caption><alternatives>'
        '<graphic xlink:href="f1-thumb.gif"/><graphic xlink:href="f1-big"/></alternatives></fig>'
    )
    fig = parse_jats(xml, key="k", package_files=["f1-thumb.gif", "f1-big.png"]).figures[0]
    assert (fig.graphic_href, fig.graphic_file) == ("f1-big", "f1-big.png")


def test_figure_without_id_gets_a_synthetic_one():
    article = parse_jats(minimal("<fig><caption><p>C</p></caption></fig>"), key="k")
    assert article.figures[0].figure_id == "fig-auto-1"
    assert any("fig-auto-1" in w for w in article.warnings)


def test_figure_permissions_override_the_article_licence():
    permissions = (
        '<permissions><license xlink:href="https://creativecommons.org/licenses/by/4.0/">'
        "<license-p>CC BY</license-p></license></permissions>"
    )
    body = (
        '<fig id="own"><caption><p>Reprinted</p></caption><permissions><copyright-statement>'
        "© Elsevier. Reprinted with permission.</copyright-statement></permissions></fig>"
        '<fig id="nc"><caption><p>NC</p></caption><permissions><license>'
        "<license-p>Creative Commons Attribution-NonCommercial 4.0 International</license-p></license></permissions></fig>"
        '<fig id="plain"><caption><p>P</p></caption></fig>'
    )
    article = parse_jats(minimal(body, permissions), key="k")
    licences = {f.figure_id: (f.licence.spdx, f.licence.source) for f in article.figures}
    assert licences == {"own": (None, "figure"), "nc": ("CC-BY-NC-4.0", "figure"), "plain": ("CC-BY-4.0", "article")}
    assert article.figures[0].licence.text == "© Elsevier. Reprinted with permission."
    assert article.figures[2].licence is not article.licence


def test_no_permissions_means_source_none():
    article = parse_jats(minimal('<fig id="f"><caption><p>C</p></caption></fig>'), key="k")
    assert (article.licence.spdx, article.licence.source) == (None, "none")
    assert article.figures[0].licence.source == "none"


def test_inline_markup_and_math_alternatives_in_captions():
    caption = (
        "<caption><title>Title <italic>x</italic></title><p>Value 10<sup>6</sup> "
        '<xref ref-type="fig" rid="f2">Fig. 2B</xref> and <inline-formula><alternatives>'
        "<tex-math>\\documentclass{article}\\alpha</tex-math>"
        '<mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:mi>α</mml:mi></mml:math>'
        '<inline-graphic xlink:href="eq1.gif"/></alternatives></inline-formula>.</p>'
        "<p>Second.</p></caption>"
    )
    fig = parse_jats(minimal(f'<fig id="f1"><label>Figure 1</label>{caption}</fig>'), key="k").figures[0]
    assert fig.caption == "Title x Value 10⁶ Fig. 2B and α. Second."  # not "106": issue 17 item 8
    assert fig.caption_title == "Title x"


def test_fig_xrefs_count_running_text_only():
    body = (
        '<p>See <xref ref-type="fig" rid="f1">Fig. 1</xref> and <xref ref-type="bibr" rid="b1">1</xref>.</p>'
        '<fig id="f1"><caption><p>As in <xref ref-type="fig" rid="f1">Fig. 1</xref></p></caption></fig>'
    )
    xml = minimal(body).replace(
        b"</body>",
        b'</body><back><app-group><app id="app1"><p><xref ref-type="fig" rid="f1">Fig. 1</xref></p></app></app-group>'
        b'<ref-list><ref id="b1"><mixed-citation>x</mixed-citation></ref></ref-list></back>',
    )
    assert parse_jats(xml, key="k").n_fig_xrefs == 2


def test_normalise_pmcid():
    assert [normalise_pmcid(v) for v in ("4657150", "PMC4657150", "pmc4657150", " PMC1 ", "abc", None)] == [
        "PMC4657150", "PMC4657150", "PMC4657150", "PMC1", None, None,
    ]


# ------------------------------------------------------------------ inline references


def test_inline_refs_are_attached_to_their_figures(hindawi):
    article = hindawi["PMC4657150"]
    fig1 = next(f for f in article.figures if f.figure_id == "fig1")
    assert fig1.inline_refs
    assert all(ref.figure_id == "fig1" for ref in fig1.inline_refs)
    for figure in article.figures:
        assert all(ref.figure_id == figure.figure_id for ref in figure.inline_refs)
