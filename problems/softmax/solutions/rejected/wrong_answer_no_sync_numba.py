# expect: wrong_answer
# Bug: writes y with the row's maximum taken from the thread's own share of the row only
# (the shared-memory combination was "optimised away"), so every thread normalises with a
# different max and sum: the outputs do not sum to 1.
import math

from numba import cuda, float32

THREADS = 64


@cuda.jit
def softmax_kernel(x, y, rows, cols):
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < rows:
        m = float32(-math.inf)
        j = t
        while j < cols:
            m = max(m, x[row, j])
            j += THREADS
        s = float32(0.0)
        j = t
        while j < cols:
            s += math.exp(x[row, j] - m)
            j += THREADS
        j = t
        while j < cols:
            y[row, j] = math.exp(x[row, j] - m) / s
            j += THREADS
        row += cuda.gridDim.x


def solve(x, y, rows, cols):
    softmax_kernel[min(rows, 65535), THREADS](x, y, rows, cols)
