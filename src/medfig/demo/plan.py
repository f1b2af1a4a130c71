"""Plan one demo article from the seed: figures, panels, captions, citing sentences, sections.

Variation that tests should always be able to find (a TIFF, a vector chart, panel
letters as text and as pixels, each licence) is assigned by article index, not left to
chance. The records planned here are those of :mod:`medfig.demo.spec`.
"""

from __future__ import annotations

import random

import medfig.demo.text as T
from medfig.demo.spec import (
    ArticleSpec,
    Citation,
    FigureSpec,
    LicenceSpec,
    PanelSpec,
    Paragraph,
    Piece,
    Section,
    Sentence,
    TableSpec,
    Xref,
    licence_spec,
)

ARTICLE_LICENCES = ["CC-BY-4.0", "CC-BY-NC-4.0", "CC-BY-4.0", "CC-BY-NC-ND-4.0", "CC-BY-4.0"]
LICENCE_STYLES = ["href", "ali", "text"]

# Panel grids as (row, col, rowspan, colspan); the 3- and 5-panel ones have a tall panel.
GRIDS: dict[int, list[list[tuple[int, int, int, int]]]] = {
    2: [[(0, 0, 1, 1), (0, 1, 1, 1)], [(0, 0, 1, 1), (1, 0, 1, 1)]],
    3: [[(0, 0, 1, 1), (0, 1, 1, 1), (0, 2, 1, 1)], [(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)]],
    4: [[(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1)], [(0, c, 1, 1) for c in range(4)]],
    5: [[(0, 0, 2, 1), (0, 1, 1, 1), (0, 2, 1, 1), (1, 1, 1, 1), (1, 2, 1, 1)]],
    6: [[(r, c, 1, 1) for r in range(2) for c in range(3)], [(r, c, 1, 1) for r in range(3) for c in range(2)]],
}
RASTER_MODALITIES = ["ct", "mri", "ultrasound", "xray", "histology", "fluorescence", "ct", "chart"]
PAGE_SIZES = [(612.0, 792.0), (595.2756, 841.8898)]  # US Letter, A4


def _marker(style: str, letters: list[str]) -> str:
    """How a caption introduces the panels it describes: "(a)", "(c, d)", "A,", "C and D,"."""
    if style == "paren":
        return "(" + ", ".join(letters) + ")"
    if style == "colon":
        return ", ".join(letters) + ":"
    return " and ".join(letters) + ","


def _panel_paragraph(r: random.Random, fig: FigureSpec, style: str, disease: str, offset: int) -> str:
    """The caption paragraph with one description per panel (or per panel group);
    records each panel's subcaption and its span inside the full caption."""
    parts: list[str] = []
    pos = offset
    panels = fig.panels
    k = 0
    while k < len(panels):
        group = [panels[k]]
        # Two panels of the same modality are often described together: "(c, d) ...".
        if k + 1 < len(panels) and panels[k + 1].modality == panels[k].modality and r.random() < 0.7:
            group.append(panels[k + 1])
        sub = T.fill(r.choice(T.SUBCAPTIONS[group[0].modality]), r, disease) + "."
        marker = _marker(style, [p.letter or "" for p in group])
        start = pos + len(marker) + 1
        for p in group:
            p.subcaption, p.span = sub, (start, start + len(sub))
        piece = f"{marker} {sub}"
        parts.append(piece)
        pos += len(piece) + 1
        k += len(group)
    return " ".join(parts)


def _mention(fig: FigureSpec, word: str, form: str, r: random.Random) -> tuple[list[Piece], Citation]:
    """A figure mention in one of the ways authors write them, with its panels."""
    n, letters = fig.number, [p.letter for p in fig.panels if p.letter]
    head = f"{word} {n}"
    if form == "range" and len(letters) >= 3:
        sel = letters[:3] if r.random() < 0.5 else letters[-3:]
        text = f"{head}{sel[0]}–{sel[-1]}"
        return [Xref(fig.fig_id, "fig", text)], Citation(fig.fig_id, sel, text)
    if form == "paren" and letters:  # panel letter outside the xref: <xref>Figure 1</xref>(b)
        p = r.choice(letters)
        return [Xref(fig.fig_id, "fig", head), f"({p})"], Citation(fig.fig_id, [p], f"{head}({p})")
    if form == "list" and len(letters) >= 3:
        sel = [letters[0], letters[2]]
        text = f"{head}{sel[0]},{sel[1]}"
        return [Xref(fig.fig_id, "fig", text)], Citation(fig.fig_id, sel, text)
    if form == "and" and len(letters) >= 2:  # "Figure 2B and C": second letter outside the xref
        sel = letters[-2:]
        return [Xref(fig.fig_id, "fig", f"{head}{sel[0]}"), f" and {sel[1]}"], Citation(fig.fig_id, sel, f"{head}{sel[0]} and {sel[1]}")
    if form == "inside" and letters:
        p = r.choice(letters)
        return [Xref(fig.fig_id, "fig", f"{head}{p}")], Citation(fig.fig_id, [p], f"{head}{p}")
    return [Xref(fig.fig_id, "fig", head)], Citation(fig.fig_id, [], head)


def _citing_sentence(fig: FigureSpec, form: str, r: random.Random) -> Sentence:
    pieces, cit = _mention(fig, r.choice(["Figure", "Fig."]), form, r)
    by_letter = {p.letter: p for p in fig.panels}
    panel = by_letter.get(cit.panels[0]) if cit.panels else fig.panels[0]
    what = r.choice(FINDINGS[panel.modality if panel else "ct"])
    template = r.choice(T.CITING)
    before, after = template.split("{M}")
    fill = {"{What}": what[0].upper() + what[1:], "{what_lc}": what}
    for key, value in fill.items():
        before, after = before.replace(key, value), after.replace(key, value)
    return Sentence([before, *pieces, after], [cit])


FINDINGS = {
    "ct": ["contrast-enhanced CT showed a hypodense lesion with peripheral enhancement", "follow-up CT showed a marked reduction in lesion size"],
    "mri": ["MRI revealed a T2-hyperintense lesion with surrounding oedema", "the lesion showed ring enhancement after gadolinium"],
    "ultrasound": ["ultrasound showed a well-defined anechoic cyst", "sonography demonstrated a hypoechoic nodule"],
    "xray": ["the chest radiograph showed a rounded opacity", "radiography demonstrated resolution of the consolidation"],
    "histology": ["histology confirmed the diagnosis", "sections showed granulomatous inflammation"],
    "fluorescence": ["immunofluorescence showed a high proliferation index", "staining revealed dense microvasculature"],
    "chart": ["overall survival differed between the treatment groups"],
    "line": ["symptom scores improved steadily in the treated group"],
    "bar": ["lesion volume decreased at each visit"],
    "scatter": ["lesion size correlated with metabolic activity"],
    "survival": ["progression-free survival was longer in the low-risk group"],
}


def _filler(r: random.Random, kind: str, disease: str, k: int) -> list[Sentence]:
    pool = T.FILLER[kind]
    start = r.randrange(len(pool))
    return [Sentence([T.fill(pool[(start + i) % len(pool)], r, disease)]) for i in range(k)]


def _with_reference(s: Sentence, ref: int) -> Sentence:
    """Append a numbered citation before the full stop: "... scarce [2]."."""
    body = s.text[:-1]
    return Sentence([body + " [", Xref(f"B{ref}", "bibr", str(ref)), "]."])


def _plan_figures(r: random.Random, index: int, pmcid: str, fig_style: tuple[str, str], letter_case: str) -> list[FigureSpec]:
    n_panels_a = r.choice([3, 4, 5, 6])
    kinds: list[tuple[str, int]] = [("raster", n_panels_a), ("raster", 1), ("vector", r.choice([1, 2, 3]))]
    if r.random() < 0.6:
        kinds.append(("raster", r.choice([2, 3, 4])))
    r.shuffle(kinds)
    formats = ["tif", "jpg", "png"]
    formats = formats[index % 3 :] + formats[: index % 3]
    figs: list[FigureSpec] = []
    n_raster = 0
    for k, (rendering, n_panels) in enumerate(kinds, start=1):
        fig_id = f"F{k}" if index % 2 == 0 else f"fig{k}"
        letters = [chr(ord("a" if letter_case == "lower" else "A") + i) for i in range(n_panels)] if n_panels > 1 else [None]
        printed_style = r.choice(["{}", "({})"]) if rendering == "raster" else "{}"
        if rendering == "raster":
            grid = r.choice(GRIDS[n_panels]) if n_panels > 1 else [(0, 0, 1, 1)]
            mods = [r.choice(RASTER_MODALITIES) for _ in range(n_panels)]
            if n_panels > 2 and r.random() < 0.6:
                mods[1] = mods[0]  # same-modality neighbours, described together in the caption
            ext = formats[n_raster % 3]
            n_raster += 1
            cols = max(c + cs for _, c, _, cs in grid)
            layout = "full" if cols >= 3 else r.choice(["column", "column", "full"])
            if n_panels == 1:  # a lone image page-wide would fill half the page
                layout = "column"
        else:
            grid = [(0, i, 1, 1) for i in range(n_panels)]
            mods = r.sample(["line", "bar", "scatter", "survival"], n_panels)
            ext = "png"
            layout = "full" if n_panels > 1 else "column"
        panels = [PanelSpec(l, printed_style.format(l) if l else None, m, grid=g) for l, m, g in zip(letters, mods, grid, strict=True)]
        fig = FigureSpec(
            fig_id=fig_id,
            number=k,
            label=fig_style[0].format(k),
            label_pdf=fig_style[1].format(k),
            title="",
            paragraphs=[],
            panels=panels,
            rendering=rendering,
            layout=layout,
            width_frac=1.0 if layout == "column" or rendering == "vector" else r.choice([1.0, 0.8]),
            ext=ext,
            href=f"{pmcid}-g{k:03d}",
            letter_mode=("burned" if (index + k) % 2 == 0 else "pdf_text") if rendering == "raster" and n_panels > 1 else ("pdf_text" if n_panels > 1 else None),
            gap=r.choice([6, 10, 14]),
            gap_colour="black" if rendering == "raster" and r.random() < 0.3 else "white",
            border=r.choice([0, 0, 2]) if rendering == "raster" else 0,
            cell_aspect=r.choice([0.75, 0.85, 1.0]),
        )
        figs.append(fig)
    return figs


def _add_supplement(r: random.Random, figures: list[FigureSpec], pmcid: str) -> None:
    """An eLife-style figure supplement of the first compound raster figure: in the XML
    a ``<fig specific-use="child-fig">`` inside a ``<fig-group>``, in the PDF its own float
    right after the main figure, never cited in the text."""
    k, main = next((k, f) for k, f in enumerate(figures) if f.rendering == "raster" and f.compound)
    modality = r.choice(["ct", "mri", "histology", "ultrasound"])
    word = main.label.split()[0]  # "Figure" or "Fig."
    label = f"{main.label}—figure supplement 1"
    sup = FigureSpec(
        fig_id=f"{main.fig_id}s1",
        number=main.number,
        label=label,
        label_pdf=f"{label}.",
        title=f"Additional {T.SINGLE_TITLES[modality][0].lower()}{T.SINGLE_TITLES[modality][1:]}",
        paragraphs=[f"Related to {word} {main.number}."],
        panels=[PanelSpec(None, None, modality)],
        rendering="raster",
        layout="column",
        width_frac=1.0,
        ext="jpg",
        href=f"{main.href}-s1",
        parent_id=main.fig_id,
    )
    figures.insert(k + 1, sup)


def _caption(r: random.Random, fig: FigureSpec, marker_style: str, disease: str) -> None:
    if fig.compound:
        fig.title = T.fill(r.choice(T.FIGURE_TITLES), r, disease)
        fig.paragraphs = [_panel_paragraph(r, fig, marker_style, disease, len(fig.title) + 1)]
    else:
        fig.title = T.SINGLE_TITLES[fig.panels[0].modality]
    if r.random() < 0.7:
        fig.paragraphs.append(T.fill(r.choice(T.CAPTION_NOTES), r, disease))


def _table(r: random.Random, index: int, disease: str) -> TableSpec:
    table_id = "T1" if index % 2 == 0 else "tab1"
    a, b = r.randint(18, 60), r.randint(18, 60)
    rows = [
        ["Age, years (mean ± SD)", f"{r.uniform(40, 65):.1f} ± {r.uniform(8, 14):.1f}", f"{r.uniform(40, 65):.1f} ± {r.uniform(8, 14):.1f}", f"0.{r.randint(10, 90)}"],
        ["Female sex, n (%)", f"{a // 2} ({100 * (a // 2) // a})", f"{b // 2} ({100 * (b // 2) // b})", f"0.{r.randint(10, 90)}"],
        ["Lesion size, mm", f"{r.uniform(15, 40):.1f}", f"{r.uniform(15, 40):.1f}", f"0.0{r.randint(1, 4)}"],
        ["Contrast enhancement, n (%)", f"{a // 3} ({100 * (a // 3) // a})", f"{b // 4} ({100 * (b // 4) // b})", f"0.{r.randint(10, 90)}"],
        ["Follow-up, months", f"{r.randint(6, 40)}", f"{r.randint(6, 40)}", "–"],
    ][: r.randint(4, 5)]
    label = "Table 1"
    return TableSpec(table_id, 1, label, "Table 1." if index % 2 == 0 else "Table 1:", f"Baseline characteristics of patients with {disease}.", ["Characteristic", f"Group A (n = {a})", f"Group B (n = {b})", "p value"], rows)


def plan_article(seed: int, index: int) -> ArticleSpec:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    r = random.Random(f"medfig-demo:{seed}:{index}")
    pmcid = f"PMC{9000001 + index}"
    disease = r.choice(T.DISEASES)
    case_report = index % 3 == 1
    journal = T.JOURNALS[index % len(T.JOURNALS)]
    spdx = ARTICLE_LICENCES[index % len(ARTICLE_LICENCES)]
    licence = licence_spec(spdx, LICENCE_STYLES[index % len(LICENCE_STYLES)])
    fig_style = ("Figure {}", "Figure {}.") if index % 2 == 0 else ("Fig. {}", "Fig. {}:")
    letter_case = r.choice(["lower", "upper"])
    marker_style = r.choice(["paren", "colon", "comma"])

    figures = _plan_figures(r, index, pmcid, fig_style, letter_case)
    for fig in figures:
        _caption(r, fig, marker_style, disease)
    if index % 5 == 2:  # a figure reused from another paper under a different licence
        figures[-1].licence = licence_spec("CC-BY-NC-4.0", "href")
    if index % 5 == 4:  # a figure reproduced with permission: no open licence at all
        figures[0].licence = LicenceSpec(None, None, "© 2018 Elsevier Inc. Reprinted with permission from the publisher.", "copyright")
    if index % 3 == 2:
        _add_supplement(r, figures, pmcid)
    table = _table(r, index, disease)

    title = T.fill(r.choice(T.TITLE_TEMPLATES[1:2] if case_report else T.TITLE_TEMPLATES[:1] + T.TITLE_TEMPLATES[2:]), r, disease)
    names = r.sample(range(len(T.GIVEN)), r.randint(3, 6))
    authors = [(T.GIVEN[i], T.SURNAMES[(i * 5 + index) % len(T.SURNAMES)]) for i in names]
    affiliations = [f"{d}, {p}" for d, p in zip(r.sample(T.DEPARTMENTS, 2), r.sample(T.PLACES, 2), strict=True)]

    sections = _sections(r, figures, table, disease, case_report)
    abstract = _abstract(r, disease, case_report)
    return ArticleSpec(
        index=index,
        pmcid=pmcid,
        pmid=str(99000001 + index),  # far above assigned PMIDs, so never a real article
        doi=f"10.5555/demo.{2024}.{index + 1:04d}",  # 10.5555 is the DOI prefix reserved for tests
        journal=journal,
        article_type="case-report" if case_report else "research-article",
        title=title,
        authors=authors,
        affiliations=affiliations,
        year=2024,
        month=1 + index % 12,
        day=1 + (index * 7) % 28,
        licence=licence,
        abstract=abstract,
        keywords=[disease, "computed tomography", "magnetic resonance imaging", "histopathology"][: r.randint(3, 4)],
        sections=sections,
        figures=figures,
        tables=[table],
        references=[T.fill(ref, r, disease) for ref in T.REFERENCES],
        page_size=PAGE_SIZES[index % 2],
        disease=disease,
    )


def _abstract(r: random.Random, disease: str, case_report: bool) -> list[tuple[str | None, str]]:
    if case_report:
        return [(None, " ".join(s.text for s in _filler(r, "case", disease, 2) + _filler(r, "discussion", disease, 2)))]
    return [
        ("Background", " ".join(s.text for s in _filler(r, "intro", disease, 2))),
        ("Methods", " ".join(s.text for s in _filler(r, "methods", disease, 2))),
        ("Results", " ".join(s.text for s in _filler(r, "results", disease, 2))),
        ("Conclusions", " ".join(s.text for s in _filler(r, "discussion", disease, 1))),
    ]


# Mention forms per figure, so that every article has "Figure 1(b)"-, "Fig. 2A–C"- and "Figs. 1 and 2"-style citations.
COMPOUND_FORMS = [("paren", "range"), ("range", "and"), ("list", "paren"), ("inside", "range")]


def _sections(r: random.Random, figures: list[FigureSpec], table: TableSpec, disease: str, case_report: bool) -> list[Section]:
    figures = [f for f in figures if not f.parent_id]  # supplements are not cited in the text
    # Enough prose for two to three pages, so that floats land among running text
    # (a detector must tell them apart) rather than on float-only pages at the end.
    intro = [Paragraph(_filler(r, "intro", disease, k)) for k in (3, 4, 3)]
    intro[0].sentences[-1] = _with_reference(intro[0].sentences[-1], 1)
    intro[1].sentences[0] = _with_reference(intro[1].sentences[0], 2)
    table_sentence = Sentence(["Baseline characteristics are summarised in ", Xref(table.table_id, "table", table.label), "."])
    methods = [
        Paragraph(_filler(r, "case" if case_report else "methods", disease, 4)),
        Paragraph(_filler(r, "methods", disease, 5)),
        Paragraph(_filler(r, "methods", disease, 3) + [table_sentence]),
    ]

    results: list[Paragraph] = []
    for k, fig in enumerate(figures):
        sentences = _filler(r, "results", disease, 1)
        if fig.compound:
            for form in COMPOUND_FORMS[k % len(COMPOUND_FORMS)]:
                sentences.append(_citing_sentence(fig, form, r))
        else:
            sentences.append(_citing_sentence(fig, "whole", r))
        results.append(Paragraph(sentences + _filler(r, "results", disease, 2)))

    a, b = figures[0], figures[1]
    both = Sentence(
        ["Taken together, the imaging and histological findings in Figs. ", Xref(a.fig_id, "fig", str(a.number)), " and ", Xref(b.fig_id, "fig", str(b.number)), " support the diagnosis."],
        [Citation(a.fig_id, [], f"Figs. {a.number} and {b.number}"), Citation(b.fig_id, [], f"Figs. {a.number} and {b.number}")],
    )
    last = figures[-1]
    discussion = [
        Paragraph(_filler(r, "discussion", disease, 2) + [both] + _filler(r, "discussion", disease, 1)),
        Paragraph(_filler(r, "discussion", disease, 2) + [_citing_sentence(last, "inside" if last.compound else "whole", r)]),
        Paragraph(_filler(r, "discussion", disease, 4)),
        Paragraph(_filler(r, "intro", disease, 3) + _filler(r, "discussion", disease, 2)),
    ]
    discussion[0].sentences[0] = _with_reference(discussion[0].sentences[0], 3)
    conclusion = [Paragraph(_filler(r, "discussion", disease, 2))]
    conclusion[0].sentences[-1] = _with_reference(conclusion[0].sentences[-1], 4)

    names = ["Introduction", "Case presentation" if case_report else "Materials and methods", "Results", "Discussion", "Conclusions"]
    bodies = [intro, methods, results, discussion, conclusion]
    if case_report:  # case reports fold the imaging findings into the presentation
        names, bodies = names[:2] + names[3:], [intro, methods + results, discussion, conclusion]
    return [Section(f"s{i + 1}", n, b) for i, (n, b) in enumerate(zip(names, bodies, strict=True))]
