# expect: wrong_answer
# expect-message: dx: wrote past the end
# Bug: the column mask is on the loads but not on the store. The last chunk of every row
# stores BLOCK values, so it writes past the row's end into the next row (which that row's
# program overwrites, or not, depending on the order) and, from the last row, past the end of
# dx. Right only when cols is a multiple of BLOCK. The fix: mask=mask on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row = y_ptr + row * cols
    dy_row = dy_ptr + row * cols
    dx_row = dx_ptr + row * cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        acc += tl.load(y_row + offs, mask=mask, other=0.0) * tl.load(dy_row + offs, mask=mask, other=0.0)
    s = tl.sum(acc, axis=0)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_row + offs, mask=mask, other=0.0)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0)
        tl.store(dx_row + offs, y * (dy - s))  # BUG: no mask=mask


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    softmax_bwd_kernel[(rows,)](y, dy, dx, cols, BLOCK=128)
