"""Sum reduction in Numba CUDA: each block sums a strided share of x in a register, then the
block's threads combine their sums in shared memory and one thread adds the block's total to
out with an atomic. out is zeroed by a first, one-thread kernel (outputs arrive filled with
NaN)."""

from numba import cuda, float32

THREADS = 256


@cuda.jit
def zero(out):
    out[0] = 0.0


@cuda.jit
def sum_kernel(x, out, n):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    acc = float32(0.0)
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < n:
        acc += x[i]
        i += stride
    part[t] = acc
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step:
            part[t] += part[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        cuda.atomic.add(out, 0, part[0])


def solve(x, out, n):
    zero[1, 1](out)
    blocks = min(1024, (n + THREADS - 1) // THREADS)
    sum_kernel[blocks, THREADS](x, out, n)
