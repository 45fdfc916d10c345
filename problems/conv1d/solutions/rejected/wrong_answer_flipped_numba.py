# expect: wrong_answer
# Bug: flips the filter, as the textbook convolution does (x[i + j] · w[k - 1 - j]); the
# problem asks for the correlation, which deep-learning "convolutions" compute, without the
# flip. Right only for filters that read the same both ways (k = 1 among them).
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
                acc += x[i + j0 + j] * taps[min(CHUNK, k - j0) - 1 - j]
    if i < outputs:
        y[i] = acc


def solve(x, w, y, n, k):
    outputs = n - k + 1
    conv1d_kernel[(outputs + THREADS - 1) // THREADS, THREADS](x, w, y, n, k)
