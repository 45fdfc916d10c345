"""``comm``: what ``solve`` gets, after its own arguments, in a problem that spans GPUs.

Runs in the sandboxed runner (docs/multi-gpu.md). Each rank's runner maps its own buffers and
its peers' (the same shared pages on the CPU, CUDA IPC handles on a GPU); ``comm`` hands them
out by rank and argument name, and ``barrier`` waits until the referee has seen every rank
arrive. The referee decides when a rank goes on (judge/ranks/schedule.py), so the barrier is a
message on the runner's control pipe and a wait for the answer: nothing here is trusted, and
nothing here needs to be, since the referee checks every rank's outputs itself.

Imports nothing at module level: the runner imports it only for such a problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# A call that passes more barriers than this is stopped: a barrier in an endless loop would
# otherwise keep every rank going back and forth through the referee until the time limit.
MAX_BARRIERS = 10_000


class Comm:
    """One rank's view of the others: ``rank``, ``world``, ``peer(r, name)``, ``barrier()``."""

    def __init__(
        self,
        rank: int,
        world: int,
        peers: list[dict[str, Any]],
        arrive: Callable[[int], None],
    ) -> None:
        self._rank, self._world = rank, world
        self._peers = peers
        self._arrive = arrive
        self._count = 0

    @property
    def rank(self) -> int:
        """This rank, from 0 to ``world - 1``."""
        return self._rank

    @property
    def world(self) -> int:
        """How many ranks there are (the problem's ``gpus``)."""
        return self._world

    def peer(self, rank: int, name: str) -> Any:
        """Rank ``rank``'s buffer of the tensor argument ``name`` (this rank's own for
        ``comm.rank``). It holds the peer's data only after a barrier the peer has passed."""
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < self._world:
            raise ValueError(
                f"comm.peer: rank must be an int from 0 to {self._world - 1}, got {rank!r}"
            )
        buffers = self._peers[rank]
        if name not in buffers:
            raise ValueError(
                f"comm.peer: no tensor argument {name!r}; the arguments are {sorted(buffers)}"
            )
        return buffers[name]

    def barrier(self) -> None:
        """Return once every rank has called ``barrier`` as many times as this one."""
        self._count += 1
        if self._count > MAX_BARRIERS:
            raise RuntimeError(f"comm.barrier called more than {MAX_BARRIERS} times in one call")
        self._arrive(self._count)

    def __repr__(self) -> str:
        return f"Comm(rank={self._rank}, world={self._world})"
