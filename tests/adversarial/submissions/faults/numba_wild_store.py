# Threat class 11 (faults), Numba: thread 0 stores 2^40 elements past the start of c. On a GPU
# that is an illegal address, which poisons the runner's CUDA context; under the simulator an
# IndexError. Either way a runtime_error, and the worker grades the next submission as before.
# expect: runtime_error
from numba import cuda


@cuda.jit
def wild_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]
    if i == 0:
        c[1 << 40] = 1.0


def solve(a, b, c, n):
    threads = 256
    wild_kernel[(n + threads - 1) // threads, threads](a, b, c, n)
