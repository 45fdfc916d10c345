"""Top-k in Numba CUDA: one thread per row, k passes of selection. Pass t looks for the
largest element that comes after the previous pick in the answer's order (value descending,
column ascending among equal values): a value below the previous one, or equal to it at a
higher column. Scanning columns upwards and replacing the best only on a strictly larger
value keeps the lower column among ties. A flag, not a -inf sentinel, says whether anything
was found, so real -inf values are picked too. O(k·v) per row: simple, not fast."""

import math

from numba import cuda, float32


@cuda.jit
def topk_kernel(x, vals, idx, b, v, k):
    row = cuda.grid(1)
    if row >= b:
        return
    prev_val = float32(math.inf)
    prev_col = -1
    for t in range(k):
        found = False
        best_val = float32(0.0)
        best_col = -1
        for j in range(v):
            xj = x[row, j]
            after = xj < prev_val or (xj == prev_val and j > prev_col)
            if after and (not found or xj > best_val):
                found = True
                best_val = xj
                best_col = j
        vals[row, t] = best_val
        idx[row, t] = best_col
        prev_val = best_val
        prev_col = best_col


def solve(x, vals, idx, b, v, k):
    threads = 64
    topk_kernel[(b + threads - 1) // threads, threads](x, vals, idx, b, v, k)
