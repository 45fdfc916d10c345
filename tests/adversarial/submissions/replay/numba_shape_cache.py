# Threat class 1 (replay), Numba: keep a device copy of c per size n and, on a later call of
# the same size, copy it into c instead of adding. The judge makes fresh random inputs for
# every call (tests and every timed run) and checks every output: the replayed c is wrong.
# expect: wrong_answer
from numba import cuda

_cache = {}


@cuda.jit
def add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]


@cuda.jit
def copy_kernel(src, dst, n):
    i = cuda.grid(1)
    if i < n:
        dst[i] = src[i]


def solve(a, b, c, n):
    threads = 256
    blocks = (n + threads - 1) // threads
    if n in _cache:
        copy_kernel[blocks, threads](_cache[n], c, n)  # replay: no addition at all
        return
    add_kernel[blocks, threads](a, b, c, n)
    saved = cuda.device_array_like(c)
    copy_kernel[blocks, threads](c, saved, n)
    _cache[n] = saved
