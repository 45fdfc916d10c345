"""Guard bands: memory on both sides of every argument buffer, checked after every call.

The most common beginner bug is a missing tail mask (a Triton ``tl.store`` without
``mask=offs < n``, a CUDA kernel without ``if (i < n)``). It writes past the end of an output
into memory no output check looks at, and the answer still looks right. So every buffer the
referee shares (``buffers.create``) sits between two guard regions of the same allocation, and
before every call the referee fills them with a fresh secret byte pattern. After the call, any
byte of a guard that differs from the pattern was written by the submission: ``wrong_answer``,
naming the buffer, the side and the first offending index relative to the buffer, e.g.
``c: wrote past the end, at c[n+3]``.

A guard is at least 64 KiB and at least as large as its buffer, at most 64 MiB; for a buffer
of two or more dimensions also at least 256 rows of its last dimension (a block of up to 256
rows stored without a row mask lands in it). A one-dimensional buffer's overrun is less than a
block, so the rows rule does not apply there: it made every 1-D buffer's guard 256 times the
buffer, so 64 MiB from 64 K elements up, which the CPU spent 0.43 s a call filling and comparing
for vector-add's larger tests (cProfile of benchmarks/latency.py --device cpu, 2026-11-25). Its
start and the buffer's start stay 4 KiB aligned, so the alignment a learner may rely on (16
bytes) holds.

Reads past the end are not caught here (they read the pattern, which the output check then
sees as a wrong value, or they read nothing harmful); writes beyond the guard fault, on the GPU
as an illegal address and on the CPU as a signal, which the runner reports as a runtime error.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ALIGN = 4096
GUARD_MIN = 64 << 10
GUARD_MAX = 64 << 20
GUARD_ROWS = 256


def guard_bytes(shape: tuple[int, ...], itemsize: int) -> int:
    """The size of each of a buffer's two guards."""
    rows = GUARD_ROWS * shape[-1] * itemsize if len(shape) >= 2 else 0
    want = max(GUARD_MIN, rows, min(math.prod(shape) * itemsize, GUARD_MAX))
    return min(GUARD_MAX, -(-want // ALIGN) * ALIGN)


@dataclass(frozen=True)
class Guarded:
    """What the check needs of one buffer: its name, shape expressions and guard views."""

    name: str
    role: str  # "input" | "output"
    shape: tuple[int, ...]
    shape_exprs: tuple[str, ...]
    itemsize: int
    front: Any  # uint8 view of the guard before the data
    back: Any  # uint8 view of the guard after it


# Each buffer's guards hold the pattern from its own offset (odd, so no element of one buffer's
# guard lines up with the same bytes in another's). With one pattern for all, a kernel that
# copies what it reads past the end of an input to the same place past the end of an output (a
# LayerNorm whose rows overrun with rstd = 0 writes beta's guard bytes into y's) left y's guard
# byte for byte as it was: the write went unseen on an H100 (benchmarks/README.md, 'Memory and
# guard bands').
SHIFT = 4099


class Pattern:
    """A secret byte pattern, new for every call, written into every guard of the call."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.bytes: Any = None
        self.offsets: dict[str, int] = {}

    def fill(self, buffers: Iterable[Guarded]) -> None:
        import torch

        bufs = list(buffers)
        size = max((b.front.numel() for b in bufs), default=0)
        if not size:
            return
        gen = torch.Generator(device=self.device)
        gen.manual_seed(secrets.randbits(62))
        self.offsets = {b.name: i * SHIFT for i, b in enumerate(bufs)}
        self.bytes = torch.randint(
            0,
            256,
            (size + SHIFT * len(bufs),),
            dtype=torch.uint8,
            generator=gen,
            device=self.device,
        )
        for b in bufs:
            want = self._want(b)
            b.front.copy_(want)
            b.back.copy_(want)

    def _want(self, b: Guarded) -> Any:
        start = self.offsets[b.name]
        return self.bytes[start : start + b.front.numel()]

    def check(self, buffers: Iterable[Guarded]) -> str | None:
        """A learner's message for the first buffer whose guards were written, or None."""
        if self.bytes is None:
            return None
        for b in buffers:
            want = self._want(b)
            if not _equal(b.back, want):
                return _past_end(b, _first_change(b.back, want, last=False))
            if not _equal(b.front, want):
                return _before_start(b, _first_change(b.front, want, last=True))
        return None


def _equal(got: Any, want: Any) -> bool:
    import torch

    return bool(torch.equal(got, want))


def _first_change(got: Any, want: Any, last: bool) -> int:
    """The byte offset of the first (or, before the data, the last) byte that differs."""
    idx = (got != want).nonzero().view(-1)
    return int(idx[-1] if last else idx[0])


def _index(b: Guarded, flat: int) -> str:
    """``c[n+3]``, ``y[rows+1, 5]``, ``c[-1]``: a flat element index outside the buffer, in the
    buffer's own shape, its first coordinate written with the shape's expression."""
    inner = math.prod(b.shape[1:]) if len(b.shape) > 1 else 1
    outer, rest = divmod(flat, inner)
    first = outer - b.shape[0] if b.shape else outer
    expr = b.shape_exprs[0] if b.shape_exprs else ""
    if expr and first >= 0 and not expr.isdigit():
        head = expr if expr.isidentifier() else f"({expr})"
        head += f"+{first}" if first else ""
    else:
        head = str(outer)
    coords = [head]
    tail: list[str] = []
    for dim in reversed(b.shape[1:]):
        tail.append(str(rest % dim))
        rest //= dim
    coords += list(reversed(tail))
    return f"{b.name}[{', '.join(coords)}]"


def _what(b: Guarded) -> str:
    dims = " x ".join(b.shape_exprs) or "1"
    sizes = " x ".join(str(s) for s in b.shape) or "1"
    kind = "an input" if b.role == "input" else "an output"
    return f"{b.name} is {kind} of {dims if dims == sizes else f'{dims} = {sizes}'} elements"


def _past_end(b: Guarded, byte: int) -> str:
    flat = math.prod(b.shape) + byte // b.itemsize
    return (
        f"{b.name}: wrote past the end, at {_index(b, flat)} ({_what(b)}; did you mask the "
        "tail? stores must skip offsets at or beyond the size)"
    )


def _before_start(b: Guarded, byte: int) -> str:
    n = b.front.numel()
    flat = -(-(n - byte) // b.itemsize) * -1
    return (
        f"{b.name}: wrote before the start, at {_index(b, flat)} ({_what(b)}; an index went "
        "below 0: check offsets computed from the program id and any subtraction)"
    )
