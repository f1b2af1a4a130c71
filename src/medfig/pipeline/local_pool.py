"""The local executor: a pool of worker processes that survives its workers.

``concurrent.futures.ProcessPoolExecutor`` gives up on the whole pool when one
worker dies, and cannot stop one task that hangs. Building from millions of
articles written by thousands of publishers needs both, so this pool:

- gives each worker one article at a time over a pipe, so the parent always
  knows which article a worker holds and since when;
- kills a worker whose article runs past ``timeout_s`` (a parser stuck in C
  code does not answer signals) and records a ``timeout`` error for it;
- notices a worker that died (killed, out of memory, segfault), starts a new
  one and retries the article up to ``max_attempts`` times before recording a
  ``worker`` error;
- hands out sources lazily, so a huge input never sits in memory as tasks.

Workers are started with ``spawn``: forking a parent that holds threads
(onnxruntime, tqdm's monitor) can deadlock the child. Each worker imports its
models once and keeps them for every article it processes.

Signals and the driver's death: workers ignore SIGINT (a terminal's Ctrl-C reaches the whole
process group; the driver decides what stops, and stops its workers itself), SIGINT is
blocked while one starts so it cannot die in its start-up, and a worker dies with the
driver (``PR_SET_PDEATHSIG``: the kernel sends it SIGKILL when the driver exits, even
after ``kill -9``; elsewhere than Linux a closed pipe ends it after its current task). A
worker whose driver went away says nothing (no BrokenPipe traceback).

The pool is not tied to articles: ``medfig extract`` runs one PDF per task on it, with
its own ``on_failure`` (what a timeout or a dead worker becomes) and ``warm_up`` (models
loaded before the first task's clock starts).
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path

from medfig.pipeline.failures import TaskFailure, article_failure
from medfig.records import MedfigError

_STOP = None
_KILL_GRACE_S = 2.0


_READY = "ready"
STARTUP_TIMEOUT_S = 120.0


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent_pid: int) -> None:
    """Linux: the kernel kills this process when its parent dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(0)


def _worker_main(conn: Connection, task: Callable, out_dir: str | None, warm_up: Callable | None,
                 single_threaded_models: bool, parent_pid: int | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent while starting us
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    if single_threaded_models:
        os.environ.setdefault("MEDFIG_ONNX_THREADS", "1")  # one worker per core: models run single-threaded
    try:
        if warm_up is not None:
            warm_up()
        conn.send(_READY)
        while True:
            source = conn.recv()
            if source is _STOP:
                return
            conn.send(task(source) if out_dir is None else task(source, Path(out_dir)))
    except (EOFError, BrokenPipeError, ConnectionResetError):  # the driver went away: nothing to say
        return


@dataclass
class _Worker:
    process: mp.process.BaseProcess
    conn: Connection
    source: object | None = None
    attempt: int = 0
    started: float = 0.0


WorkerFailure = TaskFailure  # the name this module used; stage "timeout" or "worker" here


class LocalPool:
    """Run ``task(source, out_dir)`` (``task(source)`` when ``out_dir`` is None) over sources on
    ``workers`` processes. :class:`medfig.pipeline.executors.Local` wraps it as an executor.

    ``on_failure(source, TaskFailure)`` makes the result of a task that timed out or whose
    worker died (default: the build's error row). ``warm_up()`` runs in each new worker before
    it takes tasks. ``single_threaded_models``: one worker per core, so ONNX runs one thread.
    """

    def __init__(self, task: Callable, out_dir: Path | None, *, workers: int, timeout_s: float | None = 600.0,
                 max_attempts: int = 2, on_failure: Callable = article_failure, warm_up: Callable | None = None,
                 single_threaded_models: bool = True):
        self.task = task
        self.on_failure = on_failure
        self.warm_up = warm_up
        self.single_threaded_models = single_threaded_models
        self.out_dir = str(out_dir) if out_dir is not None else None
        self.n_workers = max(1, workers)
        self.timeout_s = timeout_s
        self.max_attempts = max(1, max_attempts)
        self._ctx = mp.get_context("spawn")
        self._workers: list[_Worker] = []

    def _start_worker(self, wait_ready: bool = True) -> _Worker:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, daemon=True,
                                    args=(child, self.task, self.out_dir, self.warm_up, self.single_threaded_models,
                                          os.getpid()))
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # inherited: the child unblocks it
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            child.close()
        worker = _Worker(process=process, conn=parent)
        if wait_ready:
            try:
                self._wait_ready(worker)
            except BaseException:  # interrupted (a signal) while waiting: no orphan
                if worker.process.is_alive():
                    self._stop_worker(worker)
                raise
        return worker

    def _wait_ready(self, worker: _Worker) -> None:
        """A worker that cannot even start would fail every article: say why once, instead."""
        ready = worker.conn.poll(STARTUP_TIMEOUT_S)
        try:
            message = worker.conn.recv() if ready else None
        except (EOFError, OSError):
            message = None
        if message != _READY:
            worker.process.join(1)
            self._stop_worker(worker)
            raise MedfigError(
                f"a worker process could not start (exit code {worker.process.exitcode}). Worker processes are "
                f"spawned and import the calling script: put the build call under `if __name__ == \"__main__\":`, "
                f"make the per-article task importable, or pass workers=0 to run in this process."
            )

    def _stop_worker(self, worker: _Worker) -> None:
        worker.process.terminate()
        worker.process.join(_KILL_GRACE_S)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.conn.close()

    def _replace(self, worker: _Worker) -> None:
        self._stop_worker(worker)
        self._workers[self._workers.index(worker)] = self._start_worker()

    def run(self, sources: Iterable) -> Iterator:
        """Results (or ``on_failure``'s) in completion order."""
        pairs = self.run_items(sources)
        try:
            for _source, result in pairs:
                yield result
        finally:
            pairs.close()

    def run_items(self, sources: Iterable) -> Iterator[tuple[object, object]]:
        """``(source, result)`` pairs in completion order."""
        pending = iter(sources)
        retry: deque = deque()
        self._workers = [self._start_worker(wait_ready=False) for _ in range(self.n_workers)]
        try:
            for worker in self._workers:
                self._wait_ready(worker)
        except BaseException:  # a worker that cannot start, or a signal: stop the others too
            self.close()
            raise
        try:
            yield from self._loop(pending, retry)
        finally:
            self.close()

    def close(self) -> None:
        for worker in self._workers:
            if worker.source is None and worker.process.is_alive():
                try:
                    worker.conn.send(_STOP)
                except OSError:
                    pass
        for worker in self._workers:
            worker.process.join(_KILL_GRACE_S if worker.source is None else 0)
            if worker.process.is_alive():
                self._stop_worker(worker)
        self._workers = []

    def _assign(self, worker: _Worker, pending: Iterator, retry: deque) -> bool:
        if retry:
            source, attempt = retry.popleft()
        else:
            source, attempt = next(pending, None), 1
            if source is None:
                return False
        worker.source, worker.attempt, worker.started = source, attempt, time.monotonic()
        worker.conn.send(source)
        return True

    def _loop(self, pending: Iterator, retry: deque) -> Iterator[tuple[object, object]]:
        while True:
            for worker in self._workers:
                if worker.source is None and not self._assign(worker, pending, retry):
                    break  # nothing left to hand out for now
            busy = [w for w in self._workers if w.source is not None]
            if not busy:
                return
            timeout = None
            if self.timeout_s is not None:
                now = time.monotonic()
                timeout = max(0.0, min(w.started + self.timeout_s - now for w in busy))
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
            for worker in busy:
                result = self._collect(worker, ready, retry)
                if result is not None:
                    yield result

    def _collect(self, worker: _Worker, ready: set, retry: deque) -> tuple[object, object] | None:
        source = worker.source
        if worker.conn in ready:
            try:
                result = worker.conn.recv()
            except (EOFError, OSError):
                result = None  # died while answering: handled as a death below
            if result is not None:
                worker.source = None
                return source, result
        if worker.conn in ready or worker.process.sentinel in ready or not worker.process.is_alive():
            worker.process.join(_KILL_GRACE_S)  # reap it: a closed pipe can come before the exit code
            code = worker.process.exitcode
            worker.source = None
            self._replace(worker)
            if worker.attempt < self.max_attempts:
                retry.append((source, worker.attempt + 1))
                return None
            return source, self.on_failure(source, TaskFailure("worker", self.timeout_s, code, worker.attempt))
        if self.timeout_s is not None and time.monotonic() - worker.started >= self.timeout_s:
            worker.source = None
            self._replace(worker)
            return source, self.on_failure(source, TaskFailure("timeout", self.timeout_s, attempts=worker.attempt))
        return None
