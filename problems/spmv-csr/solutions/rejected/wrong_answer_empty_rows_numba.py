# expect: wrong_answer
# Bug: returns early for an empty row "since there is nothing to do", but y is not zero to
# begin with (the judge fills outputs with NaN, as real memory holds garbage): an empty row
# must still write its 0.
from numba import cuda, float32

THREADS = 128


@cuda.jit
def spmv_kernel(rowptr, col, val, x, y, m):
    row = cuda.grid(1)
    if row >= m:
        return
    start = rowptr[row]
    end = rowptr[row + 1]
    if start == end:
        return
    acc = float32(0.0)
    for j in range(start, end):
        acc += val[j] * x[col[j]]
    y[row] = acc


def solve(rowptr, col, val, x, y, m, n, nnz):
    spmv_kernel[(m + THREADS - 1) // THREADS, THREADS](rowptr, col, val, x, y, m)
