"""Argument types shared by every sub-command: ranges are checked once, here, by argparse.

Each function is an argparse ``type=``: it turns the text into a value or raises
``argparse.ArgumentTypeError`` with a message saying what was expected, so a nonsense
value (``--workers -3``, ``--splits abc``) is a one-line usage error (exit code 2) before
any work starts, never a traceback or a silently odd run. ``output_folder`` checks an
output path against its input (the dataset must not land inside the articles it reads).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

MAX_YEAR = 9999


def _number(text: str, kind: type, what: str):
    try:
        value = kind(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def int_in(low: int | None = None, high: int | None = None, what: str | None = None):
    """An ``int`` type with inclusive bounds (None: unbounded on that side)."""
    if what is None:
        if low is not None and high is not None:
            what = f"an integer from {low} to {high}"
        elif low is not None:
            what = {0: "an integer >= 0", 1: "a positive integer"}.get(low, f"an integer >= {low}")
        else:
            what = "an integer"

    def parse(text: str) -> int:
        value = _number(text, int, what)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its fallback message
    return parse


def float_in(low: float | None = None, high: float | None = None, *, low_open: bool = False, what: str = ""):
    """A finite ``float`` type with bounds; ``low_open`` excludes ``low`` itself."""
    if not what:
        if low is not None and high is not None:
            what = f"a number from {low:g} to {high:g}"
        elif low is not None:
            what = f"a number {'>' if low_open else '>='} {low:g}"
        else:
            what = "a number"

    def parse(text: str) -> float:
        value = _number(text, float, what)
        if low is not None and (value < low or (low_open and value == low)):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


non_negative_int = int_in(0)
positive_int = int_in(1)
non_negative_float = float_in(0.0)
positive_float = float_in(0.0, low_open=True)
fraction = float_in(0.0, 1.0)  # a share, a probability, a confidence
year = int_in(1, MAX_YEAR, what=f"a year from 1 to {MAX_YEAR}")
port = int_in(0, 65535, what="a port from 0 to 65535")
dpi = float_in(1.0, 2400.0, what="a resolution from 1 to 2400 dpi")
hamming_64 = int_in(0, 64, what="a Hamming distance from 0 to 64 (bits of a 64-bit hash)")


def splits(text: str) -> tuple[float, float, float]:
    """``train,valid,test``: three fractions from 0 to 1 that add up to 1."""
    parts = [p.strip() for p in text.split(",")]
    what = "three fractions train,valid,test from 0 to 1 adding up to 1, e.g. 0.8,0.1,0.1"
    if len(parts) != 3:
        raise argparse.ArgumentTypeError(f"expected {what}; got {text!r}")
    try:
        values = tuple(fraction(p) for p in parts)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected {what}; got {text!r}") from None
    if abs(sum(values) - 1.0) > 1e-6:
        raise argparse.ArgumentTypeError(f"expected {what}; {text!r} adds up to {sum(values):g}")
    return values  # type: ignore[return-value]


def output_problem(output: str | Path, *inputs: str | Path | None) -> str | None:
    """Why ``output`` cannot be written as a folder (None: it can).

    Refused: an existing path that is not a folder, a path below an existing file, and a
    folder equal to or inside one of ``inputs`` (the output would be read back as input).
    """
    out = Path(output).expanduser()
    if out.exists() and not out.is_dir():
        return f"{output}: exists and is not a folder"
    for parent in out.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{output}: {parent} is a file, not a folder"
            break
    resolved = out.resolve()
    for given in inputs:
        if given is None or "://" in str(given):
            continue
        source = Path(given).expanduser().resolve()
        if not source.is_dir():
            continue
        if resolved == source:
            return f"{output}: the output folder is the input folder; choose another (e.g. {source.name}-dataset)"
        if source in resolved.parents:
            return f"{output}: the output folder is inside the input folder {given}; choose one outside it"
    return None
