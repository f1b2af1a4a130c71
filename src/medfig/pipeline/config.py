"""``BuildConfig``: every setting that changes what ``medfig build`` writes, in one frozen record.

The build stores :meth:`BuildConfig.fingerprint` in the manifest; a run whose fingerprint
differs (another crop resolution, another medfig or model version, compound splitting
switched off) redoes every article instead of mixing rows made two ways.

Environment variables are read once, on the driver, by :meth:`BuildConfig.from_environment`;
workers (local processes or Ray tasks on other machines) receive the config as an argument,
never by reading their own environment.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass
from importlib import metadata

from medfig.records import MedfigError

CROP_DPI_ENV = "MEDFIG_CROP_DPI"
# Packages whose models or behaviour shape the rows: their versions are part of the fingerprint.
MODEL_PACKAGES = ("rapid-layout", "rapidocr", "onnxruntime", "pypdfium2", "pdfplumber", "pillow")


@dataclass(frozen=True, slots=True)
class BuildConfig:
    """What the per-article task does beyond parsing, and how."""

    # locate every figure in the article's PDF (pdf_page, pdf_box); crop those the package has no file for
    pdf_figures: bool = True
    subfigures: bool = True  # split compound figures into panels with subcaptions (subfigures.parquet)
    # figures cropped from PDFs are rendered at their embedded rasters' own resolution (pixels per
    # inch), never below crop_dpi (vector art has no resolution of its own) nor above max_crop_dpi
    crop_dpi: float = 150.0
    max_crop_dpi: float = 600.0

    def __post_init__(self) -> None:
        if not 36 <= self.crop_dpi <= 600:
            raise MedfigError(f"crop resolution {self.crop_dpi} dpi is outside 36-600")
        if not self.crop_dpi <= self.max_crop_dpi <= 1200:
            raise MedfigError(f"maximum crop resolution {self.max_crop_dpi} dpi is outside {self.crop_dpi:g}-1200 "
                              f"(at least the crop resolution)")

    @classmethod
    def from_environment(cls, **overrides) -> BuildConfig:
        """Defaults, then ``MEDFIG_CROP_DPI`` when set, then ``overrides`` (None values ignored)."""
        values = {}
        if os.environ.get(CROP_DPI_ENV):
            try:
                values["crop_dpi"] = float(os.environ[CROP_DPI_ENV])
            except ValueError:
                raise MedfigError(f"{CROP_DPI_ENV}={os.environ[CROP_DPI_ENV]!r} is not a number") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def fingerprint_fields(self) -> dict:
        """The settings, medfig's and its model packages' versions, and the table schema version."""
        from medfig import __version__
        from medfig.schema import SCHEMA_VERSION

        return {
            **dataclasses.asdict(self),
            "medfig": __version__,
            "schema": SCHEMA_VERSION,
            "packages": {name: _version(name) for name in MODEL_PACKAGES},
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.fingerprint_fields(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"
