# expect: wrong_answer
# Bug: each block adds only the total of the block just before it, not the sum of ALL the
# blocks before it. Right for the first two blocks (n <= 2048), wrong from the third on.
import torch
import triton
import triton.language as tl


@triton.jit
def block_scan_kernel(x_ptr, y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(sums_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def add_previous_kernel(y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0) + 1
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    previous = tl.load(sums_ptr + pid - 1)  # BUG: needs the sum of sums[0..pid)
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) + previous, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    sums = torch.empty(blocks, dtype=torch.int32, device=x.device)
    block_scan_kernel[(blocks,)](x, y, sums, n, BLOCK=BLOCK)
    if blocks > 1:
        add_previous_kernel[(blocks - 1,)](y, sums, n, BLOCK=BLOCK)
