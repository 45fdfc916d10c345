# expect: wrong_answer
# expect-message: sparse
# Bug: -inf used as "nothing found yet". Each pass starts its best at -inf and takes an
# element only if it is larger, so an element that is itself -inf is never picked: when a row
# has fewer than k finite values (the "sparse" rows, mostly -inf), the passes after them find
# nothing and store the sentinel's column -1. The fix: a found flag, or compare positions in
# the answer's order rather than values against a sentinel.
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
        best_val = float32(-math.inf)
        best_col = -1
        for j in range(v):
            xj = x[row, j]
            after = xj < prev_val or (xj == prev_val and j > prev_col)
            if after and xj > best_val:
                best_val = xj
                best_col = j
        vals[row, t] = best_val
        idx[row, t] = best_col
        prev_val = best_val
        prev_col = best_col


def solve(x, vals, idx, b, v, k):
    threads = 64
    topk_kernel[(b + threads - 1) // threads, threads](x, vals, idx, b, v, k)
