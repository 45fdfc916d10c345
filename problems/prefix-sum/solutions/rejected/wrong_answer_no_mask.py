# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the block scan's store has no tail mask. The loads are masked (padding 0, which
# leaves the sums of the real elements right), but the last block's padding lanes store their
# scan values past the end of y (on a GPU, into someone else's data). Right only when n is a
# multiple of 1024. The fix: mask=offs < n on the store too.
import torch
import triton
import triton.language as tl


@triton.jit
def block_scan_kernel(x_ptr, y_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0))  # BUG: no mask=offs < n
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
