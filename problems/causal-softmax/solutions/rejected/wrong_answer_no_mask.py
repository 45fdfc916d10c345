# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: short rows are packed ROWS to a program, and the store forgets the row mask (it keeps
# only the column one). The loads are masked on rows, so every row inside y is right, but when
# b·h·s is not a multiple of ROWS the last program stores rows past the end of y (on a GPU,
# into someone else's data). The fix: row_ok in the store's mask, as in the load's.
import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(
    x_ptr, scale_ptr, y_ptr, n_rows, s, ROWS: tl.constexpr, BLOCK: tl.constexpr
):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    i = rows % s
    row_ok = rows < n_rows
    offs = rows[:, None] * s + cols[None, :]
    keep = row_ok[:, None] & (cols[None, :] <= i[:, None])
    x = tl.load(x_ptr + offs, mask=keep, other=float("-inf"))
    z = x.to(tl.float32) * tl.load(scale_ptr)
    z = z - tl.max(z, axis=1)[:, None]
    p = tl.exp(z)
    y = p / tl.sum(p, axis=1)[:, None]
    tl.store(y_ptr + offs, y.to(tl.float16), mask=cols[None, :] < s)  # no row mask


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    n_rows = b * h * s
    block = triton.next_power_of_2(s)
    rows = max(1, min(16, 1024 // block))
    causal_softmax_kernel[(triton.cdiv(n_rows, rows),)](x, scale, y, n_rows, s, ROWS=rows, BLOCK=block)
