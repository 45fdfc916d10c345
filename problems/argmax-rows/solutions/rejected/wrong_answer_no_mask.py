# expect: wrong_answer
# expect-message: idx: wrote past the end
# Bug: four rows per program, and the final store has no row mask. The loads are masked on
# both rows and columns, so every answer that lands inside idx is right, but when m is not a
# multiple of 4 the last program stores answers for rows m, m+1, ... past the end of idx (on
# a GPU, into someone else's data). The fix: mask=rows < m on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, m, n, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    best = tl.full([ROWS, BLOCK], float("-inf"), dtype=tl.float32)
    where = tl.full([ROWS, BLOCK], 2147483647, dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + cols
        valid = (rows[:, None] < m) & (offs[None, :] < n)
        x = tl.load(x_ptr + rows[:, None] * n + offs[None, :], mask=valid, other=float("-inf"))
        take = valid & ((x > best) | (where == 2147483647))
        best = tl.where(take, x, best)
        where = tl.where(take, offs[None, :], where)
    top = tl.max(best, axis=1)
    first = tl.min(tl.where(best == top[:, None], where, 2147483647), axis=1)
    tl.store(idx_ptr + rows, first)  # BUG: no mask=rows < m


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    argmax_kernel[(triton.cdiv(m, 4),)](x, idx, m, n, ROWS=4, BLOCK=256)
