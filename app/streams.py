"""Live-progress streams (SSE): who gets one, how many, and one database read shared by all.

Each open stream used to poll the database every POLL_S on its own: 400 anonymous streams on
one queued submission pushed `/problems` from milliseconds to 0.8 s, and 200 of them (the
cap) slowed every page ~50x. Now:

- only a logged-in viewer gets a stream (``app/api/routes/submissions.py``); anyone else polls
  ``GET /api/v1/submissions/{id}`` (the page does so by itself);
- ``StreamSlots`` caps the streams per web process (``total``), per client address
  (``per_client``) and per submission (``per_submission``); beyond a cap, 429 with
  ``Retry-After``, and the page polls;
- ``SharedPoll`` reads a submission's row once per interval whatever the number of streams
  watching it: the first stream to ask reads, the others wait for that read and share it.

A stream ends on its verdict or after SSE_MAX_S. A client is its address as the app sees it:
behind a reverse proxy that is the proxy's, unless uvicorn is told to trust its
``X-Forwarded-For`` (``--forwarded-allow-ips``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool


class StreamSlots:
    def __init__(self, total: int, per_client: int, per_submission: int) -> None:
        self.total, self.per_client, self.per_submission = total, per_client, per_submission
        self._open: Counter[str] = Counter()
        self._subs: Counter[int] = Counter()
        self._lock = threading.Lock()

    def acquire(self, client: str, sub_id: int) -> str | None:
        """Take a slot; None when taken, else why not (a message for the client)."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return f"the server has {self.total} live streams open; poll instead"
            if self._open[client] >= self.per_client:
                return f"at most {self.per_client} live streams per client; poll instead"
            if self._subs[sub_id] >= self.per_submission:
                return f"this submission has {self.per_submission} live streams; poll instead"
            self._open[client] += 1
            self._subs[sub_id] += 1
            return None

    def release(self, client: str, sub_id: int) -> None:
        with self._lock:
            self._open[client] -= 1
            self._subs[sub_id] -= 1
            self._open += Counter()  # drops the keys at zero
            self._subs += Counter()

    def open_count(self) -> int:
        with self._lock:
            return sum(self._open.values())


@dataclass
class _Entry:
    watchers: int = 0
    value: Any = None
    read_at: float = float("-inf")
    reading: asyncio.Task[Any] | None = None
    loop: asyncio.AbstractEventLoop | None = None


@dataclass
class SharedPoll:
    """At most one ``fetch(key)`` per ``interval`` for each key (a submission id), shared by
    every stream watching it. ``fetch`` runs in the thread pool (it reads the database).

    Streams ``join`` a key before their first ``get`` and ``leave`` it when they end; the
    last one to leave drops the cached read. One event loop per web process; a read started
    on another loop (tests run several) is not shared across them."""

    fetch: Callable[[int], Any]
    interval: float
    _entries: dict[int, _Entry] = field(default_factory=dict)

    def join(self, key: int) -> None:
        self._entries.setdefault(key, _Entry()).watchers += 1

    def leave(self, key: int) -> None:
        entry = self._entries.get(key)
        if entry is not None:
            entry.watchers -= 1
            if entry.watchers <= 0:
                del self._entries[key]

    def watched(self) -> int:
        return len(self._entries)

    async def get(self, key: int) -> Any:
        """The latest read of ``key``: fresh within ``interval``, else one read for all."""
        loop = asyncio.get_running_loop()
        entry = self._entries.setdefault(key, _Entry())
        if entry.loop is not loop:  # first use, or a different loop (tests): start afresh
            entry.loop, entry.reading, entry.read_at = loop, None, float("-inf")
        if time.monotonic() - entry.read_at < self.interval:
            return entry.value
        if entry.reading is None:
            entry.reading = loop.create_task(self._read(entry, key))
        # Shielded: a stream that ends (its client left) does not cancel the others' read.
        return await asyncio.shield(entry.reading)

    async def _read(self, entry: _Entry, key: int) -> Any:
        try:
            entry.value = await run_in_threadpool(self.fetch, key)
            entry.read_at = time.monotonic()
            return entry.value
        finally:
            entry.reading = None
