# expect: wrong_answer
# Bug: computes in float32 but rounds every output to bfloat16 before storing it (8 bits
# of mantissa: up to 2^-9 ≈ 0.2% relative error), far beyond float32's tolerance.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
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
        s += tl.exp(tl.load(x_row + offs, mask=offs < cols, other=float("-inf")) - row_max)
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        p = tl.exp(tl.load(x_row + offs, mask=mask, other=float("-inf")) - row_max) * inv_sum
        tl.store(y_row + offs, p.to(tl.bfloat16).to(tl.float32), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel[(rows,)](x, y, cols, BLOCK=1024)
