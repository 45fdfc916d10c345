# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no masks. Every program loads and stores a whole 32 x 32 tile, so where m or n is not
# a multiple of 32 the last tiles store rows past the end of y, and columns past the end of
# y's rows (into the next row, and from the last row past the end). The values inside y may
# even come out right; the writes past its end are the bug (on a GPU they overwrite a
# neighbour's data). The fix: mask both the load and the store with the bounds of both
# dimensions.
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    tile = tl.load(x_ptr + rm[:, None] * n + rn[None, :])
    tl.store(y_ptr + rn[:, None] * m + rm[None, :], tl.trans(tile))


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BM, BN = 32, 32
    transpose_tiles[(triton.cdiv(m, BM), triton.cdiv(n, BN))](x, y, m, n, BM=BM, BN=BN)
