"""The build's figure-image steps: figures cropped from the PDF, and compound figures split into panels.

Both steps read and extend a :class:`medfig.pipeline.article.ArticleWork`. A figure cropped from
the PDF is handed to the split step as the image just rendered (``work.rendered``), so the PNG
written to disk is never decoded again within the build; a figure from the package, or a crop
over :data:`HELD_PIXELS_BUDGET`, is read back from its file. Both give the same pixels (PNG is lossless).
"""

from __future__ import annotations

import errno
import hashlib
import re
import traceback

from medfig.dataset import safe_name
from medfig.images import flat_rgb, open_image
from medfig.io import atomic_write_bytes
from medfig.pipeline.steps import ArticleStep

# The machine, not the article: a full disk, a quota, a read-only or failing file system. Such an
# article is failed as a whole (retried by the next run), never stored as done with images missing.
STORAGE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO}
# Crops kept in memory between the crop and split steps, per article: 3 bytes a pixel, so at most
# ~190 MB on top of a worker's ~500 MB peak (issue 15: under 1 GB per worker). Beyond it, the file is read back.
HELD_PIXELS_BUDGET = 64_000_000
_CROP_LIKE = re.compile(r"-panel_\d")  # write_crops names panels STEM-panel_I[_LABEL]: a figure stem never looks so


class StorageFailure(Exception):
    """An output file could not be written because of the machine (see STORAGE_ERRNOS)."""


def raise_if_storage(exc: BaseException) -> None:
    if isinstance(exc, OSError) and exc.errno in STORAGE_ERRNOS:
        raise StorageFailure(f"{exc.filename or 'output'}: {exc.strerror}") from exc


def image_stems(figure_ids) -> list[str]:
    """File stems of an article's figures, in document order, distinct by construction.

    A figure's stem is ``safe_name(figure_id)``; a repeat (two ``<fig id="fig1">``, or two ids
    that ``safe_name`` makes equal) becomes ``fig1~2``, ``fig1~3`` ... (``~`` is never in a
    ``safe_name``), and a stem that could be a panel crop's name gets a ``~``. Normal ids keep
    their plain stems. Every step that names a figure's file calls this on the same id list.
    """
    stems: list[str] = []
    taken: set[str] = set()
    for figure_id in figure_ids:
        base = safe_name(figure_id)
        if _CROP_LIKE.search(base):
            base += "~"
        stem, n = base, 2
        while stem in taken:
            stem, n = f"{base}~{n}", n + 1
        taken.add(stem)
        stems.append(stem)
    return stems


class CropFromPdf(ArticleStep):
    """Figures the package has no file for: their located box rendered as the image, at the
    resolution of the rasters inside it (``crop_dpi`` .. ``max_crop_dpi``, see ``medfig.pdf.output.crop_dpi``)."""

    name = "crop"

    def applies(self, work) -> bool:
        return work.pdf is not None and bool(work.located)

    def run(self, work) -> None:
        import pypdfium2 as pdfium

        from medfig.pdf.output import crop_dpi, encode_png, render_box

        stems = image_stems(row["figure_id"] for row in work.result.figure_rows)
        wanted = [(row, stem) for row, stem in zip(work.result.figure_rows, stems)
                  # "error": the package's file is unreadable (a broken TIFF); the printed figure stands in for it
                  if row["image_status"] in ("missing", "no_graphic", "error") and row["figure_id"] in work.located]
        if not wanted:
            return
        held_pixels = 0
        doc = pdfium.PdfDocument(work.pdf)
        try:
            for row, stem in wanted:
                found = work.located[row["figure_id"]]
                try:
                    page = doc[found.page]
                    dpi = crop_dpi(page, found.box_pt, work.config.crop_dpi, work.config.max_crop_dpi)
                    image = render_box(page, found.box_pt, dpi, found.reading_turn_deg)
                    page.close()
                    if image.width < 1 or image.height < 1:
                        raise ValueError(f"empty crop box {found.box_pt}")
                    png = encode_png(image)
                    # our own render: written as is, not decoded again to be checked as a package file is
                    path = work.folder.image_dir(work.key) / f"{stem}.png"
                    atomic_write_bytes(path, png, only_if_changed=True)
                except (OSError, ValueError, pdfium.PdfiumError) as exc:
                    raise_if_storage(exc)
                    work.error("pdf", f"figure {row['figure_id']}: crop failed ({exc})", work.pdf_where)
                    continue
                if work.config.subfigures and held_pixels + image.width * image.height <= HELD_PIXELS_BUDGET:
                    held_pixels += image.width * image.height
                    work.rendered[stem] = image
                row.update(
                    image_path=path.relative_to(work.folder.root).as_posix(), image_format="PNG",
                    source_image_format="PDF", width=image.width, height=image.height,
                    sha256=hashlib.sha256(png).hexdigest(), image_status="ok", image_source="pdf", pdf_page=found.page,
                    image_error=(f"{row['image_error']}; cropped from the PDF instead"
                                 if row["image_status"] == "error" else None),
                    pdf_box=[round(v, 2) for v in found.box_pt],
                )
        finally:
            doc.close()


class SplitCompoundFigures(ArticleStep):
    """Panels, panel letters, subcaptions and panel-level inline refs of every stored figure image."""

    name = "subfigures"

    def applies(self, work) -> bool:
        return work.config.subfigures

    def run(self, work) -> None:
        from medfig.compound import write_crops
        from medfig.compound.pdf_crops import pdf_crop_factor, split_compound_scaled
        from medfig.compound.table import subfigure_rows

        # by file stem, not by id: two figures sharing an id keep their own captions and crops
        figures = dict(zip(image_stems(f.figure_id for f in work.article.figures), work.article.figures))
        rows = work.result.figure_rows
        root = work.folder.root
        for row, figure_stem in zip(rows, image_stems(row["figure_id"] for row in rows)):
            figure = figures.get(figure_stem)
            held = work.rendered.pop(figure_stem, None)  # released once split, whatever happens
            if row["image_status"] != "ok" or figure is None:
                continue
            try:
                if held is not None:
                    image = held
                else:
                    with open_image(root / row["image_path"]) as opened:
                        image = flat_rgb(opened)
                # a PDF crop rendered at its rasters' full resolution is split at crop_dpi (the
                # resolution the splitter was measured at), its panels mapped back onto the crop
                factor = pdf_crop_factor(row.get("image_source"), row.get("pdf_box"), image.width, work.config.crop_dpi)
                subfigures = split_compound_scaled(image, factor, figure.caption, figure.inline_refs,
                                                   figure_id=figure.figure_id)
                stem = (work.folder.image_dir(work.key) / f"{figure_stem}-panel").relative_to(root)
                write_crops(image, subfigures, root, stem.as_posix())
            except Exception as exc:  # one odd image must not lose the article's other figures
                raise_if_storage(exc)
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                work.error("subfigures", f"figure {figure.figure_id}: {detail}", row["image_path"])
                continue
            row["n_subfigures"] = len(subfigures)
            work.result.subfigure_rows.extend(subfigure_rows(work.key, subfigures))
