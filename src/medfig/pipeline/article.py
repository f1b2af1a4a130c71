"""Process one article: the unit of work and of failure.

Runs inside a worker. It never raises for bad input: every problem becomes an
error row naming the file, and a figure whose image cannot be stored keeps its
row with ``image_status`` saying why.
"""

from __future__ import annotations

import hashlib
import resource
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from medfig.dataset import DatasetFolder, safe_name
from medfig.io import atomic_write_bytes
from medfig.jats.graphics import is_thumbnail
from medfig.records import Article, ErrorRecord, Figure, JatsError, Licence, SourceError
from medfig.pipeline.images import ImageError, store_image

FATAL_STAGES = {"source", "xml", "internal"}

@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What the per-article task does beyond parsing; part of the manifest's config (a change redoes all)."""

    # locate every figure in the article's PDF (pdf_page, pdf_box); crop those the package has no file for
    pdf_figures: bool = True
    subfigures: bool = True  # split compound figures into panels with subcaptions (subfigures.parquet)


@dataclass(slots=True)
class ArticleResult:
    key: str
    fingerprint: str
    article_row: dict | None = None
    figure_rows: list[dict] = field(default_factory=list)
    subfigure_rows: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    # Measurements for benchmarks; not written to the dataset (a no-op re-run must change nothing).
    seconds_by_stage: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0  # of the worker process, after this article

    @contextmanager
    def timed(self, stage: str):
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds_by_stage[stage] = self.seconds_by_stage.get(stage, 0.0) + time.perf_counter() - started

    @property
    def failed(self) -> bool:
        """A failed article is retried by the next run; image problems are not failures."""
        return self.article_row is None or any(e["stage"] in FATAL_STAGES for e in self.errors)


def image_dir(out_dir: Path, key: str) -> Path:
    return DatasetFolder(out_dir).image_dir(key)


def _remove_orphan_images(out_dir: Path, key: str, rows: list[dict], subfigure_rows: list[dict]) -> None:
    """Files left by an earlier version of a changed article, which no row points at any more."""
    folder = image_dir(out_dir, key)
    if not folder.is_dir():
        return
    kept = {row["image_path"] for row in rows if row["image_path"]}
    kept |= {row["crop_path"] for row in subfigure_rows if row["crop_path"]}
    for path in folder.iterdir():
        if path.relative_to(out_dir).as_posix() not in kept:
            path.unlink(missing_ok=True)
    if not any(folder.iterdir()):
        folder.rmdir()


def _licence_columns(licence: Licence) -> dict:
    return {
        "licence_spdx": licence.spdx,
        "licence_url": licence.url,
        "licence_text": licence.text,
        "licence_source": licence.source,
    }


def error_row(key: str, stage: str, message: str, file: str | None) -> dict:
    record = ErrorRecord(article=key, stage=stage, message=message, file=file)
    return {"article_key": record.article, "stage": record.stage, "message": record.message, "file": record.file}


def figure_flags(figure: Figure) -> list[str]:
    """What a dataset builder should know before training on this figure, found at parse time.

    empty_caption    the <fig> has no caption text
    unknown_licence  no licence medfig can name (never guessed; curation drops these)
    thumbnail_only   the only file for the graphic is a PMC .gif thumbnail
    no_inline_refs   no body sentence cites the figure
    """
    flags = []
    if not figure.caption:
        flags.append("empty_caption")
    if figure.licence.spdx is None:
        flags.append("unknown_licence")
    if figure.graphic_file and is_thumbnail(figure.graphic_file):
        flags.append("thumbnail_only")
    if not figure.inline_refs:
        flags.append("no_inline_refs")
    return flags


def _figure_row(article: Article, figure: Figure) -> dict:
    return {
        "article_key": article.key,
        "pmcid": article.pmcid,
        "pmid": article.pmid,
        "doi": article.doi,
        "figure_id": figure.figure_id,
        "label": figure.label,
        "caption_title": figure.caption_title,
        "caption": figure.caption,
        "fig_type": figure.fig_type,
        "parent_id": figure.parent_id,
        "graphic_href": figure.graphic_href,
        "graphic_file": figure.graphic_file,
        **_licence_columns(figure.licence),
        "inline_refs": [
            {
                "sentence": ref.sentence,
                "section": ref.section,
                "mention": ref.mention,
                "panels": list(ref.panels),
                "paragraph_index": ref.paragraph_index,
                "sentence_index": ref.sentence_index,
            }
            for ref in figure.inline_refs
        ],
        "n_inline_refs": len(figure.inline_refs),
        "image_path": None,
        "image_format": None,
        "source_image_format": None,
        "width": None,
        "height": None,
        "sha256": None,
        "image_status": "no_graphic",
        "image_error": None,
        "image_source": None,
        "pdf_page": None,
        "pdf_box": None,
        "n_subfigures": 0,  # panels found when the figure is compound (rows in subfigures.parquet)
        "flags": figure_flags(figure),
    }


def _store_figure_image(package, article: Article, figure: Figure, row: dict, out_dir: Path, result: ArticleResult) -> None:
    where = f"{package.source.container}:{figure.graphic_file or figure.graphic_href}"
    if figure.graphic_href is None:
        return
    if figure.graphic_file is None:
        row["image_status"] = "missing"  # the PDF step may still find it; the error is recorded after
        row["image_error"] = f"graphic {figure.graphic_href!r} not found in the package"
        return
    try:
        data = package.read_bytes(figure.graphic_file)
        stem = image_dir(out_dir, article.key) / safe_name(figure.figure_id)
        stored = store_image(data, figure.graphic_file, stem)
    except (ImageError, SourceError, OSError) as exc:
        row["image_status"] = "error"
        row["image_error"] = str(exc)
        result.errors.append(error_row(article.key, "image", str(exc), where))
        return
    row.update(
        image_path=stored.path.relative_to(out_dir).as_posix(),
        image_format=stored.format,
        source_image_format=stored.source_format,
        width=stored.width,
        height=stored.height,
        sha256=stored.sha256,
        image_status="ok",
        image_source="package",
    )


def _figures_from_pdf(package, article: Article, rows: list[dict], out_dir: Path, result: ArticleResult) -> None:
    """Locate every figure of the article in its PDF, matched by label: each located row gets
    ``pdf_page`` and ``pdf_box``; rows the package has no file for also get the crop as their
    image. Rows the PDF cannot give keep their status and say why."""
    from medfig.pipeline.pdf_figures import locate

    where = f"{package.source.container}:{package.pdf_name}"
    try:
        pdf = package.read_bytes(package.pdf_name)
    except SourceError as exc:
        result.errors.append(error_row(article.key, "pdf", str(exc), where))
        return
    located, problem = locate(pdf, {row["figure_id"]: row["label"] for row in rows}, where)
    if problem:
        result.errors.append(error_row(article.key, "pdf", problem, where))
    for row in rows:
        found = located.get(row["figure_id"])
        if found is not None:
            row.update(pdf_page=found.page, pdf_box=[round(v, 2) for v in found.box_pt])
        elif row["image_status"] == "missing":
            row["image_error"] += "; not located in the PDF" if not problem else "; the PDF is unreadable"
    wanted = [row for row in rows if row["image_status"] in ("missing", "no_graphic")]
    _crop_located(pdf, located, wanted, article.key, out_dir, result, where)


def _crop_located(pdf: bytes, located: dict, rows: list[dict], key: str, out_dir: Path, result: ArticleResult,
                  where: str) -> None:
    """Render each located figure's box at CROP_DPI and store it as the figure image (the PDF is opened once)."""
    import pypdfium2 as pdfium

    from medfig.pdf.output import render_box_png
    from medfig.pipeline.pdf_figures import CROP_DPI

    wanted = [row for row in rows if row["figure_id"] in located]
    if not wanted:
        return
    doc = pdfium.PdfDocument(pdf)
    try:
        for row in wanted:
            found = located[row["figure_id"]]
            try:
                page = doc[found.page]
                png, width, height = render_box_png(page, found.box_pt, CROP_DPI, found.reading_turn_deg)
                page.close()
                if width < 1 or height < 1:
                    raise ValueError(f"empty crop box {found.box_pt}")
                # our own render: written as is, not decoded again to be checked as a package file is
                path = image_dir(out_dir, key) / f"{safe_name(row['figure_id'])}.png"
                atomic_write_bytes(path, png, only_if_changed=True)
            except (OSError, ValueError, pdfium.PdfiumError) as exc:
                result.errors.append(error_row(key, "pdf", f"figure {row['figure_id']}: crop failed ({exc})", where))
                continue
            row.update(
                image_path=path.relative_to(out_dir).as_posix(), image_format="PNG",
                source_image_format="PDF", width=width, height=height, sha256=hashlib.sha256(png).hexdigest(),
                image_status="ok", image_error=None, image_source="pdf", pdf_page=found.page,
                pdf_box=[round(v, 2) for v in found.box_pt],
            )
    finally:
        doc.close()


def _process_pdf_only(source, package, out_dir: Path, result: ArticleResult) -> Article | None:
    from medfig.pdf.types import PdfExtractionError
    from medfig.pipeline.pdf_only import read_pdf_article

    where = f"{source.container}:{package.pdf_name}"
    try:
        with result.timed("pdf"):
            pdf = package.read_bytes(package.pdf_name)
            parsed = read_pdf_article(pdf, source.key, package.pdf_name, where)
    except (SourceError, PdfExtractionError) as exc:
        result.errors.append(error_row(source.key, "pdf", str(exc), where))
        return None
    article = parsed.article
    article.warnings.extend(getattr(package, "warnings", []))
    result.figure_rows = [_figure_row(article, figure) for figure in article.figures]
    for row in result.figure_rows:
        row["image_status"] = "missing"
        row["image_error"] = "caption found in the PDF, figure region not found"
    with result.timed("images"):
        _crop_located(pdf, parsed.located, result.figure_rows, source.key, out_dir, result, where)
    for row in result.figure_rows:
        if row["image_status"] == "missing":
            result.errors.append(error_row(source.key, "pdf", f"{row['label']}: {row['image_error']}", where))
    n_images = sum(1 for row in result.figure_rows if row["image_status"] == "ok")
    result.article_row = _article_row(source, article, n_images)
    return article


def _article_row(source, article: Article, n_images: int) -> dict:
    return {
        "article_key": article.key,
        "source_container": source.container,
        "source_kind": source.kind,
        "fingerprint": source.fingerprint,
        "pmcid": article.pmcid,
        "pmid": article.pmid,
        "doi": article.doi,
        "title": article.title,
        "journal": article.journal,
        "year": article.year,
        "article_type": article.article_type,
        "authors": list(article.authors),
        **_licence_columns(article.licence),
        "xml_file": article.xml_file,
        "pdf_file": article.pdf_file,
        "n_figures": len(article.figures),
        "n_images": n_images,
        "n_tables": len(article.tables),
        "n_fig_xrefs": article.n_fig_xrefs,
        "n_inline_refs": sum(len(f.inline_refs) for f in article.figures),
        "tables": [{"table_id": t.table_id, "label": t.label, "caption": t.caption} for t in article.tables],
        "warnings": list(article.warnings),
    }


def _process(source, out_dir: Path, result: ArticleResult, options: BuildOptions) -> None:
    from medfig.jats.parse import parse_jats

    try:
        with result.timed("open"):
            package = source.open()
    except SourceError as exc:
        result.errors.append(error_row(source.key, "source", str(exc), source.container))
        return
    with package:
        if package.xml_name is None:
            if package.pdf_name and options.pdf_figures:
                article = _process_pdf_only(source, package, out_dir, result)
                if article is not None and options.subfigures:
                    _split_compound_figures(article, out_dir, result)
                return
            message = "no JATS XML in the package"
            if package.pdf_name:
                message += " (PDF only: run without --no-pdf-figures to read it)"
            result.errors.append(error_row(source.key, "xml", message, source.container))
            return
        xml_where = f"{source.container}:{package.xml_name}"
        try:
            with result.timed("xml"):
                xml = package.read_bytes(package.xml_name)
                article = parse_jats(xml, key=source.key, xml_file=package.xml_name, package_files=package.names())
        except (SourceError, JatsError) as exc:
            result.errors.append(error_row(source.key, "xml", str(exc), xml_where))
            return
        article.pdf_file = package.pdf_name
        article.warnings.extend(getattr(package, "warnings", []))
        with result.timed("images"):
            for figure in article.figures:
                row = _figure_row(article, figure)
                _store_figure_image(package, article, figure, row, out_dir, result)
                result.figure_rows.append(row)
        if result.figure_rows and package.pdf_name and options.pdf_figures:
            with result.timed("pdf"):
                _figures_from_pdf(package, article, result.figure_rows, out_dir, result)
        for row in result.figure_rows:
            if row["image_status"] == "missing":
                where = f"{package.source.container}:{row['graphic_href']}"
                result.errors.append(error_row(article.key, "image", row["image_error"], where))
        if options.subfigures:
            _split_compound_figures(article, out_dir, result)
        n_images = sum(1 for row in result.figure_rows if row["image_status"] == "ok")
        result.article_row = _article_row(source, article, n_images)


def _split_compound_figures(article: Article, out_dir: Path, result: ArticleResult) -> None:
    """Panels, panel letters, subcaptions and panel-level inline refs of every stored figure image."""
    from PIL import Image

    from medfig.compound import split_compound, write_crops
    from medfig.compound.table import subfigure_rows

    figures = {figure.figure_id: figure for figure in article.figures}
    with result.timed("subfigures"):
        for row in result.figure_rows:
            figure = figures.get(row["figure_id"])
            if row["image_status"] != "ok" or figure is None:
                continue
            path = out_dir / row["image_path"]
            try:
                with Image.open(path) as opened:
                    image = opened.convert("RGB")
                subfigures = split_compound(image, figure.caption, figure.inline_refs, figure_id=figure.figure_id)
                stem = (image_dir(out_dir, article.key) / f"{safe_name(figure.figure_id)}-panel").relative_to(out_dir)
                write_crops(image, subfigures, out_dir, stem.as_posix())
            except Exception as exc:  # one odd image must not lose the article's other figures
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                result.errors.append(error_row(article.key, "subfigures", f"figure {figure.figure_id}: {detail}",
                                               row["image_path"]))
                continue
            row["n_subfigures"] = len(subfigures)
            result.subfigure_rows.extend(subfigure_rows(article.key, subfigures))


def process_article(source, out_dir: Path, options: BuildOptions | None = None) -> ArticleResult:
    """Turn one article source into rows. Never raises. ``options``: what runs beyond parsing."""
    options = options or BuildOptions()
    result = ArticleResult(key=source.key, fingerprint=source.fingerprint)
    try:
        _process(source, Path(out_dir), result, options)
        _remove_orphan_images(Path(out_dir), source.key, result.figure_rows, result.subfigure_rows)
    except Exception as exc:  # a bug or an input we did not foresee: record it, keep the build going
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        result.errors.append(error_row(source.key, "internal", detail, source.container))
        result.article_row = None
        result.figure_rows = []
        result.subfigure_rows = []
    result.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes
    return result
