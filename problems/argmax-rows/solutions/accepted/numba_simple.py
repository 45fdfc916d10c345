"""Row argmax in Numba CUDA: one block of 128 threads per row (rows beyond the grid's limit
are reached by a loop). Each thread scans a strided share of the row keeping its largest
value and, for equal values, the smallest column; the block then combines the 128 pairs in
shared memory with the same rule, so ties resolve to the first column (rows may be all -inf)."""

import math

from numba import cuda, float32, int32

THREADS = 128


@cuda.jit
def argmax_kernel(x, idx, m, n):
    best_v = cuda.shared.array(THREADS, float32)
    best_j = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < m:
        if t < n:
            v = x[row, t]
            j = t
        else:  # no column of its own: a pair that loses to every real one, ties included
            v = float32(-math.inf)
            j = n
        c = t + THREADS
        while c < n:  # columns in increasing order: only a larger value replaces the best
            if x[row, c] > v:
                v = x[row, c]
                j = c
            c += THREADS
        best_v[t] = v
        best_j[t] = j
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                ov = best_v[t + step]
                oj = best_j[t + step]
                if ov > best_v[t] or (ov == best_v[t] and oj < best_j[t]):
                    best_v[t] = ov
                    best_j[t] = oj
            cuda.syncthreads()
            step //= 2
        if t == 0:
            idx[row] = best_j[0]
        cuda.syncthreads()  # the shared arrays are reused by the next row
        row += cuda.gridDim.x


def solve(x, idx, m, n):
    argmax_kernel[min(m, 65535), THREADS](x, idx, m, n)
