# expect: wrong_answer
# Bug: exp(x) / sum(exp(x)) without subtracting the row maximum first. Mathematically the
# same, but in float32 exp overflows to inf for x > 88.7 (inf / inf = NaN) and underflows
# to 0 for x < -87.3, so the "large" rows come out as NaN or lose their small entries.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(x_row + offs, mask=offs < cols, other=float("-inf")))
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        tl.store(y_row + offs, tl.exp(tl.load(x_row + offs, mask=mask)) * inv_sum, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel[(rows,)](x, y, cols, BLOCK=1024)
