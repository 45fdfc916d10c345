# expect: wrong_answer
# Bug: the bounds check stops one element early (i < n - 1), so c[n - 1] is never written: it
# keeps the NaN the judge fills outputs with.
from numba import cuda


@cuda.jit
def add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n - 1:
        c[i] = a[i] + b[i]


def solve(a, b, c, n):
    threads = 256
    add_kernel[(n + threads - 1) // threads, threads](a, b, c, n)
