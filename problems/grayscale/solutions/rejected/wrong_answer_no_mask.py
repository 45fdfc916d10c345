# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no mask. Each program converts a whole block of 1024 pixels of one row, so where w is
# not a multiple of 1024 it writes past the end of its row: into the next row (which that
# row's own program also writes) and, from the last row, past the end of y. It also reads
# past the end of rgb there. The fix: mask = cols < w, on the loads and the store.
import torch
import triton
import triton.language as tl


@triton.jit
def gray_kernel(rgb_ptr, y_ptr, h, w, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    pix = row * w + cols
    r = tl.load(rgb_ptr + 3 * pix).to(tl.float32)
    g = tl.load(rgb_ptr + 3 * pix + 1).to(tl.float32)
    b = tl.load(rgb_ptr + 3 * pix + 2).to(tl.float32)
    tl.store(y_ptr + pix, (0.299 * r + 0.587 * g + 0.114 * b) / 255.0)


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    BLOCK = 1024
    gray_kernel[(h, triton.cdiv(w, BLOCK))](rgb, y, h, w, BLOCK=BLOCK)
