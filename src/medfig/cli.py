"""The ``medfig`` command: one entry point, one sub-command per job (see medfig.commands).

Errors end in one line on stderr, never a traceback for something the user did:

| what | exit code |
|---|---|
| a bad argument (argparse, ``medfig.commands._args`` ranges) | 2 |
| a ``MedfigError`` (bad input, refused output) | 2 |
| an ``OSError`` naming a path: missing, not a folder, exists, no permission, read-only file system | 2 |
| the environment: disk full, quota, I/O error (``ENOSPC``, ``EDQUOT``, ``EIO``), a locked or full database | 1 |
| Ctrl-C (``KeyboardInterrupt``) | 130 |
| anything else is a bug: one line, and ``MEDFIG_DEBUG=1`` shows the traceback | 70 |

``MEDFIG_DEBUG=1`` lets every exception through with its traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import pkgutil
import sqlite3
import sys
from importlib import import_module
from pathlib import Path

import medfig.commands
from medfig.records import MedfigError

DEBUG_ENV = "MEDFIG_DEBUG"
EXIT_ENVIRONMENT = 1
EXIT_USAGE = 2
EXIT_BUG = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.ENOMEM, errno.EMFILE, errno.ENFILE}


class OneLineParser(argparse.ArgumentParser):
    """argparse with a one-line error: ``medfig build: error: argument --workers: ... (see --help)``."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def command_modules() -> list[str]:
    """Names of the sub-command modules, in alphabetical order."""
    return sorted(m.name for m in pkgutil.iter_modules(medfig.commands.__path__) if not m.name.startswith("_"))


def make_parser() -> argparse.ArgumentParser:
    from medfig import __version__

    parser = OneLineParser(
        prog="medfig",
        description="Open-access biomedical articles to medical image-text datasets.",
    )
    parser.add_argument("--version", action="version", version=f"medfig {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_modules():
        import_module(f"medfig.commands.{name}").register(sub)
    return parser


def _command_name(args: argparse.Namespace) -> str:
    words = ["medfig", args.command] + [w for w in (getattr(args, "metric", None), getattr(args, "model", None)) if w]
    return " ".join(words)


def _written_path(args: argparse.Namespace) -> str | None:
    """The folder or file the command writes (or, failing that, reads): named when an error has no path."""
    for attr in ("output", "dataset", "release", "folder", "input"):
        value = getattr(args, attr, None)
        if isinstance(value, (str, Path)):
            return str(value)
    return None


def _path_text(path) -> str:
    return os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)  # an fd is an int


def describe_os_error(exc: OSError, fallback_path: str | None = None) -> tuple[str, int]:
    """(one line naming the path and the problem, exit code) for an ``OSError``."""
    problem = exc.strerror or str(exc) or type(exc).__name__
    path = exc.filename if exc.filename is not None else None
    if path is not None:
        where = _path_text(path)
        if exc.filename2 is not None:
            where += f" -> {_path_text(exc.filename2)}"
        line = f"{where}: {problem}"
    elif fallback_path:
        line = f"{fallback_path}: {problem}"  # the folder the command works in: the error named no file
    else:
        line = problem
    return line, EXIT_ENVIRONMENT if exc.errno in ENVIRONMENT_ERRNOS else EXIT_USAGE


def describe_sqlite_error(exc: sqlite3.Error, args: argparse.Namespace) -> tuple[str, int]:
    """(one line naming the database, exit code): the build's manifest or the dataset's search index."""
    text = str(exc)
    if args.command == "build" and getattr(args, "output", None):
        where = str(Path(args.output) / "manifest.sqlite")
    else:
        where = _written_path(args) or "database"
    environment = any(s in text for s in ("disk is full", "disk I/O error", "database is locked", "out of memory"))
    return f"{where}: database error: {text}", EXIT_ENVIRONMENT if environment else EXIT_USAGE


# Commands whose output is a folder -> the argument naming the input it must not equal or lie inside.
OUTPUT_FOLDERS = {"build": "input", "curate": "dataset", "demo": None, "export": None, "extract": None, "induce": None}


def output_problem(args: argparse.Namespace) -> str | None:
    """Why the command's output folder cannot be used (an existing file, the input folder), or None."""
    from medfig.commands._args import output_problem as problem

    if args.command not in OUTPUT_FOLDERS or not getattr(args, "output", None):
        return None
    source = OUTPUT_FOLDERS[args.command]
    given = getattr(args, source, None) if source else None
    return problem(args.output, *(given if isinstance(given, list) else [given]))  # build takes several inputs


def run_command(args: argparse.Namespace) -> int:
    """``args.func(args)`` with every exception turned into one line on stderr and an exit code."""
    name = _command_name(args)

    def fail(line: str, code: int) -> int:
        print(f"{name}: {line}", file=sys.stderr, flush=True)
        return code

    try:
        refused = output_problem(args)
        if refused:
            return fail(refused, EXIT_USAGE)
        return args.func(args)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:  # `medfig ... | head`: the reader has what it wanted
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_ENVIRONMENT
    except MedfigError as exc:
        return fail(str(exc), EXIT_USAGE)
    except sqlite3.Error as exc:
        return fail(*describe_sqlite_error(exc, args))
    except OSError as exc:
        return fail(*describe_os_error(exc, _written_path(args)))
    except Exception as exc:  # a bug: say so in one line, the traceback is one variable away
        return fail(f"internal error: {type(exc).__name__}: {exc} (a bug in medfig; "
                    f"run with {DEBUG_ENV}=1 for the traceback)", EXIT_BUG)


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
        return args.func(args)
    return run_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
