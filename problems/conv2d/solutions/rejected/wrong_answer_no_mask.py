# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the loads are masked (zero padding) but the store is not. A tile that sticks out of
# the image on the right writes into the next rows, and tiles on the bottom edge (and the
# last row's overhang) write past the end of y. Right only when h and w are multiples of
# the tile. The fix: mask=(rows < h) & (cols < w) on the store.
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
            acc += xv * tl.load(f_ptr + a * r + b)
    tl.store(y_ptr + rows[:, None] * w + cols[None, :], acc)  # BUG: no mask


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    grid = (triton.cdiv(w, 32), triton.cdiv(h, 16))
    conv2d_kernel[grid](x, f, y, h, w, r, BH=16, BW=32)
