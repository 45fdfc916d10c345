# expect: wrong_answer
# Bug: the loop that writes the output row stops one column early (range(d - 1)), so the last
# column of o is never written and keeps the NaN the judge fills outputs with.
import math

from numba import cuda, float32

MAX_D = 128
THREADS = 128


@cuda.jit
def attention_kernel(q, k, v, o, b, h, s, d):
    row = cuda.blockIdx.x * THREADS + cuda.threadIdx.x
    bh = cuda.blockIdx.y
    if row >= s:
        return
    bi = bh // h
    hi = bh % h
    scale = float32(1.0) / math.sqrt(float32(d))
    acc = cuda.local.array(MAX_D, float32)
    for c in range(d):
        acc[c] = float32(0.0)
    m = float32(-math.inf)
    l = float32(0.0)
    for j in range(s):
        score = float32(0.0)
        for c in range(d):
            score += float32(q[bi, hi, row, c]) * float32(k[bi, hi, j, c])
        score *= scale
        m_new = max(m, score)
        correction = math.exp(m - m_new)
        p = math.exp(score - m_new)
        l = l * correction + p
        for c in range(d):
            acc[c] = acc[c] * correction + p * float32(v[bi, hi, j, c])
        m = m_new
    for c in range(d - 1):
        o[bi, hi, row, c] = acc[c] / l


def solve(q, k, v, o, b, h, s, d):
    attention_kernel[((s + THREADS - 1) // THREADS, b * h), THREADS](q, k, v, o, b, h, s, d)
