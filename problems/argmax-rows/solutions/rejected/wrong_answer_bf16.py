# expect: wrong_answer
# Bug: values are compared after rounding to bfloat16 (to halve the registers the running
# maximum takes). bfloat16 keeps 8 bits of mantissa: values within ~0.4% of each other
# become equal, the first of them wins the "tie", and it is often not the true maximum. In
# a long row of normal values the top two are that close more often than not.
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.bfloat16)
    where = tl.full([BLOCK], 2147483647, dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + cols
        valid = offs < n
        x = tl.load(x_ptr + row * n + offs, mask=valid, other=float("-inf")).to(tl.bfloat16)
        take = valid & ((x > best) | (where == 2147483647))  # BUG: compares rounded values
        best = tl.where(take, x, best)
        where = tl.where(take, offs, where)
    top = tl.max(best, axis=0)
    tl.store(idx_ptr + row, tl.min(tl.where(best == top, where, 2147483647), axis=0))


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    argmax_kernel[(m,)](x, idx, n, BLOCK=1024)
