# expect: wrong_answer
# Bug: the nearest centroid by the sum of absolute differences (L1, cdist's p=1) instead of the
# squared Euclidean distance: the two agree on many points, not on all.
import torch


def solve(points, centroids, labels, n: int, k: int, d: int):
    for s in range(0, n, 4096):
        dist = torch.cdist(points[s : s + 4096], centroids, p=1.0)
        labels[s : s + 4096] = dist.argmin(dim=1).to(torch.int32)
