"""What a task that gave no result becomes: one :class:`TaskFailure` on every executor, and the
build's error row for it (:func:`article_failure`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class TaskFailure:
    """Why an item gave no result.

    ``stage``: ``exception`` (the task raised; ``error`` is ``"Type: message"``), ``timeout``
    (ran past ``timeout_s``; its worker was stopped), ``worker`` (the process running it died,
    ``attempts`` times; ``exit_code`` when known, ``error`` names what Ray reported), or
    ``cancelled`` (a Ray task cancelled by someone else).
    """

    stage: str
    timeout_s: float | None = None
    exit_code: int | None = None
    attempts: int = 1
    error: str = ""


def failure_result(source, stage: str, message: str):
    """An :class:`~medfig.pipeline.article.ArticleResult` holding one error row for ``source``."""
    from medfig.pipeline.article import ArticleResult, error_row

    result = ArticleResult(key=source.key, fingerprint=source.fingerprint)
    result.errors.append(error_row(source.key, stage, message, source.container))
    return result


def article_failure(source, failure: TaskFailure):
    """The build's error row for an article whose task failed, on any executor.

    Error stages: ``internal`` (the task raised, as when ``process_article`` catches a bug
    itself), ``timeout``, ``worker`` (the process died or the Ray task was cancelled). All three
    mark the article failed, so the next run retries it.
    """
    if failure.stage == "exception":
        return failure_result(source, "internal", failure.error)
    if failure.stage == "timeout":
        return failure_result(source, "timeout",
                              f"article took longer than {failure.timeout_s:g} s; its worker was stopped")
    if failure.stage == "cancelled":
        return failure_result(source, "worker", f"the article's Ray task was cancelled ({failure.error}); "
                                                f"the article is retried by the next run")
    how = f"exit code {failure.exit_code}" if failure.exit_code is not None or not failure.error else failure.error
    return failure_result(
        source, "worker",
        f"worker process died ({how}) while processing the article, "
        f"{failure.attempts} attempt(s); the article is retried by the next run",
    )
