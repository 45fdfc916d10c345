"""SpMM in Numba CUDA: a thread per element of y, (row i, column j) of a 2-D grid; it walks
row i's entries rowptr[i] .. rowptr[i + 1] - 1 and adds val[e] * b[col[e], j]. The threads of
a warp take consecutive columns of the same row: they read consecutive floats of b's rows. An
empty row writes zeros like any other."""

from numba import cuda, float32

TILE = 16


@cuda.jit
def spmm_kernel(rowptr, col, val, b, y, m, n):
    j, i = cuda.grid(2)
    if i < m and j < n:
        acc = float32(0.0)
        for e in range(rowptr[i], rowptr[i + 1]):
            acc += val[e] * b[col[e], j]
        y[i, j] = acc


def solve(rowptr, col, val, b, y, m, k, n, nnz):
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    spmm_kernel[grid, (TILE, TILE)](rowptr, col, val, b, y, m, n)
