"""K-means assignment on the framework track, in the GEMM form: the nearest centroid of x
minimises |c_j|^2 - 2 x.c_j (|x|^2 is the same for every j), a matrix product per chunk of
points. On these inputs every score is exact in float32. torch.argmin does not promise the
first index of equal minima, so the least score is found first and the smallest index
holding it picked explicitly.

Memory: all n points at once would need an n x k score matrix, 4 GiB for the benchmark
(2^20 x 1024 float32), plus as much again for the index matrix and 1 GiB for the comparison:
far past the problem's GPU budget (twice the largest case's inputs and outputs plus 1 GiB,
about 2 GiB here; judge/problem/schema.py, Problem.gpu_budget_mb), and the judge answers
memory_limit_exceeded. So the points go through in chunks of 2^24 // k (16384 points for
k = 1024; at least 4093, as k <= 4099): each chunk's scores are 2^24 float32, 64 MiB, and
its temporaries (the comparison, 16 MiB; the index matrix, 64 MiB) bring the peak to about
150 MiB whatever n and k, well inside the budget. The chunks are still large enough (64 for
the benchmark) that the matrix products stay efficient and the loop's launches are few."""

import torch

CHUNK_SCORES = 1 << 24  # scores per chunk: 64 MiB of float32


def solve(points, centroids, labels, n: int, k: int, d: int):
    norms = (centroids * centroids).sum(dim=1)
    js = torch.arange(k, device=points.device, dtype=torch.int32)
    chunk = CHUNK_SCORES // k
    for s in range(0, n, chunk):
        scores = torch.addmm(norms, points[s : s + chunk], centroids.T, alpha=-2.0)
        least = scores.min(dim=1, keepdim=True).values
        labels[s : s + chunk] = torch.where(scores == least, js, k).min(dim=1).values
