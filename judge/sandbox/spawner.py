"""Every sandbox is started from one long-lived thread of the process.

bwrap's ``--die-with-parent`` is ``PR_SET_PDEATHSIG``, and Linux sends that signal when the
*thread* that forked the process exits, not the process. A runner spawned by a short-lived
thread (the pool's background refill, a tool's spare) was SIGKILLed as soon as that thread
ended: on the H100 one spare of every grading died so, and the next grading waited for a new
one to import torch (vector-add's verdict 1.0 s instead of 0.5 s; benchmarks/README.md,
'Runner start-up'). Starting every sandbox here ties it to the worker process, as
``--die-with-parent`` intends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _reset_after_fork() -> None:
    """A forked child (a Celery pool process) has none of its parent's threads."""
    global _executor, _lock
    _executor, _lock = None, threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def spawn(start: Callable[[], T]) -> T:
    """``start()`` (which forks) run on the process's spawning thread; its result or error."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-spawn")
        ex = _executor
    try:
        future = ex.submit(start)
    except RuntimeError:
        # The interpreter is exiting: Python has stopped its executors' threads (killing what
        # this one started) while daemon threads still run; the asking thread starts it then.
        return start()
    return future.result()
