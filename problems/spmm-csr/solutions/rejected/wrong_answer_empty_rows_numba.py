# expect: wrong_answer
# Bug: a thread whose row is empty returns early "since there is nothing to add", but y holds
# garbage (NaN) when solve is called: the row's zeros must still be written.
from numba import cuda, float32

TILE = 16


@cuda.jit
def spmm_kernel(rowptr, col, val, b, y, m, n):
    j, i = cuda.grid(2)
    if i < m and j < n:
        if rowptr[i] == rowptr[i + 1]:
            return  # BUG: y[i, j] = 0 first
        acc = float32(0.0)
        for e in range(rowptr[i], rowptr[i + 1]):
            acc += val[e] * b[col[e], j]
        y[i, j] = acc


def solve(rowptr, col, val, b, y, m, k, n, nnz):
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    spmm_kernel[grid, (TILE, TILE)](rowptr, col, val, b, y, m, n)
