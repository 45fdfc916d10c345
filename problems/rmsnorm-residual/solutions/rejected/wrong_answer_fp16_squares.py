# expect: wrong_answer
# expect-message: outliers: y:
# Bug: a precision mistake, of range rather than digits. The kernel converts h = x + res to
# float16 "for faster math" and squares it there. float16 has 3 more significant bits than
# bfloat16 but a far smaller range: its largest finite value is 65504, so any |h| above 256
# squares to infinity. Residual streams of large models carry a few "massive activation"
# channels of several hundred (the "outliers" rows have ±300): the row's sum of squares is
# inf, rstd is 0, and every y of the row comes out 0. bfloat16 exists for exactly this range;
# the fix is to square in float32.
import torch
import triton
import triton.language as tl


@triton.jit
def add_rmsnorm_fp16(x_ptr, res_ptr, w_ptr, y_ptr, out_ptr, n, eps, BLOCK: tl.constexpr):
    # One program per row, in chunks: add and sum the squares, then scale.
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = row * n + start + tl.arange(0, BLOCK)
        mask = start + tl.arange(0, BLOCK) < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        h = x + r
        tl.store(out_ptr + offs, h.to(tl.bfloat16), mask=mask)
        h16 = h.to(tl.float16)
        acc += (h16 * h16).to(tl.float32)  # BUG: overflows to inf for |h| > 256
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        h = tl.load(out_ptr + row * n + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + cols, (h * rstd * w).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    block = min(triton.next_power_of_2(n), 2048)
    add_rmsnorm_fp16[(m,)](x, res, w, y, res_out, n, 1e-6, BLOCK=block)
