# expect: wrong_answer
# expect-message: (the first index of the maximum)
# Bug: the running maximum is replaced on x >= best instead of x > best, so each lane keeps
# the LAST of equal values, and the final merge then picks the largest index among lanes
# holding the maximum. Without ties the answer is the same; on rows that hold their maximum
# twice it is the last occurrence, and the problem asks for the first.
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    where = tl.full([BLOCK], -1, dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + cols
        valid = offs < n
        x = tl.load(x_ptr + row * n + offs, mask=valid, other=float("-inf"))
        take = valid & (x >= best)  # BUG: >= keeps the last of equal values
        best = tl.where(take, x, best)
        where = tl.where(take, offs, where)
    top = tl.max(best, axis=0)
    tl.store(idx_ptr + row, tl.max(tl.where(best == top, where, -1), axis=0))


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    argmax_kernel[(m,)](x, idx, n, BLOCK=1024)
