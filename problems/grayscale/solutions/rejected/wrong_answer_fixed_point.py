# expect: wrong_answer
# expect-message: out of tolerance
# Bug: a precision mistake, borrowed from integer image code: luma as
# (77 R + 150 G + 29 B + 128) >> 8, in integers, then divided by 255. The weights become
# 77/256 = 0.30078, 150/256 = 0.58594 and 29/256 = 0.11328, and the shift drops the
# fraction: the result is off by up to half a grey level (~2e-3 absolute), hundreds of
# times the tolerance. On a GPU the float formula costs nothing extra: this kernel is
# memory-bound. The fix: the float32 formula.
import torch
import triton
import triton.language as tl


@triton.jit
def gray_kernel(rgb_ptr, y_ptr, h, w, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < w
    pix = row * w + cols
    r = tl.load(rgb_ptr + 3 * pix, mask=mask).to(tl.int32)
    g = tl.load(rgb_ptr + 3 * pix + 1, mask=mask).to(tl.int32)
    b = tl.load(rgb_ptr + 3 * pix + 2, mask=mask).to(tl.int32)
    luma = (77 * r + 150 * g + 29 * b + 128) >> 8  # BUG: 8-bit fixed point
    tl.store(y_ptr + pix, luma.to(tl.float32) / 255.0, mask=mask)


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    BLOCK = 1024
    gray_kernel[(h, triton.cdiv(w, BLOCK))](rgb, y, h, w, BLOCK=BLOCK)
