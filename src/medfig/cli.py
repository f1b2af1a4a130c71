"""The ``medfig`` command."""
import sys


def main(argv: list[str] | None = None) -> int:
    raise SystemExit("medfig: not implemented yet")
