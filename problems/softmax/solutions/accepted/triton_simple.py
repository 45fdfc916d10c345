"""Row-wise softmax, the straightforward way: one program per row, three passes over the
row in chunks of BLOCK columns: find the maximum, add up exp(x - max), then write
exp(x - max) / sum. Subtracting the maximum keeps exp from overflowing. Works for any
number of columns; reads each row three times (a fast version keeps it in registers)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * cols can exceed 2^31 on big inputs
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols

    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(x_row + offs, mask=offs < cols, other=float("-inf")))
    row_max = tl.max(m, axis=0)

    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf"))
        s += tl.exp(x - row_max)  # masked lanes: exp(-inf) = 0
    inv_sum = 1.0 / tl.sum(s, axis=0)

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=float("-inf"))
        tl.store(y_row + offs, tl.exp(x - row_max) * inv_sum, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    BLOCK = 1024
    softmax_kernel[(rows,)](x, y, cols, BLOCK=BLOCK)
