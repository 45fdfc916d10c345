"""Byte histogram in Numba CUDA: bins is zeroed by a first kernel (outputs arrive filled with
a sentinel); then each block counts a strided share of the bytes into its own 256 bins in
shared memory with shared-memory atomics, and adds its non-zero bins to the global ones with
one global atomic each. Skewed inputs (one value everywhere) contend on the shared bins,
not on global memory."""

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
    if local[t] != 0:
        cuda.atomic.add(bins, t, local[t])


def solve(data, bins, n):
    zero[1, BINS](bins)
    blocks = min(1024, (n + THREADS - 1) // THREADS)
    histogram_kernel[blocks, THREADS](data, bins, n)
