"""Caps on live-progress streams (SSE), per client and in total, in each web process.

Each open stream polls the database every POLL_S; 400 anonymous streams on one queued
submission pushed `/problems` from milliseconds to 0.8 s. A stream beyond a cap is refused
with 429 (``Retry-After``), a stream ends on its verdict or after SSE_MAX_S, and the page then
polls the submission (``app/static/src/progress.js``). A client is its address as the app sees
it: behind a reverse proxy that is the proxy's, unless uvicorn is told to trust its
``X-Forwarded-For`` (``--forwarded-allow-ips``).
"""

from __future__ import annotations

import threading
from collections import Counter


class StreamSlots:
    def __init__(self, total: int, per_client: int) -> None:
        self.total, self.per_client = total, per_client
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, client: str) -> str | None:
        """Take a slot; None when taken, else why not (a message for the client)."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return f"the server has {self.total} live streams open; poll instead"
            if self._open[client] >= self.per_client:
                return f"at most {self.per_client} live streams per client; poll instead"
            self._open[client] += 1
            return None

    def release(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    def open_count(self) -> int:
        with self._lock:
            return sum(self._open.values())
