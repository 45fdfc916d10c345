# Threat class 9 (resources), Numba: a kernel whose loop never ends (the bound is read from an
# input that it never reaches). The call's time limit must end it: time_limit_exceeded, on the
# simulator (a Python thread that never returns) as on a GPU.
# expect: time_limit_exceeded
from numba import cuda


@cuda.jit
def spin_kernel(a, c, n):
    i = cuda.grid(1)
    if i < n:
        k = 0
        while a[i] == a[i]:  # always true for the judge's inputs: never leaves
            k += 1
            c[i] = k  # a store in the loop: the compiler may not drop it as empty


def solve(a, b, c, n):
    spin_kernel[1, 32](a, c, n)
