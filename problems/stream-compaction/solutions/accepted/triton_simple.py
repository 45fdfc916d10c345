"""Stream compaction in three kernels (count, scan, scatter):

1. each program counts the x > 0 in its block of BLOCK elements;
2. one program scans the block counts, with a running carry, into each block's first output
   position, and writes the total into count;
3. each program finds the kept elements of its block again, numbers them with tl.cumsum of
   the keep flags (minus one: the first kept element goes to position 0 of the block's run),
   and stores them at the block's position plus that number.

Order is kept: blocks write to consecutive runs in block order, and within a block the
cumsum numbers kept elements in input order. x is read twice."""

import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(x_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(counts_ptr + pid, tl.sum((x > 0).to(tl.int32), axis=0))


@triton.jit
def positions_kernel(counts_ptr, count_ptr, blocks, CHUNK: tl.constexpr):
    carry = tl.zeros([], dtype=tl.int32)
    for start in range(0, blocks, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < blocks
        c = tl.load(counts_ptr + offs, mask=mask, other=0)
        tl.store(counts_ptr + offs, carry + tl.cumsum(c, axis=0) - c, mask=mask)
        carry += tl.sum(c, axis=0)
    tl.store(count_ptr, carry)


@triton.jit
def scatter_kernel(x_ptr, out_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    keep = x > 0  # NaN and both zeros are not > 0
    where = tl.load(counts_ptr + pid) + tl.cumsum(keep.to(tl.int32), axis=0) - 1
    tl.store(out_ptr + where, x, mask=keep)


def solve(x: torch.Tensor, out: torch.Tensor, count: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    counts = torch.empty(blocks, dtype=torch.int32, device=x.device)
    count_kernel[(blocks,)](x, counts, n, BLOCK=BLOCK)
    positions_kernel[(1,)](counts, count, blocks, CHUNK=1024)
    scatter_kernel[(blocks,)](x, out, counts, n, BLOCK=BLOCK)
