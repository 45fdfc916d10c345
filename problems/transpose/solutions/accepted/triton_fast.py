"""Matrix transpose with 2-D tiles: both the loads and the stores are coalesced.

Each program loads a 64 x 64 tile of x, whose rows are contiguous in memory, and stores its
transpose as a 64 x 64 tile of y, whose rows are again contiguous. Between the two, Triton
moves the tile from the load's register layout (threads along x's rows) to the store's
(threads along y's rows) through shared memory, with a swizzled layout that avoids bank
conflicts: what a CUDA programmer writes by hand with a padded __shared__ tile. Programs go
along x's rows first (pid_n fastest), so neighbouring programs read neighbouring columns
of the same rows.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
    tiles_n = tl.cdiv(n, BN)
    pid = tl.program_id(0)
    rm = (pid // tiles_n) * BM + tl.arange(0, BM)  # rows of x = columns of y
    rn = (pid % tiles_n) * BN + tl.arange(0, BN)  # columns of x = rows of y
    tile = tl.load(
        x_ptr + rm[:, None].to(tl.int64) * n + rn[None, :],
        mask=(rm[:, None] < m) & (rn[None, :] < n),
    )
    tl.store(
        y_ptr + rn[:, None].to(tl.int64) * m + rm[None, :],
        tl.trans(tile),
        mask=(rn[:, None] < n) & (rm[None, :] < m),
    )


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BM, BN = 64, 64
    grid = (triton.cdiv(m, BM) * triton.cdiv(n, BN),)
    transpose_tiles[grid](x, y, m, n, BM=BM, BN=BN, num_warps=4)
