# expect: wrong_answer
# expect-message: count: expected
# Bug: the test is x >= 0 where the problem says x > 0, in both kernels: zeros (0.0 and
# -0.0, which compares equal to it) are kept too, so the count is too large and every kept
# value after the first zero is misplaced. (Padding lanes load -1.0, so only real zeros
# are miscounted.) Inputs without zeros pass.
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(x_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-1.0)
    tl.store(counts_ptr + pid, tl.sum((x >= 0).to(tl.int32), axis=0))  # BUG: >= keeps zeros


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
    x = tl.load(x_ptr + offs, mask=offs < n, other=-1.0)
    keep = x >= 0  # BUG: must be x > 0
    where = tl.load(counts_ptr + pid) + tl.cumsum(keep.to(tl.int32), axis=0) - 1
    tl.store(out_ptr + where, x, mask=keep)


def solve(x: torch.Tensor, out: torch.Tensor, count: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    counts = torch.empty(blocks, dtype=torch.int32, device=x.device)
    count_kernel[(blocks,)](x, counts, n, BLOCK=BLOCK)
    positions_kernel[(1,)](counts, count, blocks, CHUNK=1024)
    scatter_kernel[(blocks,)](x, out, counts, n, BLOCK=BLOCK)
