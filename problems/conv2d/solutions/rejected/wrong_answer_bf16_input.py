# expect: wrong_answer
# expect-message: out of tolerance
# Bug: rounds every input to bfloat16 "to halve the traffic" (as if x were stored that way),
# then computes in float32. bfloat16 keeps 8 significant bits: each product is off by up to
# 2^-9 ≈ 2e-3 of itself, and the outputs by 4e-4 to 3e-3 of their scale, where float32
# needs 1e-5.
import torch
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, f_ptr, y_ptr, h, w, r, BH: tl.constexpr, BW: tl.constexpr):
    rows = tl.program_id(1) * BH + tl.arange(0, BH)
    cols = tl.program_id(0) * BW + tl.arange(0, BW)
    half = r // 2
    acc = tl.zeros([BH, BW], dtype=tl.float32)
    for a in range(0, r):
        src_r = rows + (a - half)
        for b in range(0, r):
            src_c = cols + (b - half)
            ok = ((src_r >= 0) & (src_r < h))[:, None] & ((src_c >= 0) & (src_c < w))[None, :]
            xv = tl.load(x_ptr + src_r[:, None] * w + src_c[None, :], mask=ok, other=0.0)
            xv = xv.to(tl.bfloat16).to(tl.float32)  # BUG: 8 significant bits
            acc += xv * tl.load(f_ptr + a * r + b)
    out = (rows[:, None] < h) & (cols[None, :] < w)
    tl.store(y_ptr + rows[:, None] * w + cols[None, :], acc, mask=out)


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    grid = (triton.cdiv(w, 64), triton.cdiv(h, 16))
    conv2d_kernel[grid](x, f, y, h, w, r, BH=16, BW=64)
