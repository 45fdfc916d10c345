"""Segmented sum in Numba CUDA: one thread per segment, walking offsets[s] .. offsets[s + 1] - 1
with four float32 partial sums (elements i, i + 1, i + 2, i + 3 of each step), added together
at the end: four independent loads in flight per step, and rounding errors that grow with a
quarter of the segment rather than all of it. An empty segment writes its 0 like any other
(out arrives filled with NaN)."""

from numba import cuda, float32

THREADS = 128


@cuda.jit
def segment_sum_kernel(x, offsets, out, segments):
    s = cuda.grid(1)
    if s < segments:
        start = offsets[s]
        end = offsets[s + 1]
        a0 = float32(0.0)
        a1 = float32(0.0)
        a2 = float32(0.0)
        a3 = float32(0.0)
        i = start
        while i + 3 < end:
            a0 += x[i]
            a1 += x[i + 1]
            a2 += x[i + 2]
            a3 += x[i + 3]
            i += 4
        while i < end:
            a0 += x[i]
            i += 1
        out[s] = (a0 + a1) + (a2 + a3)


def solve(x, offsets, out, n, segments):
    segment_sum_kernel[(segments + THREADS - 1) // THREADS, THREADS](x, offsets, out, segments)
