"""Test-only faults for worker processes, loaded at interpreter start through PYTHONPATH.

A test puts this folder on PYTHONPATH and names PDFs in the environment; every Python process
started under it (the spawned extract workers included) wraps ``medfig.pdf.extract.extract_pdf``:

- ``MEDFIG_FAULT_HANG_ON=name.pdf``: reading that PDF sleeps for an hour (a parser that hangs);
- ``MEDFIG_FAULT_CRASH_ON=name.pdf``: reading it exits the process at once with code 70 (a segfault).

Production code carries no hook: this file lives in tests/ and is never installed.
"""

import os

_HANG, _CRASH = os.environ.get("MEDFIG_FAULT_HANG_ON"), os.environ.get("MEDFIG_FAULT_CRASH_ON")

if _HANG or _CRASH:
    import time

    import medfig.pdf.extract as _extract

    _real = _extract.extract_pdf

    def _faulty(data, *args, name=None, **kwargs):
        display = os.path.basename(str(name or ""))
        if _HANG and display == _HANG:
            time.sleep(3600)
        if _CRASH and display == _CRASH:
            os._exit(70)
        return _real(data, *args, name=name, **kwargs)

    _extract.extract_pdf = _faulty

# - ``MEDFIG_FAULT_SLEEP_S=0.5``: every article of a build (``medfig.pipeline.article.process_article``)
#   sleeps that long first, in whichever process runs it (tests of signals and locks need a build that
#   lasts a few seconds).
_SLEEP = os.environ.get("MEDFIG_FAULT_SLEEP_S")

if _SLEEP:
    import functools
    import time

    import medfig.pipeline.article as _article

    _real_process = _article.process_article

    @functools.wraps(_real_process)  # same module and name: pickled by reference, found again in workers
    def _slow(*args, **kwargs):
        time.sleep(float(_SLEEP))
        return _real_process(*args, **kwargs)

    _article.process_article = _slow
