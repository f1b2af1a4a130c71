"""Curation: a built dataset folder in, a release a researcher can train on and cite out.

Every step keeps or drops a figure with a reason (see :mod:`medfig.pipeline.steps`);
drops are rows of the release's exclusion ledger (``exclusions.parquet``, :mod:`medfig.ledger`). Entry point: :func:`medfig.curate.run.curate`.
"""

from medfig.curate.run import CurateOptions, CurateReport, curate, load_records

__all__ = ["CurateOptions", "CurateReport", "curate", "load_records"]
