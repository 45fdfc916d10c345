"""Attention in Numba CUDA, the plain way: one thread per query row. It walks over the keys
once with the online softmax (a running maximum m, a running sum l, the output accumulated in
float32 and rescaled when m grows), reading the fp16 inputs as float32, and writes o at the end.
Every key is read from global memory by every query: slow, but exact to float32."""

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
    for c in range(d):
        o[bi, hi, row, c] = acc[c] / l


def solve(q, k, v, o, b, h, s, d):
    attention_kernel[((s + THREADS - 1) // THREADS, b * h), THREADS](q, k, v, o, b, h, s, d)
