"""Cross-entropy forward and backward in Numba CUDA: one block of 32 threads per row. The
threads stride over the row for its maximum, then for the sum of e^(x - max) (each combined by
a tree in shared memory), then write dlogits = (p - [j = label]) / b. Thread 0 adds the row's
loss / b into loss[0], which a one-thread kernel zeroed first. Rows beyond the grid's x limit
are covered by a loop over rows."""

import math

from numba import cuda, float32

THREADS = 32


@cuda.jit
def zero_kernel(loss):
    loss[0] = 0.0


@cuda.jit
def ce_kernel(logits, labels, loss, dlogits, b, v):
    part = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    while row < b:
        m = float32(-math.inf)
        j = t
        while j < v:
            m = max(m, logits[row, j])
            j += THREADS
        part[t] = m
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                part[t] = max(part[t], part[t + step])
            cuda.syncthreads()
            step //= 2
        row_max = part[0]
        cuda.syncthreads()  # every thread has read the max before part is reused
        s = float32(0.0)
        j = t
        while j < v:
            s += math.exp(logits[row, j] - row_max)
            j += THREADS
        part[t] = s
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                part[t] += part[t + step]
            cuda.syncthreads()
            step //= 2
        total = part[0]
        cuda.syncthreads()
        label = labels[row]
        j = t
        while j < v:
            p = math.exp(logits[row, j] - row_max) / total
            dlogits[row, j] = (p - (1.0 if j == label else 0.0)) / b
            j += THREADS
        if t == 0:
            cuda.atomic.add(loss, 0, (row_max + math.log(total) - logits[row, label]) / b)
        row += cuda.gridDim.x


def solve(logits, labels, loss, dlogits, b, v):
    zero_kernel[1, 1](loss)
    ce_kernel[min(b, 65535), THREADS](logits, labels, loss, dlogits, b, v)
