"""Row layouts of the dataset tables, as explicit Arrow schemas.

One article's rows travel from a worker to the writer as plain dicts; the
schemas keep column types stable even when a table is empty.
"""

from __future__ import annotations

import pyarrow as pa

INLINE_REF = pa.struct(
    [
        ("sentence", pa.string()),
        ("section", pa.string()),
        ("mention", pa.string()),
        ("panels", pa.list_(pa.string())),
        ("paragraph_index", pa.int32()),
        ("sentence_index", pa.int32()),
    ]
)

LICENCE_FIELDS = [
    ("licence_spdx", pa.string()),
    ("licence_url", pa.string()),
    ("licence_text", pa.string()),
    ("licence_source", pa.string()),
]

FIGURES = pa.schema(
    [
        ("article_key", pa.string()),
        ("pmcid", pa.string()),
        ("pmid", pa.string()),
        ("doi", pa.string()),
        ("figure_id", pa.string()),
        ("label", pa.string()),
        ("caption_title", pa.string()),
        ("caption", pa.string()),
        ("fig_type", pa.string()),
        ("parent_id", pa.string()),
        ("graphic_href", pa.string()),
        ("graphic_file", pa.string()),
        *LICENCE_FIELDS,
        ("inline_refs", pa.list_(INLINE_REF)),
        ("n_inline_refs", pa.int32()),
        ("image_path", pa.string()),  # relative to the dataset folder
        ("image_format", pa.string()),
        ("source_image_format", pa.string()),
        ("width", pa.int32()),  # pixels of the stored image
        ("height", pa.int32()),
        ("sha256", pa.string()),  # of the stored image file
        ("image_status", pa.string()),  # ok | missing | error | no_graphic
        ("image_error", pa.string()),
        ("image_source", pa.string()),  # package (the published file) | pdf (cropped from the PDF)
        ("pdf_page", pa.int32()),  # 0-based page of the figure in the article's PDF (when located there)
        ("pdf_box", pa.list_(pa.float32())),  # [x0, y0, x1, y1] PDF points, origin top-left
        ("n_subfigures", pa.int32()),  # 0: single panel (or not analysed); rows in subfigures.parquet
        ("flags", pa.list_(pa.string())),  # see medfig.pipeline.article.figure_flags
    ]
)

TABLE = pa.struct([("table_id", pa.string()), ("label", pa.string()), ("caption", pa.string())])

ARTICLES = pa.schema(
    [
        ("article_key", pa.string()),
        ("source_container", pa.string()),
        ("source_kind", pa.string()),
        ("fingerprint", pa.string()),
        ("pmcid", pa.string()),
        ("pmid", pa.string()),
        ("doi", pa.string()),
        ("title", pa.string()),
        ("journal", pa.string()),
        ("year", pa.int32()),
        ("article_type", pa.string()),
        ("authors", pa.list_(pa.string())),
        *LICENCE_FIELDS,
        ("xml_file", pa.string()),
        ("pdf_file", pa.string()),
        ("n_figures", pa.int32()),
        ("n_images", pa.int32()),
        ("n_tables", pa.int32()),
        ("n_fig_xrefs", pa.int32()),
        ("n_inline_refs", pa.int32()),
        ("tables", pa.list_(TABLE)),
        ("warnings", pa.list_(pa.string())),
    ]
)

ERRORS = pa.schema(
    [
        ("article_key", pa.string()),
        ("stage", pa.string()),
        ("message", pa.string()),
        ("file", pa.string()),
    ]
)


def to_table(rows: list[dict], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema)


REMOVED = pa.schema(
    [
        ("article_key", pa.string()),
        ("reason", pa.string()),  # retracted | withdrawn | a reason given in the removal list
        ("detail", pa.string()),
    ]
)
