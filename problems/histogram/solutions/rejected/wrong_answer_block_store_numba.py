# expect: wrong_answer
# Bug: each block stores its shared-memory counts into bins (bins[t] = local[t]) instead of
# adding them: the blocks overwrite each other and bins holds one block's counts. Right only
# when the grid has a single block (n <= 256).
from numba import cuda, int32

BINS = 256
THREADS = 256


@cuda.jit
def zero(bins):
    i = cuda.grid(1)
    if i < BINS:
        bins[i] = 0


@cuda.jit
def histogram_kernel(data, bins, n):
    local = cuda.shared.array(BINS, int32)
    t = cuda.threadIdx.x
    local[t] = 0  # THREADS == BINS: one bin per thread
    cuda.syncthreads()
    i = cuda.grid(1)
    while i < n:
        cuda.atomic.add(local, data[i], 1)
        i += cuda.gridsize(1)
    cuda.syncthreads()
    bins[t] = local[t]


def solve(data, bins, n):
    zero[1, BINS](bins)
    blocks = min(1024, (n + THREADS - 1) // THREADS)
    histogram_kernel[blocks, THREADS](data, bins, n)
