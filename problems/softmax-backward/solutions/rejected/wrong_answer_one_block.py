# expect: wrong_answer
# expect-message: 7 x 1025
# Bug: the row sum s is taken over one block of columns only, as if every row fit in one
# (BLOCK = next power of two of cols, capped at 1024 "to keep it in registers"), while the
# store loop does cover the whole row. Rows of more than 1024 columns miss the rest of s:
# right up to 1024 columns, wrong from 1025 on.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row = y_ptr + row * cols
    dy_row = dy_ptr + row * cols
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    # BUG: only columns 0 .. BLOCK - 1 go into s
    s = tl.sum(tl.load(y_row + offs, mask=mask, other=0.0) * tl.load(dy_row + offs, mask=mask, other=0.0), axis=0)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_row + offs, mask=mask, other=0.0)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0)
        tl.store(dx_ptr + row * cols + offs, y * (dy - s), mask=mask)


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    BLOCK = min(triton.next_power_of_2(cols), 1024)
    softmax_bwd_kernel[(rows,)](y, dy, dx, cols, BLOCK=BLOCK)
