"""Process one article: the unit of work and of failure, as a chain of steps.

Runs inside a worker. It never raises for bad input: every problem becomes an
error row naming the file, and a figure whose image cannot be stored keeps its
row with ``image_status`` saying why.

The steps (:data:`ARTICLE_STEPS`, run by :func:`medfig.pipeline.steps.run_article_steps`,
which times each one):

    open package -> read a PDF-only article | parse JATS -> store figure files
    -> locate figures in the PDF -> crop from the PDF -> report missing images
    -> split compound figures -> emit the article row

The two figure-image steps (crop, split) live in :mod:`medfig.pipeline.figure_images`.
"""

from __future__ import annotations

import resource
import traceback
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from medfig.dataset import DatasetFolder
from medfig.images import ImageError, store_image
from medfig.pipeline.config import BuildConfig
from medfig.pipeline.figure_images import (CropFromPdf, SplitCompoundFigures, StorageFailure, image_stems,
                                           raise_if_storage as _raise_if_storage)
from medfig.pipeline.rows import article_row, error_row, figure_row
from medfig.pipeline.steps import ArticleStep, StepStats, run_article_steps
from medfig.records import Article, JatsError, SourceError

FATAL_STAGES = {"source", "xml", "internal", "write"}


def _duplicate_id_warnings(figure_ids: list[str], stems: list[str]) -> list[str]:
    by_id: dict[str, list[str]] = {}
    for figure_id, stem in zip(figure_ids, stems):
        by_id.setdefault(figure_id, []).append(stem)
    return [f"duplicate figure id {figure_id}: stored as {' and '.join(names)}"
            for figure_id, names in by_id.items() if len(names) > 1]


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

    @property
    def failed(self) -> bool:
        """A failed article is retried by the next run; image problems are not failures."""
        return self.article_row is None or any(e["stage"] in FATAL_STAGES for e in self.errors)


@dataclass(slots=True)
class ArticleWork:
    """What the steps of one article read and extend."""

    source: object
    folder: DatasetFolder
    config: BuildConfig
    result: ArticleResult
    resources: ExitStack
    package: object = None
    article: Article | None = None
    pdf_only: bool = False  # no JATS: figures, captions and mentions come from the PDF
    pdf: bytes | None = None  # the PDF's bytes once a step has read them
    pdf_where: str = ""  # "container:member" naming the PDF in errors
    located: dict = field(default_factory=dict)  # figure id -> ExtractedFigure (page, box in points)
    rendered: dict = field(default_factory=dict)  # figure file stem -> RGB crop just rendered, until split
    stopped: bool = False

    @property
    def key(self) -> str:
        return self.source.key

    def error(self, stage: str, message: str, file: str | None) -> None:
        self.result.errors.append(error_row(self.key, stage, message, file))

    def stop(self, stage: str, message: str, file: str | None) -> None:
        """Record why the article cannot go on; later steps do not run."""
        self.error(stage, message, file)
        self.stopped = True


class OpenPackage(ArticleStep):
    name = "open"

    def run(self, work: ArticleWork) -> None:
        try:
            work.package = work.resources.enter_context(work.source.open())
        except SourceError as exc:
            work.stop("source", str(exc), work.source.container)


class ReadPdfOnlyArticle(ArticleStep):
    """An article with a PDF and no JATS: figures, captions and inline references from the PDF."""

    name = "pdf"

    def applies(self, work: ArticleWork) -> bool:
        return work.package.xml_name is None and bool(work.package.pdf_name) and work.config.pdf_figures

    def run(self, work: ArticleWork) -> None:
        from medfig.pdf.article import read_pdf_article
        from medfig.pdf.types import PdfExtractionError

        work.pdf_where = f"{work.source.container}:{work.package.pdf_name}"
        try:
            work.pdf = work.package.read_bytes(work.package.pdf_name)
            parsed = read_pdf_article(work.pdf, work.key, work.package.pdf_name, work.pdf_where)
        except (SourceError, PdfExtractionError) as exc:
            work.stop("pdf", str(exc), work.pdf_where)
            return
        work.pdf_only, work.article, work.located = True, parsed.article, parsed.located
        work.article.warnings.extend(getattr(work.package, "warnings", []))
        work.result.figure_rows = [figure_row(work.article, figure) for figure in work.article.figures]
        for row in work.result.figure_rows:
            row["image_status"] = "missing"
            row["image_error"] = "caption found in the PDF, figure region not found"


class ParseJats(ArticleStep):
    name = "xml"

    def applies(self, work: ArticleWork) -> bool:
        return work.article is None

    def run(self, work: ArticleWork) -> None:
        from medfig.jats.parse import parse_jats

        package = work.package
        if package.xml_name is None:
            message = "no JATS XML in the package"
            if package.pdf_name:
                message += " (PDF only: run without --no-pdf-figures to read it)"
            work.stop("xml", message, work.source.container)
            return
        try:
            xml = package.read_bytes(package.xml_name)
            work.article = parse_jats(xml, key=work.key, xml_file=package.xml_name, package_files=package.names())
        except (SourceError, JatsError) as exc:
            work.stop("xml", str(exc), f"{work.source.container}:{package.xml_name}")
            return
        work.article.pdf_file = package.pdf_name
        work.article.warnings.extend(getattr(package, "warnings", []))


class StoreFigureFiles(ArticleStep):
    """Each figure's published file, decoded, checked and stored (JPEG or PNG) under images/."""

    name = "images"

    def applies(self, work: ArticleWork) -> bool:
        return not work.pdf_only

    def run(self, work: ArticleWork) -> None:
        ids = [figure.figure_id for figure in work.article.figures]
        stems = image_stems(ids)
        work.article.warnings.extend(_duplicate_id_warnings(ids, stems))
        for figure, stem in zip(work.article.figures, stems):
            row = figure_row(work.article, figure)
            self._store(work, figure, row, stem)
            work.result.figure_rows.append(row)

    @staticmethod
    def _store(work: ArticleWork, figure, row: dict, stem: str) -> None:
        where = f"{work.package.source.container}:{figure.graphic_file or figure.graphic_href}"
        if figure.graphic_href is None:
            return
        if figure.graphic_file is None:
            row["image_status"] = "missing"  # the PDF steps may still find it; the error is recorded after
            row["image_error"] = f"graphic {figure.graphic_href!r} not found in the package"
            return
        try:
            data = work.package.read_bytes(figure.graphic_file)
            stored = store_image(data, figure.graphic_file, work.folder.image_dir(work.key) / stem)
        except (ImageError, SourceError, OSError) as exc:
            _raise_if_storage(exc)
            row["image_status"] = "error"
            row["image_error"] = str(exc)
            work.error("image", str(exc), where)
            return
        row.update(image_path=stored.path.relative_to(work.folder.root).as_posix(), image_format=stored.format,
                   source_image_format=stored.source_format, width=stored.width, height=stored.height,
                   sha256=stored.sha256, image_status="ok", image_source="package")


class LocateInPdf(ArticleStep):
    """Every JATS figure found in the article's PDF by its label: ``pdf_page`` and ``pdf_box``."""

    name = "locate"

    def applies(self, work: ArticleWork) -> bool:
        return (not work.pdf_only and bool(work.result.figure_rows) and bool(work.package.pdf_name)
                and work.config.pdf_figures)

    def run(self, work: ArticleWork) -> None:
        from medfig.pdf.locate import NOT_PRINTED, locate, unlocated_reason

        work.pdf_where = f"{work.package.source.container}:{work.package.pdf_name}"
        try:
            work.pdf = work.package.read_bytes(work.package.pdf_name)
        except SourceError as exc:
            work.error("pdf", str(exc), work.pdf_where)
            return
        rows = work.result.figure_rows
        work.located, problem = locate(work.pdf, {row["figure_id"]: row["label"] for row in rows}, work.pdf_where,
                                       captions={row["figure_id"]: row["caption"] for row in rows})
        if problem:
            work.error("pdf", problem, work.pdf_where)
        for row in rows:
            found = work.located.get(row["figure_id"])
            if found is not None:
                row.update(pdf_page=found.page, pdf_box=[round(v, 2) for v in found.box_pt])
            elif row["image_status"] == "missing":
                reason = "the PDF is unreadable" if problem else unlocated_reason(work.pdf, row["label"], row["caption"])
                row["image_error"] += f"; {reason}"
                if reason == NOT_PRINTED and _is_supplement(row):
                    row["image_status"] = NOT_IN_PDF  # the publisher left it out of the PDF: not an error


# A figure supplement (eLife's child figures) that the package has no file for and whose caption the
# readable PDF does not print (eLife PDFs carry the main figures only): the build records this status
# instead of "missing", reports no error row for it, and the ledger says image_not_in_pdf.
NOT_IN_PDF = "not_in_pdf"


def _is_supplement(row: dict) -> bool:
    return row.get("fig_type") == "figure-supplement" and bool(row.get("parent_id"))


class ReportMissingImages(ArticleStep):
    """An error row for every figure still without an image, naming the file that was looked for."""

    name = "missing"

    def run(self, work: ArticleWork) -> None:
        for row in work.result.figure_rows:
            if row["image_status"] != "missing":
                continue
            if work.pdf_only:
                work.error("pdf", f"{row['label']}: {row['image_error']}", work.pdf_where)
            else:
                work.error("image", row["image_error"], f"{work.package.source.container}:{row['graphic_href']}")


class EmitArticleRow(ArticleStep):
    name = "rows"

    def run(self, work: ArticleWork) -> None:
        n_images = sum(1 for row in work.result.figure_rows if row["image_status"] == "ok")
        work.result.article_row = article_row(work.source, work.article, n_images)


ARTICLE_STEPS: tuple[ArticleStep, ...] = (
    OpenPackage(), ReadPdfOnlyArticle(), ParseJats(), StoreFigureFiles(), LocateInPdf(), CropFromPdf(),
    ReportMissingImages(), SplitCompoundFigures(), EmitArticleRow(),
)


def _remove_orphan_images(folder: DatasetFolder, key: str, rows: list[dict], subfigure_rows: list[dict]) -> None:
    """Files left by an earlier version of a changed article, which no row points at any more."""
    images = folder.image_dir(key)
    if not images.is_dir():
        return
    kept = {row["image_path"] for row in rows if row["image_path"]}
    kept |= {row["crop_path"] for row in subfigure_rows if row["crop_path"]}
    for path in images.iterdir():
        if path.relative_to(folder.root).as_posix() not in kept:
            path.unlink(missing_ok=True)
    if not any(images.iterdir()):
        images.rmdir()


def process_article(source, out_dir: Path, config: BuildConfig | None = None) -> ArticleResult:
    """Turn one article source into rows. Never raises. ``config``: what runs beyond parsing, and how."""
    config = config or BuildConfig()
    folder = DatasetFolder(out_dir)
    result = ArticleResult(key=source.key, fingerprint=source.fingerprint)
    stats: dict[str, StepStats] = {}
    try:
        with ExitStack() as resources:
            run_article_steps(ArticleWork(source, folder, config, result, resources), list(ARTICLE_STEPS), stats)
        _remove_orphan_images(folder, source.key, result.figure_rows, result.subfigure_rows)
    except StorageFailure as exc:  # failed as a whole: the next run redoes it
        result.errors.append(error_row(source.key, "write", str(exc), str(folder.root)))
        result.article_row = None
        result.figure_rows = []
        result.subfigure_rows = []
    except Exception as exc:  # a bug or an input we did not foresee: record it, keep the build going
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        result.errors.append(error_row(source.key, "internal", detail, source.container))
        result.article_row = None
        result.figure_rows = []
        result.subfigure_rows = []
    result.seconds_by_stage = {name: st.seconds for name, st in stats.items()}
    result.peak_rss_mb = peak_rss_mb()
    return result


def peak_rss_mb() -> float:
    """This process's peak resident memory. Linux's VmHWM belongs to this process image alone;
    ``ru_maxrss`` survives ``execve``, so a spawned worker would report its parent's peak."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes; elsewhere a bound
