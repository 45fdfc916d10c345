"""Softmax backward, the straightforward way: one program per row, two passes over the row in
chunks of BLOCK columns. Pass 1 adds up dy·y into a vector of partial sums, reduced to the
row's s at the end; pass 2 re-reads y and dy and writes dx = y·(dy - s). Works for any number
of columns; reads the row twice (a fast version keeps it in registers)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * cols can exceed 2^31 on big inputs
    y_row = y_ptr + row * cols
    dy_row = dy_ptr + row * cols
    dx_row = dx_ptr + row * cols

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_row + offs, mask=mask, other=0.0)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0)
        acc += y * dy
    s = tl.sum(acc, axis=0)

    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_row + offs, mask=mask)  # masked-off lanes are never stored: no other=
        dy = tl.load(dy_row + offs, mask=mask)
        tl.store(dx_row + offs, y * (dy - s), mask=mask)


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    BLOCK = 1024
    softmax_bwd_kernel[(rows,)](y, dy, dx, cols, BLOCK=BLOCK)
