"""Moved to :mod:`medfig.io`; this name is kept only while callers move."""

from medfig.io import (TEMP_MARK, atomic_write_bytes, atomic_write_json, atomic_write_parquet,  # noqa: F401
                       parquet_bytes, remove_stale_temps)
