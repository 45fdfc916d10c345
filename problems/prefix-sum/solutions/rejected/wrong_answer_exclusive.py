# expect: wrong_answer
# expect-message: first at [0]: expected
# Bug: an off-by-one: each block stores cumsum(x) - x, the sum of the elements BEFORE each
# position (an exclusive scan), where the problem asks for the sum up to and including it.
# With x all ones, y[0] should be 1 and is 0, y[i] is i instead of i + 1.
import torch
import triton
import triton.language as tl


@triton.jit
def block_scan_kernel(x_ptr, y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0) - x, mask=mask)  # BUG: exclusive
    tl.store(sums_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def offsets_kernel(sums_ptr, blocks, CHUNK: tl.constexpr):
    carry = tl.zeros([], dtype=tl.int32)
    for start in range(0, blocks, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < blocks
        s = tl.load(sums_ptr + offs, mask=mask, other=0)
        tl.store(sums_ptr + offs, carry + tl.cumsum(s, axis=0) - s, mask=mask)
        carry += tl.sum(s, axis=0)


@triton.jit
def add_offsets_kernel(y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) + tl.load(sums_ptr + pid), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    sums = torch.empty(blocks, dtype=torch.int32, device=x.device)
    block_scan_kernel[(blocks,)](x, y, sums, n, BLOCK=BLOCK)
    offsets_kernel[(1,)](sums, blocks, CHUNK=1024)
    add_offsets_kernel[(blocks,)](y, sums, n, BLOCK=BLOCK)
