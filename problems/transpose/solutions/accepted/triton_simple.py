"""Matrix transpose, the straightforward way: each program takes up to 1024 consecutive
elements of one row of x and writes them down the matching column of y.

The loads are contiguous; the stores are not: consecutive elements of a row of x go m floats
apart in y, so every 4-byte store touches its own 32-byte memory sector. Correct for every
shape, and the editorial's starting point.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_rows(x_ptr, y_ptr, m, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)  # row of x
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)  # columns of x
    mask = j < n
    v = tl.load(x_ptr + i * n + j, mask=mask)
    tl.store(y_ptr + j * m + i, v, mask=mask)  # y[j, i] = x[i, j]


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BLOCK = 1024
    transpose_rows[(m, triton.cdiv(n, BLOCK))](x, y, m, n, BLOCK=BLOCK)
