"""Softmax backward in Numba CUDA: one block of 64 threads per row. The threads stride over the
row adding up dy·y, combine their partial sums in shared memory (a tree), then write
dx = y·(dy - s). Rows beyond the grid's x limit are covered by a loop over rows."""

from numba import cuda, float32

THREADS = 64


@cuda.jit
def softmax_bwd_kernel(y, dy, dx, rows, cols):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < rows:
        acc = float32(0.0)
        j = t
        while j < cols:
            acc += y[row, j] * dy[row, j]
            j += THREADS
        part[t] = acc
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                part[t] += part[t + step]
            cuda.syncthreads()
            step //= 2
        s = part[0]
        cuda.syncthreads()  # every thread has read part[0] before the next row reuses part
        j = t
        while j < cols:
            dx[row, j] = y[row, j] * (dy[row, j] - s)
            j += THREADS
        row += cuda.gridDim.x


def solve(y, dy, dx, rows, cols):
    softmax_bwd_kernel[min(rows, 65535), THREADS](y, dy, dx, rows, cols)
