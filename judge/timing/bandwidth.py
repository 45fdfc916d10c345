"""Streaming kernels that measure the memory ceiling (``measure.ceiling("copy")``).

torch's copy kernel is not the fastest way to move bytes on every GPU: on an H100 it reached
2.95 TB/s where a two-reads-one-write kernel with wide blocks reached 3.09 TB/s, and a vector
add then showed 105% of "speed of light". The ceiling is the best of torch's copy and these, at
two sizes, with L2 flushed before every run.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK = 4096
WARPS = 8
# 128 MiB and 1 GiB per buffer: on an H100 the a+b kernel moved 3.09 TB/s at the first (a
# vector-add benchmark's size) and 2.96 TB/s at the second.
SIZES = (1 << 25, 1 << 28)


@triton.jit  # type: ignore[untyped-decorator]
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit  # type: ignore[untyped-decorator]
def _triad(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, a + b, mask=mask)


def patterns(n: int) -> dict[str, tuple[Any, int]]:
    """name -> (a call with no arguments, bytes it moves), on fresh float32 buffers of n."""
    import torch

    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    z = torch.empty_like(x)
    grid = (triton.cdiv(n, BLOCK),)
    return {
        "torch copy": (lambda: y.copy_(x), 2 * n * 4),
        "triton copy": (lambda: _copy[grid](x, y, n, BLOCK=BLOCK, num_warps=WARPS), 2 * n * 4),
        "triton a+b": (lambda: _triad[grid](x, y, z, n, BLOCK=BLOCK, num_warps=WARPS), 3 * n * 4),
    }
