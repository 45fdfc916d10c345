"""The runner's side of a profile or a sanitizer run.

* ``nvtx``: the profiled call inside an NVTX range named ``tools.NVTX_RANGE``. ncu runs with
  ``--nvtx-include kd_solve/``, so it profiles the kernels ``solve`` launches and none of the
  runner's own (CUDA start-up, the first untimed call's autotuning).
* ``Private``: under a tool the tensors are copied into exact-size allocations of the
  runner's own before each call, and copied back after it. The judge's shared buffers sit
  inside larger allocations with guard bands (guards.py), where memcheck would see a write past
  the end of ``c`` as a write inside an allocation; in an allocation of exactly ``c``'s bytes it
  is out of bounds, and the report says how far past which argument (sanitizer.py). Under
  ncu, kernels replayed for each section run on ordinary allocations of the profiled process,
  whose contents ncu saves and restores between replays.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator
from typing import Any

from judge.profile.tools import NVTX_RANGE
from judge.sandbox import buffers


@contextlib.contextmanager
def nvtx(torch: Any, enabled: bool) -> Iterator[None]:
    """Everything launched inside is what ncu profiles."""
    if not enabled:
        yield
        return
    torch.cuda.nvtx.range_push(NVTX_RANGE)
    try:
        yield
    finally:
        torch.cuda.nvtx.range_pop()


class Private:
    """Exact-size device copies of a case's tensors (``cuMemAlloc``: no allocator rounding)."""

    def __init__(self, torch: Any, args: list[Any]) -> None:
        self.torch = torch
        self.pairs: list[tuple[Any, Any]] = []  # (the shared tensor, its private copy)
        self.ptrs: list[int] = []
        self.args: list[Any] = []
        self.allocations: list[list[int] | None] = []  # [pointer, bytes] per argument
        lib = buffers.libcuda()
        for a in args:
            if not isinstance(a, torch.Tensor):
                self.args.append(a)
                self.allocations.append(None)
                continue
            nbytes = max(1, a.numel() * a.element_size())
            ptr = ctypes.c_uint64()
            buffers._check(lib.cuMemAlloc_v2(ctypes.byref(ptr), nbytes), "cuMemAlloc")
            self.ptrs.append(ptr.value)
            raw = buffers._wrap_cuda(ptr.value, (nbytes,), "uint8")
            copy = raw[: a.numel() * a.element_size()].view(a.dtype).view(a.shape)
            self.pairs.append((a, copy))
            self.args.append(copy)
            self.allocations.append([ptr.value, nbytes])

    def refresh(self) -> None:
        """The case's current inputs (and poisoned outputs) into the copies, before a call."""
        for shared, copy in self.pairs:
            copy.copy_(shared)
        self.torch.cuda.synchronize()

    def write_back(self) -> None:
        """The call's results into the judge's buffers, where the referee checks them."""
        for shared, copy in self.pairs:
            shared.copy_(copy)
        self.torch.cuda.synchronize()

    def free(self) -> None:
        self.pairs, self.args = [], []
        lib = buffers.libcuda()
        for p in self.ptrs:
            lib.cuMemFree_v2(p)
        self.ptrs = []
