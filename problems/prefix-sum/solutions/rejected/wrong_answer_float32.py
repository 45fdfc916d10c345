# expect: wrong_answer
# Bug: the scan runs in float32 (a float scan kernel reused for integers). float32 holds
# every integer only up to 2^24 = 16,777,216; past that, sums are rounded to a multiple of 2,
# 4, 8, ... and the integers written back are off. Small inputs pass; with values up to 1000
# the sums pass 2^24 within the first ~34,000 elements.
import torch
import triton
import triton.language as tl


@triton.jit
def block_scan_kernel(x_ptr, y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.float32)  # BUG: float32 sums
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(sums_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def offsets_kernel(sums_ptr, blocks, CHUNK: tl.constexpr):
    carry = tl.zeros([], dtype=tl.float32)
    for start in range(0, blocks, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < blocks
        s = tl.load(sums_ptr + offs, mask=mask, other=0.0)
        tl.store(sums_ptr + offs, carry + tl.cumsum(s, axis=0) - s, mask=mask)
        carry += tl.sum(s, axis=0)


@triton.jit
def add_offsets_kernel(y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(y_ptr + offs, (y + tl.load(sums_ptr + pid)).to(tl.int32), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    sums = torch.empty(blocks, dtype=torch.float32, device=x.device)
    block_scan_kernel[(blocks,)](x, y, sums, n, BLOCK=BLOCK)
    offsets_kernel[(1,)](sums, blocks, CHUNK=1024)
    add_offsets_kernel[(blocks,)](y, sums, n, BLOCK=BLOCK)
