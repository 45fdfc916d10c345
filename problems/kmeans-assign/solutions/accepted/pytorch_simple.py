"""K-means assignment on the framework track, in the GEMM form: the nearest centroid of x
minimises |c_j|^2 - 2 x.c_j (|x|^2 is the same for every j), one matrix product for all points
at once. On these inputs every score is exact in float32. torch.argmin does not promise the
first index of equal minima, so the least score is found first and the smallest index
holding it picked explicitly (memory: an n x k score matrix)."""

import torch


def solve(points, centroids, labels, n: int, k: int, d: int):
    scores = torch.addmm((centroids * centroids).sum(dim=1), points, centroids.T, alpha=-2.0)
    least = scores.min(dim=1, keepdim=True).values
    js = torch.arange(k, device=points.device, dtype=torch.int32)
    first = torch.where(scores == least, js, k).min(dim=1).values
    labels.copy_(first)
