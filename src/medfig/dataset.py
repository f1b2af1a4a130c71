"""The storage layer: the only code that knows how a dataset or release folder is laid out.

A folder written by ``medfig build`` (a *dataset*)::

    figures.parquet     one row per <fig>                         (medfig.schema.FIGURES)
    articles.parquet    one row per parsed article                (ARTICLES)
    errors.parquet      one row per problem met                   (ERRORS)
    subfigures.parquet  one row per panel of a compound figure    (SUBFIGURES)
    exclusions.parquet  the ledger: why an article or figure is missing (EXCLUSIONS)
    removed.parquet     articles taken out (retracted, withdrawn) (REMOVED)
    stats.json          counts describing the dataset (deterministic: no timings)
    manifest.sqlite     per-article status and rows; makes re-runs resumable
    runs/<time>.json    one file per run: timings, executor, counts of that run
    logs/               worker logs
    images/<article>/<figure>.{jpg,png}
    .medfig.lock        held (``flock``) by the one medfig process writing the folder

Each table is either one file ``NAME.parquet`` or, in a sharded build, a folder
``NAME.parquet/`` of ``part-00000.parquet`` ...; readers never need to know which.

A folder written by ``medfig curate`` (a *release*) has ``figures.parquet``,
``articles.parquet``, ``exclusions.parquet`` (the build's ledger plus every curate
drop), ``images/`` and ``summary.json``.

Writes are atomic (:mod:`medfig.io`): a killed run leaves the old file or the new one.

>>> ds = load_dataset("demo-dataset")
>>> ds.figures.to_pandas()[["label", "caption"]]      # doctest: +SKIP
>>> ds.image(ds.figures.to_pylist()[0])                # PIL image of the first figure
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from medfig.io import atomic_write_json, atomic_write_parquet
from medfig.records import MedfigError
from medfig.schema import DATASET_TABLES

PART_PATTERN = "part-*.parquet"
LOCK_NAME = ".medfig.lock"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str) -> str:
    """``text`` as a file name: runs of other characters become ``_``; never empty."""
    cleaned = _UNSAFE_NAME.sub("_", text).strip("._")
    return cleaned[:120] or "unnamed"


class DatasetFolder:
    """A dataset or release folder on disk: paths, table reads and atomic writes."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"DatasetFolder({str(self.root)!r})"

    # -- paths -------------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.root / "manifest.sqlite"

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def lock_path(self) -> Path:
        return self.root / LOCK_NAME

    @contextmanager
    def lock(self, command: str) -> Iterator[Path]:
        """Hold the folder's exclusive write lock while the block runs (``medfig build``, ``curate``,
        ``index``): a second writer raises MedfigError at once, naming the holder's pid and command.

        The lock is ``fcntl.flock`` on ``.medfig.lock`` inside the folder, which holds the holder's
        pid and command line. The kernel releases a flock when its holder dies, however it dies
        (``kill -9``, out of memory, a power cut's reboot): a stale lock cannot exist, so there is
        nothing to clean up by hand. The descriptor is not inherited by worker processes (PEP 446),
        so only the driver holds it. The file stays after the block (removing it would race with the
        next writer) and is not part of the dataset (a dot-file, like the atomic writes' temps).
        Locks on NFS depend on the server (Linux NFSv4 maps flock to byte-range locks: fine)."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MedfigError(f"{self.root}: cannot create the folder ({exc.strerror or exc})") from exc
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise MedfigError(f"{self.root}: cannot open the lock file {LOCK_NAME} ({exc.strerror})") from exc
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise MedfigError(f"{self.root} is being written by another medfig process ({_holder(fd)}); "
                                  f"wait for it or stop it") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n{_command_line(command)}\n".encode("utf-8", "backslashreplace"), 0)
            yield self.lock_path
        finally:
            os.close(fd)  # releases the lock

    def table_location(self, name: str) -> Path:
        """``NAME.parquet``: a file, or a folder of parts in a sharded build."""
        return self.root / f"{name}.parquet"

    def part_path(self, name: str, shard: int, shards: int) -> Path:
        if shards == 1:
            return self.table_location(name)
        return self.table_location(name) / f"part-{shard:05d}.parquet"

    def parts(self, name: str) -> list[Path]:
        """The files holding table ``name`` in shard order; [] when the table is absent."""
        location = self.table_location(name)
        if location.is_file():
            return [location]
        if location.is_dir():
            return sorted(location.glob(PART_PATTERN))
        return []

    def has_table(self, name: str) -> bool:
        return bool(self.parts(name))

    def image_dir(self, article_key: str) -> Path:
        """The article's image folder; keys that are not safe names get a hash so two keys never share one."""
        name = safe_name(article_key)
        if name != article_key:
            name = f"{name}-{hashlib.sha1(article_key.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
        return self.root / "images" / name

    def file(self, relative: str) -> Path:
        """A path stored in a table (``image_path``, ``crop_path``) as a file inside this folder.

        Raises MedfigError when the stored path would leave the folder (a tampered table)."""
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root.resolve()):
            raise MedfigError(f"{self.root}: stored path {relative!r} points outside the folder")
        return path

    def stored_file(self, relative: str | None) -> Path | None:
        """A path stored in a table as an existing file inside this folder; None when the row has
        none, the file is gone or the path would leave the folder."""
        if not relative:
            return None
        try:
            path = self.file(relative)
        except (MedfigError, OSError):
            return None
        return path if path.is_file() else None

    # -- reading -----------------------------------------------------------------------------
    def read_table(self, name: str, *, required: bool = True) -> pa.Table | None:
        """Table ``name`` from either layout, checked against its schema when medfig declares one.

        Absent: MedfigError when ``required``, else an empty table of the schema (or None when
        the table has no declared schema)."""
        parts = self.parts(name)
        schema = DATASET_TABLES.get(name)
        if not parts:
            if required:
                raise MedfigError(f"{self.table_location(name)}: not found "
                                  f"(is {self.root} a folder written by `medfig build` or `medfig curate`?)")
            return schema.empty_table() if schema is not None else None
        tables = []
        for part in parts:
            try:
                tables.append(pq.read_table(part))
            except (OSError, pa.ArrowException) as exc:
                raise MedfigError(f"{part}: cannot read parquet ({exc})") from exc
        if schema is not None:
            missing = [f.name for f in schema if f.name not in tables[0].column_names]
            if missing:
                raise MedfigError(f"{parts[0]}: missing column(s) {', '.join(missing)}: written by another "
                                  f"medfig version; run `medfig build` again to rewrite it")
        try:
            return pa.concat_tables(tables, promote_options="default") if len(tables) > 1 else tables[0]
        except pa.ArrowInvalid as exc:
            raise MedfigError(f"{self.table_location(name)}: parts disagree on their columns ({exc})") from exc

    def read_rows(self, name: str, *, required: bool = True) -> list[dict]:
        table = self.read_table(name, required=required)
        return [] if table is None else table.to_pylist()

    def read_json(self, name: str) -> dict:
        """``name`` (e.g. ``stats.json``) as a dict; {} when absent."""
        path = self.root / name
        if not path.is_file():
            return {}
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise MedfigError(f"{path}: cannot read JSON ({exc})") from exc

    # -- writing -----------------------------------------------------------------------------
    def write_part(self, name: str, table: pa.Table, shard: int, shards: int, *, only_if_changed: bool = True) -> bool:
        """Write one part of table ``name`` atomically; False when its bytes were unchanged."""
        return atomic_write_parquet(self.part_path(name, shard, shards), table, only_if_changed=only_if_changed)

    def write_table(self, name: str, table: pa.Table, *, only_if_changed: bool = False) -> bool:
        """Write table ``name`` as one file (replacing a sharded folder of that name)."""
        location = self.table_location(name)
        if location.is_dir():
            shutil.rmtree(location)
        return atomic_write_parquet(location, table, only_if_changed=only_if_changed)

    def write_json(self, name: str, obj, *, only_if_changed: bool = False) -> bool:
        return atomic_write_json(self.root / name, obj, only_if_changed=only_if_changed)

    def switch_layout(self, names, shards: int) -> None:
        """Remove tables written with another shard count (a file where a folder is due, or the reverse)."""
        for name in names:
            path = self.table_location(name)
            if shards == 1 and path.is_dir():
                shutil.rmtree(path)
            elif shards > 1 and path.is_file():
                path.unlink()
            elif shards > 1 and path.is_dir():
                for part in path.glob(PART_PATTERN):
                    if int(part.stem.split("-")[1]) >= shards:
                        part.unlink()


def _command_line(command: str) -> str:
    """What the lock file says the holder is: its ``medfig ...`` command line, or ``command`` and the script."""
    argv = [a.replace("\n", " ") for a in sys.argv]
    if argv and (Path(argv[0]).name == "medfig" or argv[0].endswith("medfig/cli.py")):
        return shlex.join(["medfig", *argv[1:]])[:400]
    return f"{command} from {shlex.join(argv) or 'python'}"[:400]


def _holder(fd: int) -> str:
    """``pid N, COMMAND`` from a held lock file (the holder may still be writing it: retry briefly)."""
    text = ""
    for _ in range(20):
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        if text.endswith("\n"):
            break
        time.sleep(0.01)
    pid, _, command = text.strip().partition("\n")
    return f"pid {pid}, {command}" if pid.isdigit() else "pid unknown"


@dataclass(frozen=True)
class Dataset:
    """The tables of a built dataset, loaded. ``folder`` knows the layout and the image paths."""

    root: Path
    figures: pa.Table
    articles: pa.Table
    errors: pa.Table
    subfigures: pa.Table
    exclusions: pa.Table
    stats: dict

    @property
    def folder(self) -> DatasetFolder:
        return DatasetFolder(self.root)

    def image_file(self, figure_row: dict) -> Path | None:
        """Absolute path of a figure (or panel) row's stored image (None when the row has none)."""
        relative = figure_row.get("image_path") or figure_row.get("crop_path")
        return self.folder.file(relative) if relative else None

    def image(self, figure_row: dict):
        from medfig.images import open_image

        path = self.image_file(figure_row)
        if path is None:
            raise MedfigError(f"{figure_row.get('article_key')}/{figure_row.get('figure_id')}: no stored image "
                              f"(image_status={figure_row.get('image_status')})")
        return open_image(path)


def load_dataset(path: str | Path) -> Dataset:
    """Open the tables of a built dataset folder (single-file or sharded); raises MedfigError naming what is missing."""
    folder = DatasetFolder(path)
    if not folder.root.is_dir():
        raise MedfigError(f"{folder.root}: not found (expected a folder written by `medfig build`)")
    return Dataset(
        root=folder.root,
        figures=folder.read_table("figures"),
        articles=folder.read_table("articles"),
        errors=folder.read_table("errors"),
        subfigures=folder.read_table("subfigures", required=False),
        exclusions=folder.read_table("exclusions", required=False),
        stats=folder.read_json("stats.json"),
    )

