"""Argmax of each row at memory speed: one program per row, as in the simple version, but
each iteration of the chunk loop loads 4096 columns with 8 warps (16 floats per thread, as
four 128-bit loads in flight), so 4096 programs keep the H100's memory busy. Each lane keeps
its first maximum (a strictly larger value replaces it; chunks go left to right); the row's
answer is the smallest index among the lanes holding the row maximum."""

import torch
import triton
import triton.language as tl

NONE = tl.constexpr(2147483647)  # "no index yet": larger than any column


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * n
    cols = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    where = tl.full([BLOCK], NONE, dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + cols
        valid = offs < n
        x = tl.load(base + offs, mask=valid, other=float("-inf"), eviction_policy="evict_first")
        take = valid & ((x > best) | (where == NONE))
        best = tl.where(take, x, best)
        where = tl.where(take, offs, where)
    top = tl.max(best, axis=0)
    tl.store(idx_ptr + row, tl.min(tl.where(best == top, where, NONE), axis=0))


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    # Short rows need no 4096-wide chunk: the smallest power of two that covers the row.
    block = min(4096, max(128, triton.next_power_of_2(n)))
    argmax_kernel[(m,)](x, idx, n, BLOCK=block, num_warps=8 if block >= 2048 else 4)
