import torch
import triton
import triton.language as tl


@triton.jit
def blur_pass(src_ptr, g_ptr, dst_ptr, h, w, r, ROW_STEP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # TODO: one pass for a BM x BN tile of pixels (rows from tl.program_id(0), columns from
    # tl.program_id(1); mask those past h and w): the sum over taps b = 0 .. r - 1 of
    # g[b] times src at offset b - r // 2 along the columns (ROW_STEP false) or along the
    # rows (ROW_STEP true), the index clamped into the image. Store into dst.
    pass


# input x [h, w] float32, g [r] float32; output y [h, w] float32; on the GPU.
def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    t = torch.empty_like(y)  # the horizontal pass's result
    blur_pass[grid](x, g, t, h, w, r, ROW_STEP=False, BM=BM, BN=BN)
    blur_pass[grid](t, g, y, h, w, r, ROW_STEP=True, BM=BM, BN=BN)
