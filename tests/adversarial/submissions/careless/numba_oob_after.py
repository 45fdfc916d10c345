# Threat class 12 (careless memory bug), Numba: a vector add without the `if i < n` bounds
# check, so the last block's threads past n store into memory after c. On a GPU those stores
# land in c's guard band and the judge says so (wrong_answer, "c: wrote past the end"); under
# the simulator, c is a NumPy view and the store is an IndexError (runtime_error). Either way
# it is not accepted, though every value inside c is right.
# expect: GPU wrong_answer (c: wrote past the end); CPU runtime_error
from numba import cuda


@cuda.jit
def add_kernel(a, b, c, n):
    i = cuda.grid(1)
    c[i] = a[i] + b[i]


def solve(a, b, c, n):
    threads = 256
    add_kernel[(n + threads - 1) // threads, threads](a, b, c, n)
