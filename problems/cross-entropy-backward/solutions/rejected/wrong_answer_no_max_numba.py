# expect: wrong_answer
# Bug: no max subtraction: s = sum e^x and p = e^x / s, as the formula is written. On rows of
# logits near +100, e^x overflows float32 (e^89 already does): inf / inf = NaN; near -100,
# every e^x underflows to 0 and p = 0 / 0. The loss log(s) - x[label] goes the same way.
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
        s = float32(0.0)
        j = t
        while j < v:
            s += math.exp(logits[row, j])
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
            p = math.exp(logits[row, j]) / total
            dlogits[row, j] = (p - (1.0 if j == label else 0.0)) / b
            j += THREADS
        if t == 0:
            cuda.atomic.add(loss, 0, (math.log(total) - logits[row, label]) / b)
        row += cuda.gridDim.x


def solve(logits, labels, loss, dlogits, b, v):
    zero_kernel[1, 1](loss)
    ce_kernel[min(b, 65535), THREADS](logits, labels, loss, dlogits, b, v)
