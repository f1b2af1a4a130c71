"""The Arrow schemas (medfig.schema) agree with the record dataclasses (medfig.records) they store.

A field added to a record without its column, or a column without its field, fails here. Where a
column is named differently from its field, or exists only in one of them, the reason is written
below, by hand, so the difference is a decision and not an accident.
"""

from __future__ import annotations

import dataclasses

import pyarrow as pa

from medfig import records, schema

# Fields that are not columns of the table that stores the record, and why.
NOT_STORED = {
    "InlineRef": {"figure_id": "the row it is nested in names the figure"},
    "Subfigure": {"label_box_px": "where the letter was read: used by the compound stage, not released"},
    "ErrorRecord": {},
}
# record field -> column, where the table says the unit or the context in the name
RENAMED = {
    "ErrorRecord": {"article": "article_key"},
    "Subfigure": {"crop_file": "crop_path"},
}
# Columns with no field in the record, and what fills them.
EXTRA_COLUMNS = {
    "ErrorRecord": set(),
    "Subfigure": {"article_key": "the article the panel's figure belongs to"},
}


def _check(record_type: type, columns: pa.Schema | pa.StructType) -> None:
    name = record_type.__name__
    fields = {f.name for f in dataclasses.fields(record_type)} - set(NOT_STORED.get(name, {}))
    renamed = RENAMED.get(name, {})
    expected = {renamed.get(f, f) for f in fields} | set(EXTRA_COLUMNS.get(name, {}))
    names = {columns.field(i).name for i in range(columns.num_fields)} if isinstance(columns, pa.StructType) \
        else set(columns.names)
    assert names == expected, (name, sorted(names ^ expected))


def test_inline_ref_struct_matches_the_record():
    _check(records.InlineRef, schema.INLINE_REF)


def test_subfigures_table_matches_the_record():
    _check(records.Subfigure, schema.SUBFIGURES)
    assert schema.SUBFIGURES.field("box_px").type == pa.list_(pa.int32(), 4)  # pixels, one schema only


def test_errors_table_matches_the_record():
    _check(records.ErrorRecord, schema.ERRORS)


def test_figures_and_articles_tables_hold_every_record_field():
    figure_fields = {f.name for f in dataclasses.fields(records.Figure)} - {"licence"}
    assert figure_fields <= set(schema.FIGURES.names)
    licence_columns = {f"licence_{f.name}" for f in dataclasses.fields(records.Licence)}
    assert licence_columns <= set(schema.FIGURES.names) and licence_columns <= set(schema.ARTICLES.names)
    # key (the build's id of the article) is article_key; figures and tables are tables of their own
    article_fields = {f.name for f in dataclasses.fields(records.Article)} - {"licence", "figures", "key"}
    assert article_fields - {"tables"} <= set(schema.ARTICLES.names) and "article_key" in schema.ARTICLES.names
    table_fields = {f.name for f in dataclasses.fields(records.Table)}
    assert table_fields == {schema.TABLE.field(i).name for i in range(schema.TABLE.num_fields)}


def test_exclusions_table_matches_the_record():
    _check(records.Exclusion, schema.EXCLUSIONS)


def test_every_dataset_table_has_article_key_first():
    for name, table_schema in schema.DATASET_TABLES.items():
        assert table_schema.names[0] == "article_key", name
