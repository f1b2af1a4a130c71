"""The Ray executor: the same per-article task, run as Ray tasks on a cluster.

The driver keeps what it keeps locally (listing, manifest, consolidation), so
a Ray build is resumable and writes the same dataset as a local one. Workers
return rows to the driver; figure images are written by the workers straight
into the output folder, which must therefore be a path every node sees (a
shared filesystem). Ray reuses its worker processes across tasks, so models a
step caches at module level load once per worker, not once per article.

Failures:
- a worker that dies mid-article (killed, out of memory) makes Ray retry the
  task (``max_retries``); when retries run out the article gets a ``worker``
  error and the next run retries it;
- an article past ``timeout_s`` is cancelled with ``force=True`` (which kills
  its worker: a parser stuck in C code does not answer anything gentler) and
  recorded as a ``timeout`` error. The clock starts when the task is handed
  out; at most ``max_in_flight`` tasks are out at once, about the cluster's
  CPU count, so a task rarely waits long for a CPU.

What a task writes to stdout/stderr goes to ``OUT/logs/ray-<node ip>-<pid>.log`` (see
:mod:`medfig.pipeline.executors`), on whichever node it ran: the output folder is shared.
The driver shows none of it (``log_to_driver=False``: a progress bar, not a stream of
worker chatter); Ray's own logs stay in each node's Ray temp folder
(``/tmp/ray/session_latest/logs`` by default).

:func:`run_on_ray` is the engine of :class:`medfig.pipeline.executors.Ray`; it yields
``(item, outcome)`` pairs where the outcome is the task's return value or a
:class:`~medfig.pipeline.executors.TaskFailure`.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator

from medfig.pipeline.failures import TaskFailure

MAX_RETRIES = 1  # a worker killed under an article: retry once more before recording an error


def connect(address: str | None, *, num_cpus: int | None = None) -> None:
    """Join the cluster at ``address`` (``auto``, ``ray://host:10001``, ``host:6379``) or start a local one."""
    import ray

    if ray.is_initialized():
        return
    kwargs = {"ignore_reinit_error": True, "log_to_driver": False, "include_dashboard": False}
    main = threading.current_thread() is threading.main_thread()
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)} if main else {}
    if address:
        ray.init(address=address, **{k: v for k, v in kwargs.items() if k != "include_dashboard"})
    else:
        ray.init(num_cpus=num_cpus, _node_ip_address="127.0.0.1", **kwargs)
    for signum, handler in handlers.items():  # Ray's core installs a C handler (SIGTERM: abort, exit 134)
        if handler is not None:               # over the build's; put the Python ones back
            signal.signal(signum, handler)


def _cluster_cpus() -> int:
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _last_line(exc: Exception) -> str:
    """``Type: message`` of what went wrong, from a Ray error's (long, multi-line) text."""
    lines = [line.strip() for line in str(getattr(exc, "cause", None) or exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def _run_task(task: Callable, item):
    os.environ.setdefault("MEDFIG_ONNX_THREADS", "1")  # a Ray task holds one CPU: models run single-threaded
    return task(item)


def run_on_ray(task: Callable, items: Iterable, *, address: str | None, timeout_s: float | None,
               max_in_flight: int | None = None) -> Iterator[tuple[object, object]]:
    """``(item, task(item) or TaskFailure)`` in completion order, running ``task`` as Ray tasks."""
    import ray
    from ray.exceptions import GetTimeoutError, RayError, RayTaskError, TaskCancelledError

    pending = iter(items)
    first = next(pending, None)
    if first is None:  # nothing to do: no Ray is started for it
        return
    connect(address)
    remote_task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_run_task)
    task_ref = ray.put(task)
    limit = max(1, max_in_flight or _cluster_cpus())
    in_flight: dict = {}  # ObjectRef -> (item, handed out at)
    queue = [first]

    def hand_out() -> None:
        while len(in_flight) < limit:
            item = queue.pop() if queue else next(pending, None)
            if item is None:
                return
            in_flight[remote_task.remote(task_ref, item)] = (item, time.monotonic())

    def timed_out() -> TaskFailure:
        return TaskFailure("timeout", timeout_s, attempts=1)

    try:
        hand_out()
        while in_flight:
            wait_s = None
            if timeout_s is not None:
                oldest = min(started for _, started in in_flight.values())
                wait_s = max(0.0, oldest + timeout_s - time.monotonic())
            done, _ = ray.wait(list(in_flight), num_returns=1, timeout=wait_s)
            for ref in done:
                item, _ = in_flight.pop(ref)
                try:
                    outcome = ray.get(ref)
                except GetTimeoutError:
                    outcome = timed_out()
                except TaskCancelledError as exc:
                    outcome = TaskFailure("cancelled", timeout_s, error=type(exc).__name__)
                except RayTaskError as exc:  # not the task's own exception (Guarded returns those): Ray could
                    # not run it, e.g. the task does not unpickle on the worker (a module only the driver has)
                    outcome = TaskFailure("exception", timeout_s, error=f"Ray could not run the task: {_last_line(exc)}")
                except RayError as exc:  # the worker died (killed, out of memory) on every attempt
                    outcome = TaskFailure("worker", timeout_s, attempts=MAX_RETRIES + 1,
                                          error=f"Ray: {type(exc).__name__}")
                yield item, outcome
            if not done and timeout_s is not None:
                now = time.monotonic()
                for ref, (item, started) in list(in_flight.items()):
                    if now - started >= timeout_s:
                        ray.cancel(ref, force=True, recursive=True)  # kills its worker: C code ignores anything gentler
                        in_flight.pop(ref)
                        yield item, timed_out()
            hand_out()
    finally:
        # Stopped early (a signal, the caller closed the generator): tasks still out are left to Ray,
        # which ends a driver's tasks when the driver disconnects. Cancelling them here (force=True)
        # made Ray 2.60's core worker abort at exit ("Tried to complete task that was not pending").
        in_flight.clear()
