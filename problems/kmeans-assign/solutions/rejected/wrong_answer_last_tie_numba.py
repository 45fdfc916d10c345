# expect: wrong_answer
# Bug: "<=" where "<" belongs: a later centroid at the same distance replaces the earlier one,
# so ties go to the highest index; the problem asks for the lowest.
import math

from numba import cuda, float32

THREADS = 128


@cuda.jit
def assign(points, centroids, labels, n, k, d):
    i = cuda.grid(1)
    if i < n:
        best = float32(math.inf)
        where = 0
        for j in range(k):
            dist = float32(0.0)
            for t in range(d):
                diff = points[i, t] - centroids[j, t]
                dist += diff * diff
            if dist <= best:
                best = dist
                where = j
        labels[i] = where


def solve(points, centroids, labels, n, k, d):
    assign[(n + THREADS - 1) // THREADS, THREADS](points, centroids, labels, n, k, d)
