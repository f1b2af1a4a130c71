"""Page furniture: the page-1 masthead, title block and abstract, running heads,
page numbers and the licence footnote. Real papers have all of these, and each
is a chance for a figure/caption detector to find something that is not one."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from medfig.demo.pdf import Geometry
from medfig.demo.spec import ArticleSpec
from medfig.demo.typeset import draw_line, wrap

ACCENT = (0.10, 0.32, 0.55)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def author_line(spec: ArticleSpec) -> str:
    names = [f"{g} {s}" for g, s in spec.authors]
    return ", ".join(names[:-1]) + " and " + names[-1]


def front_matter(spec: ArticleSpec):  # -> FrontFn
    def draw(c: Canvas, g: Geometry) -> float:
        h = g.page_h
        c.setFillColorRGB(*ACCENT)
        c.setFont("Helvetica-Bold", 10)
        c.drawString(g.margin_x, h - 40, spec.journal[0])
        c.setFont("Helvetica", 8)
        kind = "Case Report" if spec.article_type == "case-report" else "Research Article"
        c.drawRightString(g.page_w - g.margin_x, h - 40, kind)
        c.setStrokeColorRGB(*ACCENT)
        c.setLineWidth(1.5)
        c.line(g.margin_x, h - 46, g.page_w - g.margin_x, h - 46)

        y = 70.0
        for line in wrap([("Times-Bold", spec.title)], 16, g.text_w):
            draw_line(c, line, g.margin_x, y + 13, h, g.text_w, False)
            y += 19
        y += 4
        for line in wrap([("Helvetica", author_line(spec))], 9.5, g.text_w):
            draw_line(c, line, g.margin_x, y + 8, h, g.text_w, False)
            y += 12
        for k, aff in enumerate(spec.affiliations, start=1):
            draw_line(c, wrap([("Helvetica-Oblique", f"{k} {aff}")], 7.2, g.text_w)[0], g.margin_x, y + 6, h, g.text_w, False)
            y += 9
        date = f"Published {spec.day} {MONTHS[spec.month - 1]} {spec.year} | https://doi.org/{spec.doi}"
        draw_line(c, wrap([("Helvetica", date)], 7.2, g.text_w)[0], g.margin_x, y + 8, h, g.text_w, False, ACCENT)
        y += 18

        # Abstract on a tinted panel, set one paragraph per structured heading.
        lines = []
        for head, text in spec.abstract:
            runs = ([("Helvetica-Bold", head + ":")] if head else []) + [("Helvetica", text)]
            lines.append(wrap(runs, 8.2, g.text_w - 20))
        box_h = 28 + sum(len(ls) for ls in lines) * 10.2 + 3 * (len(lines) - 1) + 16
        c.setFillColorRGB(0.93, 0.95, 0.97)
        c.rect(g.margin_x, h - y - box_h, g.text_w, box_h, stroke=0, fill=1)
        c.setFillColorRGB(*ACCENT)
        c.setFont("Helvetica-Bold", 9.5)
        c.drawString(g.margin_x + 10, h - y - 16, "Abstract")
        yy = y + 26
        for ls in lines:
            for line in ls:
                draw_line(c, line, g.margin_x + 10, yy + 7, h, g.text_w - 20, True)
                yy += 10.2
            yy += 3
        kw = "Keywords: " + "; ".join(spec.keywords)
        draw_line(c, wrap([("Helvetica-Oblique", kw)], 7.6, g.text_w - 20)[0], g.margin_x + 10, yy + 8, h, g.text_w - 20, False)
        return y + box_h + 16

    return draw


def decorations(spec: ArticleSpec):  # -> DecorFn
    surname = spec.authors[0][1]

    def draw(c: Canvas, g: Geometry, page: int) -> None:
        h = g.page_h
        c.setFillColorRGB(0.3, 0.3, 0.3)
        c.setFont("Helvetica", 7.5)
        c.drawCentredString(g.page_w / 2, 22, str(page + 1))
        if page > 0:
            c.setFont("Helvetica-Oblique", 7)
            c.drawString(g.margin_x, h - 38, f"{surname} et al.")
            c.drawRightString(g.page_w - g.margin_x, h - 38, f"{spec.journal[1]} {spec.year}; e{spec.index + 1:04d}")
            c.setStrokeColorRGB(0.6, 0.6, 0.6)
            c.setLineWidth(0.4)
            c.line(g.margin_x, h - 42, g.page_w - g.margin_x, h - 42)
        else:
            note = f"© {spec.year} The Authors. {spec.licence.text}"
            y = h - 56
            for line in wrap([("Helvetica", note)], 6.3, g.text_w):
                draw_line(c, line, g.margin_x, y + 5, h, g.text_w, True, (0.3, 0.3, 0.3))
                y += 7.5

    return draw
