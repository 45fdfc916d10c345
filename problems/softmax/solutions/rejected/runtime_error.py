# expect: runtime_error
# Assumes cols is a multiple of 4 and views x as (rows, cols // 4, 4): torch raises
# "shape '[1, 0, 4]' is invalid for input of size 1" at the first call.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    quads = x.view(rows, cols // 4, 4)
    softmax_kernel[(rows,)](quads, y, cols, BLOCK=triton.next_power_of_2(cols))
