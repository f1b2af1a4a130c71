"""The ``medfig`` command: one entry point, one sub-command per job (see medfig.commands)."""

from __future__ import annotations

import argparse
import pkgutil
from importlib import import_module

import medfig.commands


def command_modules() -> list[str]:
    """Names of the sub-command modules, in alphabetical order."""
    return sorted(m.name for m in pkgutil.iter_modules(medfig.commands.__path__) if not m.name.startswith("_"))


def make_parser() -> argparse.ArgumentParser:
    from medfig import __version__

    parser = argparse.ArgumentParser(
        prog="medfig",
        description="Open-access biomedical articles to medical image-text datasets.",
    )
    parser.add_argument("--version", action="version", version=f"medfig {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_modules():
        import_module(f"medfig.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
