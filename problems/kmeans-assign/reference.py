"""K-means assignment: seeded points and centroids on a grid where every squared distance is
exact in float32, the exact reference (ties to the lowest index) and a torch baseline.

Every coordinate is a multiple of 1/8 in [-4, 4] (kinds ``ties`` and ``last``: an integer in
[-1, 1]). A difference is then a multiple of 1/8 of at most 8, its square a multiple of 1/64
of at most 64, and a squared distance over d <= 1024 dimensions a multiple of 1/64 below
2^16: 22 significant bits, so every partial sum, in any order, is exact in float32 (24 bits).
The same holds for the expansion |c|^2 - 2 x.c (+ |x|^2): its terms are multiples of 1/64 below
2^18 in magnitude. Inputs have at most 6 significant bits, so TF32, bfloat16 and float16
operands hold them exactly too. Two distances a kernel computes in float32 are therefore equal
exactly when the true distances are, and differ by at least 1/64 otherwise: the nearest
centroid is a matter of arithmetic, never of rounding, and a tie is a real tie that the rule
(lowest index) settles.

Kinds:
- ``clusters``: centroids uniform on the grid; each point a random centroid plus a small
  offset (up to 1/2 per coordinate), as k-means data looks after a few iterations.
- ``uniform``: points and centroids uniform on the grid (small d: many exact ties).
- ``ties``: integer coordinates in {-1, 0, 1}, with every centroid repeated later in the list
  (k > 1): most points are equally near several centroids, identical or not.
- ``last``: every other point sits on the last centroid, which no other centroid equals: a
  loop or grid that stops one centroid short gets those points wrong.
- ``offset``: points and centroids within 1/2 per coordinate of one point far from the
  origin (+-3.5 in every coordinate): distances are small, but the expanded form's terms
  |c|^2 and 2 x.c are about 12 d and cancel, so its scores differ by 1/64 at a size where
  float16 steps by 1/2 (exact in float32: the form itself is sound, its precision is not
  optional).
- ``far``: centroids in [-1/2, 1/2], points near the corners (+-4 in every coordinate): every
  distance is about 16 d and the nearest few differ by fractions of 1, exact in float32 but
  not in float16 (spacing 1/2 at 1024) or bfloat16 (4 at 1024): outliers, as real data has.
"""

from __future__ import annotations

import torch

STEPS = 8  # coordinates are multiples of 1 / STEPS
RANGE = 4  # ... in [-RANGE, RANGE]


def _grid(
    shape: tuple[int, ...], gen: torch.Generator, device: torch.device, span: int
) -> torch.Tensor:
    """Multiples of 1/8 in [-span / 8, span / 8], uniform."""
    return (
        torch.randint(-span, span + 1, shape, generator=gen, device=device).to(torch.float32)
        / STEPS
    )


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """points [n, d] and centroids [k, d]; every random number comes from ``gen``."""
    n, k, d = params["n"], params["k"], params["d"]
    full = RANGE * STEPS
    if kind in ("clusters", "uniform"):
        centroids = _grid((k, d), gen, device, full)
        if kind == "uniform":
            points = _grid((n, d), gen, device, full)
        else:
            home = torch.randint(k, (n,), generator=gen, device=device)
            points = (centroids[home] + _grid((n, d), gen, device, STEPS // 2)).clamp(-RANGE, RANGE)
    elif kind == "offset":
        base = (
            torch.randint(0, 2, (d,), generator=gen, device=device).to(torch.float32) * 2 - 1
        ) * 3.5
        centroids = base + _grid((k, d), gen, device, STEPS // 2)
        points = base + _grid((n, d), gen, device, STEPS // 2)
    elif kind == "far":
        centroids = _grid((k, d), gen, device, STEPS // 2)
        signs = torch.randint(0, 2, (n, d), generator=gen, device=device).to(torch.float32) * 2 - 1
        points = signs * (
            RANGE - torch.randint(0, STEPS // 2 + 1, (n, d), generator=gen, device=device) / STEPS
        )
    elif kind in ("ties", "last"):

        def ints(shape: tuple[int, ...]) -> torch.Tensor:
            return torch.randint(-1, 2, shape, generator=gen, device=device).to(torch.float32)

        centroids = ints((k, d))
        points = ints((n, d))
        if kind == "ties" and k > 1:
            # the second half of the list repeats centroids of the first half, in a random order
            half = (k + 1) // 2
            pick = torch.randint(half, (k - half,), generator=gen, device=device)
            centroids[half:] = centroids[pick]
        elif kind == "last":
            # the last centroid off the integer grid (its coordinates are +-1/2), so no other
            # centroid equals it; every other point sits on it
            signs = torch.randint(0, 2, (d,), generator=gen, device=device).to(torch.float32)
            centroids[k - 1] = signs - 0.5
            points[::2] = centroids[k - 1]
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"points": points.contiguous(), "centroids": centroids.contiguous()}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """labels[i] = the smallest j whose squared distance to point i is least. Distances are
    |x|^2 - 2 x.c + |c|^2 in float64, a block of points at a time: on these inputs every term
    is a multiple of 1/64 below 2^20, so float64 computes each distance exactly, in any order
    (a matrix product on the GPU included), and equal distances compare equal."""
    points = inputs["points"].to(torch.float64)
    centroids = inputs["centroids"].to(torch.float64)
    k = params["k"]
    cn = (centroids * centroids).sum(dim=1)
    js = torch.arange(k, device=points.device)
    labels = torch.empty(points.shape[0], dtype=torch.int64, device=points.device)
    block = max(1, (1 << 26) // k)  # bounds the [block, k] distances at 512 MiB
    for s in range(0, points.shape[0], block):
        x = points[s : s + block]
        dist = (x * x).sum(dim=1, keepdim=True) - 2.0 * (x @ centroids.T) + cn[None, :]
        least = dist.min(dim=1, keepdim=True).values
        labels[s : s + block] = torch.where(dist == least, js, k).min(dim=1).values
    return {"labels": labels}


def baseline(
    points: torch.Tensor, centroids: torch.Tensor, labels: torch.Tensor, n: int, k: int, d: int
) -> None:
    """The GEMM form in torch: argmin over j of |c_j|^2 - 2 x.c_j (|x|^2 is the same for every
    centroid of a point), a matrix product per chunk of points, narrowed into ``labels``.

    Chunked as solutions/accepted/pytorch_simple.py is, 2^24 // k points at a time (64 MiB of
    scores): all n at once is an n x k score matrix of 4 GiB on the benchmark, more than a
    submission may allocate (Problem.gpu_budget_mb, about 2 GiB here), and the baseline should
    be something a submission could run. Its time includes the chunk loop (64 chunks on the
    benchmark: 64 addmm and 64 argmin launches)."""
    norms = (centroids * centroids).sum(dim=1)
    chunk = (1 << 24) // k
    for s in range(0, n, chunk):
        scores = torch.addmm(norms, points[s : s + chunk], centroids.T, alpha=-2.0)
        labels[s : s + chunk] = torch.argmin(scores, dim=1)
