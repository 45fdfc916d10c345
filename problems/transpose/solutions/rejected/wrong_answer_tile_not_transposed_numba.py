# expect: wrong_answer
# Bug: the tile is written back as it was read (tile[r, tx] instead of tile[tx, r]): the
# blocks land at their transposed positions, but the elements inside each tile do not move,
# so only the diagonal of each tile is right.
from numba import cuda, float32

TILE = 32
ROWS = 8
PADDED = TILE + 1


@cuda.jit
def transpose_kernel(x, y, m, n):
    tile = cuda.shared.array((TILE, PADDED), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + tx
    row0 = cuda.blockIdx.y * TILE
    for r in range(ty, TILE, ROWS):
        if row0 + r < m and col < n:
            tile[r, tx] = x[row0 + r, col]
    cuda.syncthreads()
    out_col = row0 + tx
    col0 = cuda.blockIdx.x * TILE
    for r in range(ty, TILE, ROWS):
        if col0 + r < n and out_col < m:
            y[col0 + r, out_col] = tile[r, tx]


def solve(x, y, m, n):
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    transpose_kernel[grid, (TILE, ROWS)](x, y, m, n)
