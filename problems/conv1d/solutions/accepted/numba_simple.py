"""1-D correlation in Numba CUDA: one thread per output, y[i] = sum_j x[i + j] · w[j]. The block
first stages the filter in shared memory, 1024 taps at a time, so its threads read each tap
from there rather than all from global memory; the float32 sum runs in a register."""

from numba import cuda, float32

THREADS = 256
CHUNK = 1024  # filter taps staged at a time


@cuda.jit
def conv1d_kernel(x, w, y, n, k):
    taps = cuda.shared.array(CHUNK, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    outputs = n - k + 1
    acc = float32(0.0)
    for j0 in range(0, k, CHUNK):
        cuda.syncthreads()  # the previous chunk is no longer read
        for j in range(t, min(CHUNK, k - j0), THREADS):
            taps[j] = w[j0 + j]
        cuda.syncthreads()
        if i < outputs:
            for j in range(min(CHUNK, k - j0)):
                acc += x[i + j0 + j] * taps[j]
    if i < outputs:
        y[i] = acc


def solve(x, w, y, n, k):
    outputs = n - k + 1
    conv1d_kernel[(outputs + THREADS - 1) // THREADS, THREADS](x, w, y, n, k)
