"""Licence reading: CC URLs, licence prose, and the order of evidence in <permissions>."""

from __future__ import annotations

import pytest
from lxml import etree

from medfig.jats.graphics import resolve_graphic
from medfig.jats.licence import PUBLIC_DOMAIN_MARK, licence_from_permissions, spdx_from_text, spdx_from_url

NS = 'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ali="http://www.niso.org/schemas/ali/1.0/"'


def permissions(inner: str) -> etree._Element:
    return etree.fromstring(f"<permissions {NS}>{inner}</permissions>")


@pytest.mark.parametrize(
    ("url", "spdx"),
    [
        ("http://creativecommons.org/licenses/by/4.0/", "CC-BY-4.0"),
        ("https://creativecommons.org/licenses/by/4.0", "CC-BY-4.0"),
        ("https://creativecommons.org/licenses/by/4.0/legalcode", "CC-BY-4.0"),
        ("https://creativecommons.org/licenses/by/4.0/deed.en", "CC-BY-4.0"),
        ("http://www.creativecommons.org/licenses/by/2.0", "CC-BY-2.0"),
        ("http://creativecommons.org/licenses/by/2.5/", "CC-BY-2.5"),
        ("http://creativecommons.org/licenses/by-nc/3.0", "CC-BY-NC-3.0"),
        ("https://creativecommons.org/licenses/by-sa/4.0/", "CC-BY-SA-4.0"),
        ("https://creativecommons.org/licenses/by-nd/4.0/", "CC-BY-ND-4.0"),
        ("https://creativecommons.org/licenses/by-nc-sa/4.0/", "CC-BY-NC-SA-4.0"),
        ("https://creativecommons.org/licenses/by-nc-nd/4.0/", "CC-BY-NC-ND-4.0"),
        ("http://creativecommons.org/licenses/by-nc-nd/3.0/", "CC-BY-NC-ND-3.0"),
        ("http://creativecommons.org/licenses/by-nd-nc/1.0/", "CC-BY-NC-ND-1.0"),  # 1.0 spelled it this way
        ("http://creativecommons.org/licenses/by/1.0/", "CC-BY-1.0"),
        ("http://creativecommons.org/licenses/by/3.0/us/", "CC-BY-3.0"),  # ported -> unported id
        ("https://creativecommons.org/licenses/by/3.0/igo/", "CC-BY-3.0"),
        ("http://creativecommons.org/licenses/by/2.1/jp/", "CC-BY"),  # no unported 2.1: family only
        ("HTTPS://CreativeCommons.org/Licenses/BY-NC/4.0/", "CC-BY-NC-4.0"),
        ("http://creativecommons.org/publicdomain/zero/1.0/", "CC0-1.0"),
        ("https://creativecommons.org/publicdomain/mark/1.0/", PUBLIC_DOMAIN_MARK),
        ("http://creativecommons.org/licenses/by-nd-sa/4.0/", None),  # not a licence
        ("https://www.elsevier.com/tdm/userlicense/1.0/", None),
        ("http://www.springer.com/tdm", None),
    ],
)
def test_spdx_from_url(url, spdx):
    assert spdx_from_url(url) == spdx


@pytest.mark.parametrize(
    ("text", "spdx"),
    [
        # Hindawi, PLOS: a family without a version
        ("This is an open access article distributed under the Creative Commons Attribution License, which "
         "permits unrestricted use, distribution, and reproduction in any medium", "CC-BY"),
        ("distributed under the terms of the Creative Commons Attribution Licence, which permits", "CC-BY"),
        ("Attribution-NonCommercial-NoDerivatives 4.0", "CC-BY-NC-ND-4.0"),
        ("This work is licensed under a Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International License",
         "CC-BY-NC-ND-4.0"),
        ("licensed under a Creative Commons Attribution 4.0 International License, which permits use", "CC-BY-4.0"),
        ("licensed under a Creative Commons Attribution-NonCommercial 4.0 International License", "CC-BY-NC-4.0"),
        ("Creative Commons Attribution-Noncommercial-Share Alike 3.0 Unported License", "CC-BY-NC-SA-3.0"),
        ("the Creative Commons Attribution-NoDerivs 2.5 License", "CC-BY-ND-2.5"),
        ("the Creative\nCommons Attribution Non-Commercial No Derivatives (by-nc-nd) License.", "CC-BY-NC-ND"),
        ("the Creative Commons Attribution Non-Commercial License (http://...), which permits", "CC-BY-NC"),
        ("available under a Creative Commons License (Attribution 4.0 International), CC BY 4.0, as described", "CC-BY-4.0"),
        ("CC BY 4.0", "CC-BY-4.0"),
        ("CC-BY", "CC-BY"),
        ("CC-BY-NC", "CC-BY-NC"),
        ("an open access article under the CC BY-NC-ND license", "CC-BY-NC-ND"),
        ("cc-by-sa 3.0", "CC-BY-SA-3.0"),
        ("CC0 1.0 Universal", "CC0-1.0"),
        ("This work is marked with the Public Domain Mark 1.0", PUBLIC_DOMAIN_MARK),
        # not a recognisable licence: never guess
        ("This article is made available via the PMC Open Access Subset for unrestricted research re-use", None),
        ("Publication of EHP lies in the public domain and is therefore without copyright.", None),
        ("Reproduced with attribution to the original authors.", None),
        ("This work is free of known copyright restrictions.", None),
        ("open-access", None),
        ("", None),
    ],
)
def test_spdx_from_text(text, spdx):
    assert spdx_from_text(text) == spdx


def test_href_on_license_wins_over_vaguer_words():
    licence = licence_from_permissions(
        permissions(
            '<license xlink:href="http://creativecommons.org/licenses/by/4.0/"><license-p>Distributed under the '
            '<ext-link ext-link-type="uri" xlink:href="http://creativecommons.org/licenses/by/4.0/">Creative Commons '
            "Attribution License</ext-link>, which permits unrestricted use.</license-p></license>"
        ),
        "article",
    )
    assert (licence.spdx, licence.url, licence.source) == ("CC-BY-4.0", "http://creativecommons.org/licenses/by/4.0/", "article")
    assert licence.text == "Distributed under the Creative Commons Attribution License, which permits unrestricted use."


def test_ali_license_ref_and_ext_link():
    ali = licence_from_permissions(
        permissions(
            '<license><ali:license_ref specific-use="textmining">https://creativecommons.org/licenses/by-nc/4.0/'
            "</ali:license_ref><license-p>Some words.</license-p></license>"
        ),
        "article",
    )
    assert (ali.spdx, ali.url, ali.text) == ("CC-BY-NC-4.0", "https://creativecommons.org/licenses/by-nc/4.0/", "Some words.")
    link = licence_from_permissions(
        permissions(
            '<license><license-p>See <ext-link xlink:href="https://creativecommons.org/licenses/by-sa/4.0/">this</ext-link>'
            "</license-p></license>"
        ),
        "figure",
    )
    assert (link.spdx, link.source) == ("CC-BY-SA-4.0", "figure")


def test_first_url_in_text_wins_over_a_later_data_waiver():
    licence = licence_from_permissions(
        permissions(
            "<license><license-p>Creative Commons Attribution 4.0 International License "
            "(http://creativecommons.org/licenses/by/4.0/). The Creative Commons Public Domain Dedication waiver "
            "(http://creativecommons.org/publicdomain/zero/1.0/) applies to the data.</license-p></license>"
        ),
        "article",
    )
    assert licence.spdx == "CC-BY-4.0"


def test_license_type_names_a_licence():
    licence = licence_from_permissions(permissions('<license license-type="cc-by-nc"><license-p>Open.</license-p></license>'), "article")
    assert licence.spdx == "CC-BY-NC"


def test_unknown_licence_keeps_url_and_text():
    licence = licence_from_permissions(
        permissions(
            '<copyright-statement>© 2020 Elsevier</copyright-statement><license xlink:href="https://www.elsevier.com/tdm/userlicense/1.0/">'
            "<license-p>This article is made available under the Elsevier license.</license-p></license>"
        ),
        "article",
    )
    assert licence.spdx is None and not licence.known
    assert licence.url == "https://www.elsevier.com/tdm/userlicense/1.0/"
    assert licence.text == "This article is made available under the Elsevier license."
    assert licence.source == "article"


def test_copyright_only_is_unknown_and_keeps_the_statement():
    licence = licence_from_permissions(permissions("<copyright-statement>© 2010 Cancer Research UK</copyright-statement>"), "figure")
    assert (licence.spdx, licence.text, licence.source) == (None, "© 2010 Cancer Research UK", "figure")


def test_license_with_nlm_p_and_comment():
    # BMC NLM-3.0 files put <p> (not <license-p>) in <license>, next to an RDF comment.
    licence = licence_from_permissions(
        permissions(
            '<license license-type="open-access"><p>This is an Open Access article distributed under the terms of the '
            "Creative Commons Attribution License</p><!--<rdf>http://creativecommons.org/licenses/by-nc/2.0</rdf>--></license>"
        ),
        "article",
    )
    assert licence.spdx == "CC-BY"
    assert "rdf" not in licence.text


def test_no_permissions():
    licence = licence_from_permissions(None, "article")
    assert (licence.spdx, licence.url, licence.text, licence.source) == (None, None, None, "none")


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("fig1", "fig1.tif"),
        ("fig1.tif", "fig1.tif"),
        ("FIG1.TIF", "fig1.tif"),
        ("fig1.jpg", "fig1.jpg"),  # named exactly: what the publisher meant
        ("elife-19405-fig1", "elife-19405-fig1.tif"),
        ("medicine-4-e1.jpg", "sub/medicine-4-e1.jpg"),
        ("nihpp-2023.12.31.573776v1-f0002", "nihpp-2023.12.31.573776v1-f0002.jpg"),
        ("nihpp-2023.12.31.573776v1-f0001", "nihpp-2023.12.31.573776v1-f0001.gif"),  # thumbnail as last resort
        ("nihpp-2023.12.31.573776v1-f0002.gif", "nihpp-2023.12.31.573776v1-f0002.jpg"),  # full size beats thumbnail
        ("images/fig1", "fig1.tif"),
        ("fig7", None),
        ("", None),
    ],
)
def test_resolve_graphic(href, expected):
    package = [
        "article.nxml", "fig1.tif", "fig1.jpg", "elife-19405-fig1.tif", "sub/medicine-4-e1.jpg",
        "nihpp-2023.12.31.573776v1-f0001.gif", "nihpp-2023.12.31.573776v1-f0002.gif",
        "nihpp-2023.12.31.573776v1-f0002.jpg", "article.pdf",
    ]
    assert resolve_graphic(href, package) == expected
