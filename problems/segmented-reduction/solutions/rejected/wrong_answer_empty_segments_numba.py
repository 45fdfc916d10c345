# expect: wrong_answer
# expect-message: before each call
# Bug: returns early for an empty segment "since there is nothing to add", but out is not zero
# to begin with (the judge fills outputs with NaN, as real memory holds garbage): an empty
# segment must still write its 0.
from numba import cuda, float32

THREADS = 128


@cuda.jit
def segment_sum_kernel(x, offsets, out, segments):
    s = cuda.grid(1)
    if s >= segments:
        return
    start = offsets[s]
    end = offsets[s + 1]
    if start == end:
        return  # BUG: out[s] = 0 first
    acc = float32(0.0)
    for i in range(start, end):
        acc += x[i]
    out[s] = acc


def solve(x, offsets, out, n, segments):
    segment_sum_kernel[(segments + THREADS - 1) // THREADS, THREADS](x, offsets, out, segments)
