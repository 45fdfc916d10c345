# expect: wrong_answer
# Bug: the k loop covers only whole tiles (range(0, k - TILE + 1, TILE)): when k is not a
# multiple of 16 the last partial tile of the inner dimension is dropped.
from numba import cuda, float32

TILE = 16


@cuda.jit
def matmul_kernel(a, b, c, m, n, k):
    sa = cuda.shared.array((TILE, TILE), float32)
    sb = cuda.shared.array((TILE, TILE), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    acc = float32(0.0)
    for t0 in range(0, k - TILE + 1, TILE):
        sa[ty, tx] = a[row, t0 + tx] if row < m else float32(0.0)
        sb[ty, tx] = b[t0 + ty, col] if col < n else float32(0.0)
        cuda.syncthreads()
        for i in range(TILE):
            acc += sa[ty, i] * sb[i, tx]
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = acc


def solve(a, b, c, m, n, k):
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    matmul_kernel[grid, (TILE, TILE)](a, b, c, m, n, k)
