# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: a skipped step. The kernel writes res_out = x + res correctly but then normalizes x,
# the sublayer's output, instead of the new residual stream h = x + res. In a model the next
# sublayer would see the wrong input while the residual looks right. The fix: normalize h.
import torch
import triton
import triton.language as tl


@triton.jit
def add_then_norm_x(x_ptr, res_ptr, w_ptr, y_ptr, out_ptr, n, eps, BLOCK: tl.constexpr):
    # One program per row, in chunks: add and sum the squares, then scale.
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = row * n + start + tl.arange(0, BLOCK)
        mask = start + tl.arange(0, BLOCK) < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + offs, (x + r).to(tl.bfloat16), mask=mask)
        acc += x * x  # BUG: x, not x + r
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + cols, (x * rstd * w).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    block = min(triton.next_power_of_2(n), 2048)
    add_then_norm_x[(m,)](x, res, w, y, res_out, n, 1e-6, BLOCK=block)
