# expect: wrong_answer
# Bug: the running maximum starts at 0.0 instead of -inf (and the index at 0). On rows with
# a positive value this changes nothing; on a row whose values are all negative no element
# is ever larger than 0, so the answer stays 0 wherever the maximum really is.
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    best = tl.zeros([BLOCK], dtype=tl.float32)  # BUG: must start at -inf
    where = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + cols
        valid = offs < n
        x = tl.load(x_ptr + row * n + offs, mask=valid, other=float("-inf"))
        take = valid & (x > best)
        best = tl.where(take, x, best)
        where = tl.where(take, offs, where)
    top = tl.max(best, axis=0)
    tl.store(idx_ptr + row, tl.min(tl.where(best == top, where, 2147483647), axis=0))


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    argmax_kernel[(m,)](x, idx, n, BLOCK=1024)
