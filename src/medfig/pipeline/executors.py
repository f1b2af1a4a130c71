"""One executor protocol for every place medfig fans work out: builds, and curate's image hashing.

An executor runs ``task(item)`` for each item and yields one result per item, in completion
order (not input order: pair results with items through the result, e.g. the article key).
It never raises for one item's trouble. Whatever goes wrong with an item — the task raised,
it ran past ``timeout_s``, its worker process died, its Ray task was cancelled — is described
by one :class:`TaskFailure`, and the executor yields ``on_failure(item, failure)`` in place of
the result. ``on_failure`` is given once, to :func:`make_executor`; for builds it is
:func:`article_failure`, the article's error row, the same on every executor.

::

    with make_executor("local", workers=4, timeout_s=600, log_dir=out / "logs") as ex:
        for result in ex.map(task, sources):
            ...

Kinds (``make_executor(kind, ...)``, img2dataset's "distributor" switch):

- ``local`` with ``workers=0``: :class:`InProcess`, in this process (debugging, notebooks): no
  timeout and no crash isolation, but a raising task still becomes ``on_failure``'s result;
- ``local``: :class:`Local`, the :class:`~medfig.pipeline.local_pool.LocalPool` (a worker past
  the timeout is killed and replaced; a dead worker is replaced and its item retried once);
- ``ray``: :class:`Ray`, Ray tasks on a cluster (:mod:`medfig.pipeline.ray_executor`).

Worker logs: with ``log_dir``, whatever a task writes to stdout/stderr (Python ``print``,
``logging`` handlers, warnings, C libraries writing to fd 2) goes to
``log_dir/worker-<pid>.log`` (local) or ``log_dir/ray-<node ip>-<pid>.log`` (Ray, one per
worker process on each node). Each file starts with a line naming host, node and pid; a
task's output is preceded by a ``--- <time> <item>`` line, which is dropped again when the
task wrote nothing, so the logs hold only what was said (and the item a killed worker was
on). The in-process executor leaves output where it is. A raising task's traceback is
printed to its stderr (the log, or the terminal in this process); the error row gets its
last line.
"""

from __future__ import annotations

import os
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from medfig.pipeline.failures import TaskFailure, article_failure

KINDS = ("local", "ray")


# --- what runs in the worker: the task, its exceptions and its output ---------------------------------


@dataclass(slots=True)
class Raised:
    """A task's exception, carried back from the worker as a value (it is turned into a TaskFailure)."""

    error: str  # "Type: message", as traceback.format_exception_only writes it


def _label(item) -> str:
    key = getattr(item, "key", None)
    if isinstance(key, str):
        return key
    text = repr(item)
    return text if len(text) <= 200 else text[:197] + "..."


class WorkerLog:
    """One worker process's log file: a task's stdout and stderr (file descriptors 1 and 2) go into it."""

    def __init__(self, path: Path, banner: str):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self.fd, f"{banner}\n".encode())

    @contextmanager
    def capture(self, label: str):
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        header = f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {label}\n".encode("utf-8", "backslashreplace")
        before = os.fstat(self.fd).st_size
        os.write(self.fd, header)
        saved = os.dup(1), os.dup(2)
        os.dup2(self.fd, 1)
        os.dup2(self.fd, 2)
        try:
            yield
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            if os.fstat(self.fd).st_size == before + len(header):  # the task said nothing
                os.ftruncate(self.fd, before)


_LOGS: dict[str, WorkerLog] = {}  # per worker process: log folder -> its open log


def worker_log(log_dir: str, prefix: str) -> WorkerLog:
    """This process's log in ``log_dir`` (opened once per process and folder)."""
    log = _LOGS.get(log_dir)
    if log is None or log.path.name.rsplit("-", 1)[-1] != f"{os.getpid()}.log":
        node = ""
        if prefix == "ray":
            import ray

            node = ray.util.get_node_ip_address()
        name = f"{prefix}-{node}-{os.getpid()}.log" if node else f"{prefix}-{os.getpid()}.log"
        kind = "Ray" if prefix == "ray" else "local"
        banner = (f"medfig {kind} worker: host {socket.gethostname()}" + (f", node {node}" if node else "")
                  + f", pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}")
        log = _LOGS[log_dir] = WorkerLog(Path(log_dir) / name, banner)
    return log


@dataclass(slots=True)
class Guarded:
    """``task(item)``, with an exception returned as :class:`Raised` and the output in the worker's log.

    This is what every executor actually runs, in its worker or in this process.
    """

    task: Callable
    log_dir: str | None = None
    log_prefix: str = "worker"  # "worker" (local pool) or "ray" (file name carries the node's IP)

    def __call__(self, item):
        log = worker_log(self.log_dir, self.log_prefix) if self.log_dir else None
        with log.capture(_label(item)) if log else nullcontext():
            try:
                return self.task(item)
            except Exception as exc:  # one item's bug must not stop the run: it becomes a failure
                traceback.print_exc()  # the whole story for the log (or the terminal, in this process)
                return Raised("".join(traceback.format_exception_only(type(exc), exc)).strip())


def settle(item, outcome, on_failure: Callable):
    """The result to yield for ``item``: the one place where a failure becomes a result.

    ``outcome`` is what the item's :class:`Guarded` task returned (its result, or :class:`Raised`)
    or the executor's :class:`TaskFailure` (timeout, dead worker, cancelled task).
    """
    if isinstance(outcome, Raised):
        return on_failure(item, TaskFailure("exception", error=outcome.error))
    if isinstance(outcome, TaskFailure):
        return on_failure(item, outcome)
    return outcome


def _keep_failure(_item, failure: TaskFailure) -> TaskFailure:
    return failure  # the pool hands it back as the outcome; settle() maps it


@dataclass(slots=True)
class WithOutDir:
    """``task(item, out_dir)`` as a one-argument task (the build's tasks take the output folder)."""

    task: Callable
    out_dir: Path

    def __call__(self, item):
        return self.task(item, self.out_dir)


# --- the protocol and its three executors -----------------------------------------------------------


class Executor(Protocol):
    def map(self, task: Callable, items: Iterable) -> Iterator: ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc) -> None: ...


class _Base:
    def __init__(self, *, on_failure: Callable = article_failure, log_dir: str | Path | None = None):
        self.on_failure = on_failure
        self.log_dir = str(log_dir) if log_dir is not None else None

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class InProcess(_Base):
    """Items one after the other in this process: no timeout, no crash isolation, no log files."""

    def map(self, task: Callable, items: Iterable) -> Iterator:
        guarded = Guarded(task)
        for item in items:
            yield settle(item, guarded(item), self.on_failure)


class Local(_Base):
    """The local process pool (:class:`~medfig.pipeline.local_pool.LocalPool`): timeouts, a dead
    worker replaced and its item retried (``max_attempts``), ``warm_up`` run in each new worker."""

    def __init__(self, workers: int, *, timeout_s: float | None = None, max_attempts: int = 2,
                 warm_up: Callable | None = None, single_threaded_models: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.workers = max(1, workers)
        self.timeout_s = timeout_s
        self.max_attempts = max_attempts
        self.warm_up = warm_up
        self.single_threaded_models = single_threaded_models
        self._runs: list = []

    def map(self, task: Callable, items: Iterable) -> Iterator:
        from medfig.pipeline.local_pool import LocalPool

        items = list(items) if not isinstance(items, list) else items
        if not items:  # no worker is started for nothing (a no-op build writes no log)
            return
        pool = LocalPool(Guarded(task, self.log_dir, "worker"), None, workers=min(self.workers, len(items)),
                         timeout_s=self.timeout_s, max_attempts=self.max_attempts, on_failure=_keep_failure,
                         warm_up=self.warm_up, single_threaded_models=self.single_threaded_models)
        run = pool.run_items(items)
        self._runs.append(run)
        try:
            for item, outcome in run:
                yield settle(item, outcome, self.on_failure)
        finally:
            run.close()
            self._runs.remove(run)

    def close(self) -> None:
        for run in list(self._runs):
            run.close()  # stops its workers (LocalPool.run's finally)


class Ray(_Base):
    """Ray tasks on the cluster at ``address`` (``None``: a local Ray started for the run); at most
    ``max_in_flight`` (default: the cluster's CPUs) out at once; a timed-out task is force-cancelled."""

    def __init__(self, *, address: str | None = None, timeout_s: float | None = None,
                 max_in_flight: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.address = address
        self.timeout_s = timeout_s
        self.max_in_flight = max_in_flight

    def map(self, task: Callable, items: Iterable) -> Iterator:
        from medfig.pipeline.ray_executor import run_on_ray

        for item, outcome in run_on_ray(Guarded(task, self.log_dir, "ray"), items, address=self.address,
                                        timeout_s=self.timeout_s, max_in_flight=self.max_in_flight):
            yield settle(item, outcome, self.on_failure)


def make_executor(kind: str = "local", *, workers: int = 1, timeout_s: float | None = None,
                  ray_address: str | None = None, on_failure: Callable = article_failure,
                  log_dir: str | Path | None = None) -> Executor:
    """The one switch between executors.

    ``workers``: processes (``local``; 0 runs in this process) or tasks in flight (``ray``; 0 or
    less means the cluster's CPU count). ``timeout_s``: per item (not in-process). ``on_failure``:
    ``(item, TaskFailure) -> result``. ``log_dir``: where workers' logs go (module doc).
    """
    if kind == "ray":
        return Ray(address=ray_address, timeout_s=timeout_s, max_in_flight=workers if workers > 0 else None,
                   on_failure=on_failure, log_dir=log_dir)
    if kind != "local":
        raise ValueError(f"unknown executor {kind!r}: use one of {', '.join(KINDS)}")
    if workers <= 0:
        return InProcess(on_failure=on_failure, log_dir=log_dir)
    return Local(workers, timeout_s=timeout_s, on_failure=on_failure, log_dir=log_dir)
