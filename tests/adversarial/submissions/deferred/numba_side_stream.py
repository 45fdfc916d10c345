# Threat class 2 (deferred work), Numba: launch the kernel on a stream of its own
# (cuda.stream()) and return without synchronising it, so a timer that only waits for the
# default stream misses the work. Whether that stream waits for the referee's gate or runs
# before it opens, the time must be the truth: timed with the work, or rejected by the
# speed-of-light bound. On the CPU the simulator's streams run the kernel at once.
# expect: GPU not accepted with a time faster than the speed of light; CPU accepted
from numba import cuda

_streams = []


@cuda.jit
def add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]


def solve(a, b, c, n):
    if not _streams:
        _streams.append(cuda.stream())
    threads = 256
    add_kernel[(n + threads - 1) // threads, threads, _streams[0]](a, b, c, n)
