"""Password hashing off the request slots: a small thread pool with a bounded queue.

argon2 takes ~0.15-0.2 s of one core and releases the GIL, so a few threads hash while the
event loop keeps serving pages. At most ``workers`` hashes run at once on the machine (one per
core, across every web process: file locks), at the lowest CPU priority, so pages come first,
and at most ``queue`` more wait per process; an attempt beyond that is
refused at once (``PoolBusy``, answered 429) instead of queueing: under a flood from many
addresses, which the per-address throttle cannot stop, log-ins slow down and browsing does
not (benchmarks/README.md, 'Web under load').
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from app.core import security

# Hashing threads run at the lowest priority (weight 15 against a page's 1024): a hash takes
# the CPU that pages leave unused, on every core, and pages keep their latency (at nice 10 with
# half the cores, browsing p99 was 215 ms under the flood, and a class logging in at once was
# refused more often: benchmarks/README.md, 'Web under load').
HASH_NICE = 19


def _lower_priority() -> None:
    with contextlib.suppress(AttributeError, OSError):  # Linux: a thread has its own nice
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICE)


def _slot_paths(n: int) -> list[Path]:
    base = Path(tempfile.gettempdir())
    return [base / f"kerneldojo-argon2-{os.getuid()}-{i}.lock" for i in range(n)]


@contextlib.contextmanager
def _machine_slot(paths: list[Path]) -> Iterator[None]:
    """Hold one of the machine-wide hashing slots (an flock on one of ``paths``).

    Every web process has its own pool; the slots make the limit hold for the machine, not
    per process (two processes with a thread each would hash two at a time on one core)."""
    fds = []
    try:
        for p in paths:
            fds.append(os.open(p, os.O_RDWR | os.O_CREAT, 0o600))
    except OSError:  # nowhere to put the lock files: per-process limits only
        for fd in fds:
            os.close(fd)
        yield
        return
    try:
        while True:
            for fd in fds:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                return
            time.sleep(0.005)
    finally:
        for fd in fds:
            os.close(fd)


class PoolBusy(Exception):
    """Too many password checks in flight; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many log-ins at once; try again in {retry_after} s")
        self.retry_after = retry_after


class HashPool:
    def __init__(self, workers: int | None = None, queue: int | None = None) -> None:
        self.workers = workers or (os.cpu_count() or 2)
        # A couple of seconds of waiting hashes per core: a class logging in at once mostly
        # waits; beyond that, a fast 429 with Retry-After beats a log-in that times out
        # behind a flood (a queue of 30 per core let honest log-ins wait 60 s; of 8, half a
        # class logging in at once on a busy machine was refused).
        self.queue = self.workers * 16 if queue is None else queue
        self._executor = ThreadPoolExecutor(
            self.workers, thread_name_prefix="argon2", initializer=_lower_priority
        )
        self._in_flight = 0
        self._slots = _slot_paths(self.workers)

    def _verify(self, password_hash: str, password: str) -> bool:
        with _machine_slot(self._slots):
            return security.verify_password_now(password_hash, password)

    def _hash(self, password: str) -> str:
        with _machine_slot(self._slots):
            return security.hash_password_now(password)

    def full(self) -> bool:
        """No room: checked first, so a flood past the queue costs no database work at all."""
        return self._in_flight >= self.workers + self.queue

    def busy_error(self) -> PoolBusy:
        return PoolBusy(retry_after=max(1, round(0.2 * self._in_flight / self.workers)))

    def _admit(self) -> None:
        # Only the event loop's thread changes the count: no lock needed.
        if self.full():
            raise self.busy_error()
        self._in_flight += 1

    async def verify(self, password_hash: str, password: str) -> bool:
        self._admit()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, self._verify, password_hash, password)
        finally:
            self._in_flight -= 1

    async def hash(self, password: str) -> str:
        self._admit()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, security.hash_password_now, password)
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
