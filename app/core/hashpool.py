"""Password hashing off the request slots: a small thread pool with a bounded queue.

argon2 takes ~0.15-0.2 s of one core and releases the GIL, so a few threads hash while the
event loop keeps serving pages. At most ``workers`` hashes run at once (half the cores, so
pages keep the other half) and at most ``queue`` more wait; an attempt beyond that is
refused at once (``PoolBusy``, answered 429) instead of queueing: under a flood from many
addresses, which the per-address throttle cannot stop, log-ins slow down and browsing does
not (benchmarks/web-load-2026-11-26.md).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

from app.core import security


class PoolBusy(Exception):
    """Too many password checks in flight; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many log-ins at once; try again in {retry_after} s")
        self.retry_after = retry_after


class HashPool:
    def __init__(self, workers: int | None = None, queue: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) // 2)
        # About a second's worth of waiting hashes per hashing thread.
        self.queue = self.workers * 5 if queue is None else queue
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2")
        self._in_flight = 0

    def _admit(self) -> None:
        # Only the event loop's thread changes the count: no lock needed.
        if self._in_flight >= self.workers + self.queue:
            raise PoolBusy(retry_after=max(1, round(0.2 * self._in_flight / self.workers)))
        self._in_flight += 1

    async def verify(self, password_hash: str, password: str) -> bool:
        self._admit()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._executor, security.verify_password_now, password_hash, password
            )
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
