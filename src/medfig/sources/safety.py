"""Guards every source applies before trusting a member name or a member size.

Archives come from the internet; a hostile or broken one must cost us an error
row, never a file written outside the output, a filled disk or an exhausted
memory. The limits are module globals (read at call time, not bound as default
arguments) so tests and unusual deployments can change them.
"""

from __future__ import annotations

import re
from typing import BinaryIO

from medfig.records import SourceError

MiB = 1024 * 1024

MAX_MEMBER_BYTES = 512 * MiB  # one figure or PDF; bigger is a video or a bomb
MAX_PACKAGE_BYTES = 4 * 1024 * MiB  # everything one article may decompress to
MAX_MEMBERS = 100_000  # many tiny headers are a bomb of their own
MAX_ZIP_RATIO = 200  # declared size / compressed size; real TIFFs stay well below
ZIP_RATIO_MIN_BYTES = 10 * MiB  # small members may compress well without harm
MAX_LIST_BYTES = 256 * MiB  # compressed archives larger than this are not listed at discovery

_DRIVE = re.compile(r"^[A-Za-z]:")
_IGNORED_PARTS = {"__MACOSX", "Thumbs.db"}


def safe_member_name(raw: str) -> str | None:
    """Return ``raw`` normalised to a relative '/'-path, or None when it could escape.

    Backslashes are refused outright rather than translated: on Windows they are
    separators, so ``a\\..\\..\\x`` would hide a traversal from a '/'-only check.
    """
    if not raw or "\x00" in raw or "\\" in raw:
        return None
    if raw.startswith("/") or _DRIVE.match(raw):
        return None
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def is_junk(name: str) -> bool:
    """Hidden files and OS litter (``.DS_Store``, ``__MACOSX/``) are not article content."""
    return any(part.startswith(".") or part in _IGNORED_PARTS for part in name.split("/"))


def read_capped(stream: BinaryIO, limit: int, where: str) -> bytes:
    """Read a whole stream but at most ``limit`` bytes; a declared size is never trusted."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise SourceError(f"{where}: member larger than the limit of {limit} bytes; refused")
    return data


def check_member_size(size: int, where: str) -> None:
    if size > MAX_MEMBER_BYTES:
        raise SourceError(f"{where}: member of {size} bytes exceeds the limit of {MAX_MEMBER_BYTES} bytes")


def check_zip_ratio(file_size: int, compress_size: int, where: str) -> None:
    """Refuse members that inflate suspiciously: the classic zip bomb signature."""
    if file_size <= ZIP_RATIO_MIN_BYTES:
        return
    ratio = file_size / max(compress_size, 1)
    if ratio > MAX_ZIP_RATIO:
        raise SourceError(
            f"{where}: compression ratio {ratio:.0f} exceeds {MAX_ZIP_RATIO} "
            f"({file_size} bytes from {compress_size}); refused as a possible zip bomb"
        )
