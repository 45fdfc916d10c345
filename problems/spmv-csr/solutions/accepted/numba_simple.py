"""Sparse matrix times vector (CSR) in Numba CUDA: one thread per row, summing val[j] · x[col[j]]
over the row's entries rowptr[row] .. rowptr[row + 1] - 1 in a float32 register. An empty row
writes its 0 like any other (y arrives filled with NaN)."""

from numba import cuda, float32

THREADS = 128


@cuda.jit
def spmv_kernel(rowptr, col, val, x, y, m):
    row = cuda.grid(1)
    if row < m:
        acc = float32(0.0)
        for j in range(rowptr[row], rowptr[row + 1]):
            acc += val[j] * x[col[j]]
        y[row] = acc


def solve(rowptr, col, val, x, y, m, n, nnz):
    spmv_kernel[(m + THREADS - 1) // THREADS, THREADS](rowptr, col, val, x, y, m)
