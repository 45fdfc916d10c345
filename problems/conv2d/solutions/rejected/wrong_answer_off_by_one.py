# expect: wrong_answer
# Bug: an off-by-one in the window: it loops over the offsets -r//2 .. r//2 - 1
# (range(-half, half)) instead of -r//2 .. r//2, so the last row and the last column of the
# filter are never applied. For r = 1 the loop is empty and every output comes out 0.
import torch
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, f_ptr, y_ptr, h, w, r, BH: tl.constexpr, BW: tl.constexpr):
    rows = tl.program_id(1) * BH + tl.arange(0, BH)
    cols = tl.program_id(0) * BW + tl.arange(0, BW)
    half = r // 2
    acc = tl.zeros([BH, BW], dtype=tl.float32)
    for da in range(-half, half):  # BUG: range(-half, half + 1)
        src_r = rows + da
        for db in range(-half, half):
            src_c = cols + db
            ok = ((src_r >= 0) & (src_r < h))[:, None] & ((src_c >= 0) & (src_c < w))[None, :]
            xv = tl.load(x_ptr + src_r[:, None] * w + src_c[None, :], mask=ok, other=0.0)
            acc += xv * tl.load(f_ptr + (da + half) * r + (db + half))
    out = (rows[:, None] < h) & (cols[None, :] < w)
    tl.store(y_ptr + rows[:, None] * w + cols[None, :], acc, mask=out)


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    grid = (triton.cdiv(w, 64), triton.cdiv(h, 16))
    conv2d_kernel[grid](x, f, y, h, w, r, BH=16, BW=64)
