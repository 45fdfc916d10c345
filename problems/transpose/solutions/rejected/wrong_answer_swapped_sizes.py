# expect: wrong_answer
# expect-message: values differ
# Bug: m and n passed to the kernel in the wrong order ("y is n x m, so pass n, m"). The
# kernel then reads x as an n x m matrix and writes y as m x n: the same number of elements,
# so nothing is written out of bounds, and for square matrices (m = n) the result is even
# right. For every other shape the values land in the wrong places. The fix: pass the sizes
# in the order the kernel's parameters name them (x is m x n).
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
    # x is m x n, y is n x m
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    tile = tl.load(
        x_ptr + rm[:, None] * n + rn[None, :], mask=(rm[:, None] < m) & (rn[None, :] < n)
    )
    tl.store(
        y_ptr + rn[:, None] * m + rm[None, :],
        tl.trans(tile),
        mask=(rn[:, None] < n) & (rm[None, :] < m),
    )


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BM, BN = 32, 32
    grid = (triton.cdiv(n, BM), triton.cdiv(m, BN))
    transpose_tiles[grid](x, y, n, m, BM=BM, BN=BN)  # BUG: should be m, n
