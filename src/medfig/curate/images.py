"""Image presence: a release for training needs an image file for every figure.

Rows without an image (the 30 Hindawi articles come as XML + PDF only, so until
PDF extraction fills them their figures have ``image_status = missing``) are
dropped here with reason ``no_image`` and the build's own status/error as detail,
unless the run asks to keep text-only figures (``--allow-missing-images``). Figure
supplements the PDF does not print (``image_status = not_in_pdf``, eLife) are dropped
with their own reason, ``not_in_pdf``: nothing went wrong, there is no image to have.
Steps that need pixels (duplicates) skip such rows and count the skip.
"""

from __future__ import annotations

from medfig.pipeline.steps import KEEP, Filter, Record, Verdict, drop


def has_image(record: Record) -> bool:
    return bool(record.get("image_path")) and record.get("image_status") in (None, "ok")


class RequireImageFilter(Filter):
    name = "image"

    def filter(self, record: Record) -> Verdict:
        if has_image(record):
            return KEEP
        status = record.get("image_status") or "none"
        err = record.get("image_error") or ""
        reason = "not_in_pdf" if status == "not_in_pdf" else "no_image"
        return drop(reason, f"image_status={status}" + (f": {err[:120]}" if err else ""))
