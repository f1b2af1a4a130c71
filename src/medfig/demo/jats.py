"""JATS 1.3 XML for a demo article, shaped like PMC's open-access files.

Figures sit inside the section after the paragraph that first cites them, as in
most PMC XML; graphic hrefs carry no extension; licences come in the three forms
PMC uses (``<license xlink:href>``, ``<ali:license_ref>``, URL only in the text).
"""

from __future__ import annotations

from lxml import etree

from medfig.demo.spec import LICENCES, ArticleSpec, FigureSpec, LicenceSpec, Paragraph, TableSpec, Xref

XLINK = "http://www.w3.org/1999/xlink"
MML = "http://www.w3.org/1998/Math/MathML"
ALI = "http://www.niso.org/schemas/ali/1.0/"
DOCTYPE = '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.3 20210610//EN" "JATS-archivearticle1-3.dtd">'
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _el(parent: etree._Element, tag: str, text: str | None = None, **attrib: str) -> etree._Element:
    e = etree.SubElement(parent, tag, {k.replace("__", ":").replace("_", "-") if not k.startswith("{") else k: v for k, v in attrib.items()})
    if text is not None:
        e.text = text
    return e


def _href(e: etree._Element, url: str) -> None:
    e.set(f"{{{XLINK}}}href", url)


def _inline(p: etree._Element, pieces: list[str | Xref]) -> None:
    """Mixed content: strings become text/tails, Xrefs become <xref> elements."""
    last: etree._Element | None = None
    for piece in pieces:
        if isinstance(piece, Xref):
            last = _el(p, "xref", piece.text, ref_type=piece.ref_type, rid=piece.rid)
        elif last is None:
            p.text = (p.text or "") + piece
        else:
            last.tail = (last.tail or "") + piece


def _paragraph(parent: etree._Element, para: Paragraph) -> None:
    p = _el(parent, "p")
    pieces: list[str | Xref] = []
    for k, s in enumerate(para.sentences):
        pieces += ([" "] if k else []) + s.pieces
    _inline(p, pieces)


def _permissions(parent: etree._Element, lic: LicenceSpec, copyright: str, year: int) -> None:
    perm = _el(parent, "permissions")
    _el(perm, "copyright-statement", copyright)
    _el(perm, "copyright-year", str(year))
    if lic.spdx is None:  # reproduced with permission: a statement, no open licence
        lp = _el(_el(perm, "license"), "license-p", lic.text)
        return
    if lic.style == "ali":
        _el(perm, f"{{{ALI}}}free_to_read")
        lic_el = _el(perm, "license")
        _el(lic_el, f"{{{ALI}}}license_ref", lic.url, specific_use="textmining", content_type="ccbylicense")
        _el(lic_el, "license-p", lic.text)
    elif lic.style == "href":
        lic_el = _el(perm, "license", license_type="open-access")
        _href(lic_el, lic.url or "")
        _el(lic_el, "license-p", lic.text)
    else:  # the URL only appears as a link inside the licence text
        name = LICENCES[lic.spdx][1]
        before, after = lic.text.split(name, 1)
        lp = _el(_el(perm, "license", license_type="open-access"), "license-p", before)
        link = _el(lp, "ext-link", name, ext_link_type="uri")
        _href(link, lic.url or "")
        link.tail = after


def _fig(parent: etree._Element, fig: FigureSpec) -> None:
    f = _el(parent, "fig", id=fig.fig_id, position="float")
    if fig.parent_id:
        f.set("specific-use", "child-fig")
    _el(f, "label", fig.label)
    cap = _el(f, "caption")
    _el(cap, "title", fig.title)
    for text in fig.paragraphs:
        _el(cap, "p", text)
    _href(_el(f, "graphic"), fig.href)
    if fig.licence is not None:
        holder = "Elsevier Inc." if fig.licence.spdx is None else "Garcia et al."
        _permissions(f, fig.licence, f"© {2018 if fig.licence.spdx is None else 2021} {holder}", 2018 if fig.licence.spdx is None else 2021)


def _table(parent: etree._Element, t: TableSpec) -> None:
    tw = _el(parent, "table-wrap", id=t.table_id, position="float")
    _el(tw, "label", t.label)
    _el(_el(tw, "caption"), "title", t.title)
    table = _el(tw, "table", frame="hsides", rules="groups")
    tr = _el(_el(table, "thead"), "tr")
    for cell in t.header:
        _el(tr, "th", cell, align="left")
    tbody = _el(table, "tbody")
    for row in t.rows:
        tr = _el(tbody, "tr")
        for cell in row:
            _el(tr, "td", cell, align="left")


def build_xml(spec: ArticleSpec) -> bytes:
    root = etree.Element("article", nsmap={"xlink": XLINK, "mml": MML, "ali": ALI})
    root.set("article-type", spec.article_type)
    root.set("dtd-version", "1.3")
    root.set(XML_LANG, "en")
    front = _el(root, "front")
    jm = _el(front, "journal-meta")
    _el(jm, "journal-id", spec.journal[1], journal_id_type="nlm-ta")
    _el(jm, "journal-id", spec.journal[1], journal_id_type="iso-abbrev")
    _el(_el(jm, "journal-title-group"), "journal-title", spec.journal[0])
    _el(jm, "issn", f"9999-{spec.index % 3:04d}", pub_type="epub")
    _el(_el(jm, "publisher"), "publisher-name", "medfig Demo Press")

    am = _el(front, "article-meta")
    _el(am, "article-id", spec.pmcid, pub_id_type="pmcid")
    _el(am, "article-id", spec.pmid, pub_id_type="pmid")
    _el(am, "article-id", spec.doi, pub_id_type="doi")
    kind = "Case Report" if spec.article_type == "case-report" else "Research Article"
    _el(_el(_el(am, "article-categories"), "subj-group", subj_group_type="heading"), "subject", kind)
    _el(_el(am, "title-group"), "article-title", spec.title)
    cg = _el(am, "contrib-group")
    for k, (given, surname) in enumerate(spec.authors):
        contrib = _el(cg, "contrib", contrib_type="author")
        if k == 0:
            contrib.set("corresp", "yes")
        name = _el(contrib, "name")
        _el(name, "surname", surname)
        _el(name, "given-names", given)
        aff = f"aff{1 + k % len(spec.affiliations)}"
        _el(_el(contrib, "xref", ref_type="aff", rid=aff), "sup", aff[3:])
    for k, text in enumerate(spec.affiliations, start=1):
        aff = _el(am, "aff", id=f"aff{k}")
        _el(aff, "label", str(k)).tail = text
    given, surname = spec.authors[0]
    corresp = _el(_el(am, "author-notes"), "corresp", "Correspondence: ", id="cor1")
    _el(corresp, "email", f"{surname.lower()}@example.org")
    if spec.index % 2 == 0:
        date = _el(am, "pub-date", pub_type="epub")
    else:
        date = _el(am, "pub-date", date_type="pub", publication_format="electronic")
    _el(date, "day", str(spec.day))
    _el(date, "month", str(spec.month))
    _el(date, "year", str(spec.year))
    _el(am, "volume", str(spec.year - 2010))
    _el(am, "elocation-id", f"e{spec.index + 1:04d}")
    _permissions(am, spec.licence, f"© {spec.year} The Authors", spec.year)
    abstract = _el(am, "abstract")
    for head, text in spec.abstract:
        if head is None:
            _el(abstract, "p", text)
        else:
            sec = _el(abstract, "sec")
            _el(sec, "title", head)
            _el(sec, "p", text)
    kg = _el(am, "kwd-group", kwd_group_type="author")
    for kw in spec.keywords:
        _el(kg, "kwd", kw)

    floats = {f.fig_id: f for f in spec.figures} | {t.table_id: t for t in spec.tables}
    supplements = {f.fig_id: [s for s in spec.figures if s.parent_id == f.fig_id] for f in spec.figures}
    placed: set[str] = set()
    body = _el(root, "body")
    for section in spec.sections:
        sec = _el(body, "sec", id=section.sec_id)
        _el(sec, "title", section.title)
        for para in section.paragraphs:
            _paragraph(sec, para)
            for rid in para.cited():
                if rid in floats and rid not in placed:
                    placed.add(rid)
                    obj = floats[rid]
                    if isinstance(obj, TableSpec):
                        _table(sec, obj)
                    elif supplements[rid]:  # eLife style: main figure and supplements in an id-less <fig-group>
                        group = _el(sec, "fig-group")
                        for fig in [obj, *supplements[rid]]:
                            _fig(group, fig)
                    else:
                        _fig(sec, obj)

    back = _el(root, "back")
    refs = _el(back, "ref-list")
    _el(refs, "title", "References")
    for k, ref in enumerate(spec.references, start=1):
        r = _el(refs, "ref", id=f"B{k}")
        _el(r, "label", str(k))
        _el(r, "mixed-citation", ref, publication_type="journal")
    return etree.tostring(root, encoding="UTF-8", xml_declaration=True, pretty_print=True, doctype=DOCTYPE)
