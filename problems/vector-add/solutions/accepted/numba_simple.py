"""Vector addition in Numba CUDA: one thread per element, the bounds check on the last block."""

from numba import cuda


@cuda.jit
def add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]


def solve(a, b, c, n):
    threads = 256
    add_kernel[(n + threads - 1) // threads, threads](a, b, c, n)
