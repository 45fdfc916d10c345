"""One untimed call of every rank, one rank at a time between barriers, a late rank last.

Every buffer starts poisoned, inputs included (judge/ranks/grading.py). The referee fills a
rank's inputs and calls it; the rank runs alone until it reaches ``comm.barrier()`` or returns;
then the next rank in ``order``. Once every rank is at the barrier, they are released in the
same order, again one at a time. So whatever a rank reads of a peer before the barrier that
makes it valid, it reads before the peer wrote it, whenever that peer comes after it in the
order: with the late rank rotating over the test cases, a missing barrier or a race on a peer's
output fails every time on the CPU (docs/multi-gpu.md). A rank that spins on a peer's flag
instead of calling the barrier waits for a rank that is not running: a time-out, named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.sandbox import messages
from judge.sandbox.channel import Channel
from judge.session import Stop
from judge.verdicts import Verdict


@dataclass
class Rank:
    """One rank's runner during one call: where it stands, and what its last segment said."""

    index: int
    channel: Channel
    barriers: int = 0  # how many barriers it has reached in this call
    done: messages.Received | None = None  # its final "done", once it returned


def named(rank: int, stop: Stop) -> Stop:
    """``stop`` with the rank it happened on in front of its message."""
    return Stop(stop.verdict, f"rank {rank}: {stop.message}")


def late_order(world: int, late: int) -> list[int]:
    """The ranks in the order they run: the others ascending, then ``late``."""
    return [r for r in range(world) if r != late] + [late]


def run_call(
    ranks: list[Rank],
    order: list[int],
    key: str,
    fill: Callable[[int], None],
    limit_s: Callable[[], float],
) -> None:
    """Call ``solve`` on case ``key`` in every rank; returns once every rank has returned.

    ``fill(r)`` writes rank r's inputs just before it is called; ``limit_s()`` is the time one
    rank may run before it reaches a barrier or returns. Raises ``Stop`` naming the rank."""
    for r in order:
        fill(r)
        _go(ranks[r], messages.Call(op="call", case=key, timed=False), limit_s())
    while any(rank.done is None for rank in ranks):
        waiting = [rank for rank in ranks if rank.done is None]
        finished = [rank for rank in ranks if rank.done is not None]
        if finished:
            w, f = waiting[0], finished[0]
            raise Stop(
                Verdict.RUNTIME_ERROR,
                f"rank {w.index} waits at comm.barrier() number {w.barriers}, but rank "
                f"{f.index} returned from solve after {f.barriers}: every rank must call "
                "comm.barrier() the same number of times",
            )
        for r in order:
            _go(ranks[r], messages.Release(op="release"), limit_s())


def _go(rank: Rank, msg: messages.Call | messages.Release, limit: float) -> None:
    """Send ``msg`` (a call, or the release from a barrier) and read the rank's replies until it
    reaches its next barrier or returns."""
    ch = rank.channel
    try:
        reply = ch.request(limit, "running", msg)
        if reply.get("op") == "launched":  # the host part of solve is over
            reply = ch.recv(limit, "running")
        if reply.get("op") == "barrier":
            count = reply.get("count")
            if count != rank.barriers + 1:
                raise Stop(
                    Verdict.REJECTED,
                    "the runner's replies were out of order: the submission interfered with "
                    "the harness",
                )
            rank.barriers += 1
            return
        rank.done = ch.done(reply)  # an error's verdict, or "done"
    except Stop as s:
        raise named(rank.index, s) from s
