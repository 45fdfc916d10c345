# expect: wrong_answer
# expect-message: out of tolerance
# Bug: the partial sums of dy·y are kept in float16 ("the products are small, half precision
# is enough"). Every addition rounds the running sum to 11 significant bits (2^-11 ≈ 4.9e-4 of
# it), 50x over the 1e-5 a float32 sum meets; on rows whose dy is ~1000 the float16 spacing
# near the sum is 0.5, and the small part of dy that the exact dx keeps is lost.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row = y_ptr + row * cols
    dy_row = dy_ptr + row * cols
    acc = tl.zeros([BLOCK], dtype=tl.float16)  # BUG: tl.float32
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        prod = tl.load(y_row + offs, mask=mask, other=0.0) * tl.load(dy_row + offs, mask=mask, other=0.0)
        acc = (acc + prod).to(tl.float16)
    s = tl.sum(acc, axis=0).to(tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < cols
        y = tl.load(y_row + offs, mask=mask, other=0.0)
        dy = tl.load(dy_row + offs, mask=mask, other=0.0)
        tl.store(dx_ptr + row * cols + offs, y * (dy - s), mask=mask)


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    softmax_bwd_kernel[(rows,)](y, dy, dx, cols, BLOCK=256)
