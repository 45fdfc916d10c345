"""Row softmax in Numba CUDA: one block of 64 threads per row. The threads stride over the
row for its maximum, combine in shared memory, do the same for the sum of exp(x - max), then
write exp(x - max) / sum. Rows beyond the grid's x limit are covered by a loop over rows."""

import math

from numba import cuda, float32

THREADS = 64


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
def softmax_kernel(x, y, rows, cols):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < rows:
        m = float32(-math.inf)
        j = t
        while j < cols:
            m = max(m, x[row, j])
            j += THREADS
        m = block_reduce(part, m, True)
        s = float32(0.0)
        j = t
        while j < cols:
            s += math.exp(x[row, j] - m)
            j += THREADS
        s = block_reduce(part, s, False)
        j = t
        while j < cols:
            y[row, j] = math.exp(x[row, j] - m) / s
            j += THREADS
        row += cuda.gridDim.x


def solve(x, y, rows, cols):
    softmax_kernel[min(rows, 65535), THREADS](x, y, rows, cols)
