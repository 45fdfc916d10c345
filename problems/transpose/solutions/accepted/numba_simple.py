"""Matrix transpose in Numba CUDA: each block stages a 32 x 32 tile of x in shared memory
(one padding column, so reading it down a column hits 32 different banks), then writes it to
y with the block's coordinates swapped, so both the reads of x and the writes of y are
contiguous along a row. A block of 32 x 8 threads covers its tile in four row steps."""

from numba import cuda, float32

TILE = 32
ROWS = 8
PADDED = TILE + 1  # a global: Numba needs the shared array's shape as constants


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
    # y's tile sits at the transposed block position: its rows are x's columns.
    out_col = row0 + tx
    col0 = cuda.blockIdx.x * TILE
    for r in range(ty, TILE, ROWS):
        if col0 + r < n and out_col < m:
            y[col0 + r, out_col] = tile[tx, r]


def solve(x, y, m, n):
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    transpose_kernel[grid, (TILE, ROWS)](x, y, m, n)
