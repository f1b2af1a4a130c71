"""Arrow schemas of every table medfig writes: the one place a column is declared.

One article's rows travel from a worker to the writer as plain dicts; these schemas
keep column types stable even when a table is empty. ``tests/test_schema.py`` checks
them against the record dataclasses in :mod:`medfig.records`, so a field added to a
record without its column (or the reverse) fails a test.

Units are in the column names where a value has one: ``*_px`` pixels of the stored
image, ``pdf_box`` PDF points (origin top-left, ``[x0, y0, x1, y1]``).

Dataset tables (``medfig build``): FIGURES, ARTICLES, ERRORS, SUBFIGURES, REMOVED,
EXCLUSIONS. Release tables (``medfig curate``): the build's FIGURES columns plus
curation columns (schema inferred, see :mod:`medfig.curate.run`), ARTICLES, EXCLUSIONS.
"""

from __future__ import annotations

import pyarrow as pa

# Bumped when a table's columns change meaning or name: a dataset written with another
# version is rebuilt by the next `medfig build` rather than mixed (it is in the build fingerprint).
SCHEMA_VERSION = 3  # 3: subfigures.confidence

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
        ("flags", pa.list_(pa.string())),  # see medfig.pipeline.rows.figure_flags
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

SUBFIGURES = pa.schema(
    [
        ("article_key", pa.string()),
        ("figure_id", pa.string()),  # the parent figure (figures.parquet figure_id)
        ("label", pa.string()),
        ("label_source", pa.string()),  # ocr | order | none
        ("box_px", pa.list_(pa.int32(), 4)),  # [x0, y0, x1, y1] pixels of the stored figure image
        ("score", pa.float32()),
        ("subcaption", pa.string()),
        ("subcaption_spans", pa.list_(pa.list_(pa.int32(), 2))),  # [start, end) offsets into the caption
        ("crop_path", pa.string()),  # relative to the dataset folder
        ("inline_refs", pa.list_(INLINE_REF)),  # sentences citing this panel
        ("confidence", pa.float32()),  # calibrated probability that the panel is right (null: no model)
    ]
)

REMOVED = pa.schema(
    [
        ("article_key", pa.string()),
        ("reason", pa.string()),  # retracted | withdrawn | a reason given in the removal list
        ("detail", pa.string()),
    ]
)

# The exclusion ledger: one row for every article or figure that is not in the output, and
# every problem met on the way. ``figure_id`` is null for an article-level row.
# phase: build | curate; step: the build stage or curate step; reason: a short stable code.
EXCLUSIONS = pa.schema(
    [
        ("article_key", pa.string()),
        ("figure_id", pa.string()),
        ("phase", pa.string()),
        ("step", pa.string()),
        ("reason", pa.string()),
        ("detail", pa.string()),
        ("file", pa.string()),
    ]
)

# The tables of a built dataset folder, in the order the build writes them.
DATASET_TABLES: dict[str, pa.Schema] = {
    "figures": FIGURES,
    "articles": ARTICLES,
    "errors": ERRORS,
    "subfigures": SUBFIGURES,
    "exclusions": EXCLUSIONS,
}


def to_table(rows: list[dict], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema)
