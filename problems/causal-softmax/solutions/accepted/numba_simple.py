"""Causal softmax in Numba CUDA: one block of 32 threads per row of scores (b·h·s rows). Row i
of a head keeps columns 0 ... i: the threads stride over them for the maximum of scale·x,
combine in shared memory, do the same for the sum of exp(scale·x - max), then write
exp(scale·x - max) / sum there and 0 in the columns above the diagonal. float32 throughout;
x is read and y written as float16. Rows beyond the grid's x limit are covered by a loop."""

import math

from numba import cuda, float32

THREADS = 32


@cuda.jit(device=True)
def block_reduce(part, value, is_max):
    t = cuda.threadIdx.x
    part[t] = value
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step:
            if is_max:
                part[t] = max(part[t], part[t + step])
            else:
                part[t] += part[t + step]
        cuda.syncthreads()
        step //= 2
    result = part[0]
    cuda.syncthreads()  # part is reused by the next reduction
    return result


@cuda.jit
def causal_softmax_kernel(x, scale, y, h, s, rows):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    c = float32(scale[0])
    row = cuda.blockIdx.x
    while row < rows:
        i = row % s
        head = (row // s) % h
        batch = row // (s * h)
        m = float32(-math.inf)
        j = t
        while j <= i:
            m = max(m, c * float32(x[batch, head, i, j]))
            j += THREADS
        m = block_reduce(part, m, True)
        total = float32(0.0)
        j = t
        while j <= i:
            total += math.exp(c * float32(x[batch, head, i, j]) - m)
            j += THREADS
        total = block_reduce(part, total, False)
        j = t
        while j < s:
            if j <= i:
                y[batch, head, i, j] = math.exp(c * float32(x[batch, head, i, j]) - m) / total
            else:
                y[batch, head, i, j] = float32(0.0)
            j += THREADS
        row += cuda.gridDim.x


def solve(x, scale, y, b, h, s):
    rows = b * h * s
    causal_softmax_kernel[min(rows, 65535), THREADS](x, scale, y, h, s, rows)
