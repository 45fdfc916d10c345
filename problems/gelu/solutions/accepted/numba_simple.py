"""GELU (tanh approximation) in Numba CUDA: one thread per element, the textbook formula
0.5 · x · (1 + tanh(u)) in float32, with the bounds check on the last block."""

import math

from numba import cuda, float32

SQRT_2_OVER_PI = float32(0.7978845608028654)
CUBIC = float32(0.044715)


@cuda.jit
def gelu_kernel(x, y, n):
    i = cuda.grid(1)
    if i < n:
        v = x[i]
        u = SQRT_2_OVER_PI * (v + CUBIC * v * v * v)
        y[i] = float32(0.5) * v * (float32(1.0) + math.tanh(u))


def solve(x, y, n):
    threads = 256
    gelu_kernel[(n + threads - 1) // threads, threads](x, y, n)
