# expect: wrong_answer
# Bug: adds the block sums into out without zeroing it first. The judge fills outputs with NaN
# before every call, so out stays NaN (on a real program: whatever the memory held).
from numba import cuda, float32

THREADS = 256


@cuda.jit
def sum_kernel(x, out, n):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    acc = float32(0.0)
    i = cuda.grid(1)
    while i < n:
        acc += x[i]
        i += cuda.gridsize(1)
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
    sum_kernel[min(1024, (n + THREADS - 1) // THREADS), THREADS](x, out, n)
