# expect: wrong_answer
# expect-message: was it written?
# Bug: a fencepost error in the grid. (m - 1) // BM is the index of the last tile, not the
# number of tiles (that is (m - 1) // BM + 1, i.e. cdiv(m, BM)); the same for n. So the
# last row and the last column of tiles are never written and keep the NaN the judge fills
# y with; for m <= 32 or n <= 32 nothing is written at all. The fix: triton.cdiv.
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
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
    grid = ((m - 1) // BM, (n - 1) // BN)  # BUG: the last tile's index, not the tile count
    transpose_tiles[grid](x, y, m, n, BM=BM, BN=BN)
