"""Embedding bag (mean pooling): seeded tables, indices and bag offsets, the float64 reference,
its error scale and a torch baseline.

Rows of ``weight`` are N(0, 1). Bags are given CSR style: bag b holds the indices
``indices[offsets[b] : offsets[b + 1]]``; every bag length is drawn from ``gen`` by placing
each of the ``nnz`` indices in a bag (a multinomial over per-bag weights), so the lengths
add up to exactly ``nnz`` and an empty bag is possible in every kind. Indices are drawn with
repetition and in no order, so a bag can name one row several times. Kinds:
- ``random``: bags of similar expected length; indices uniform over the table.
- ``empty_bags``: about half the bags empty, the first and the last among them (when there
  are three or more bags): the mean of nothing must be 0, not 0 / 0.
- ``powerlaw``: Pareto bag lengths (alpha 1.2): a few bags thousands of times the mean.
- ``hot``: Zipf-like indices (a few rows named very often, the same row many times in one
  bag), as in recommender traffic.
- ``top_rows``: indices from the last rows of the table only (the last row in every bag):
  catches a bound that stops a row short, and on a table of more than 2^31 elements an
  ``index * dim`` computed in 32 bits.
"""

from __future__ import annotations

import math

import torch

ALPHA = 1.2  # Pareto tail index of the power-law bag weights: a heavy tail, finite mean


def _bag_weights(bags: int, kind: str, gen: torch.Generator, device: torch.device) -> torch.Tensor:
    u = torch.rand(bags, generator=gen, device=device, dtype=torch.float64)
    if kind == "powerlaw":
        return (1.0 - u).clamp_min(1e-12) ** (-1.0 / ALPHA)
    w = 1.0 + 0.5 * u
    if kind == "empty_bags":
        w = torch.where(
            torch.rand(bags, generator=gen, device=device) < 0.5, w, torch.zeros_like(w)
        )
        if bags >= 3:
            w[0] = w[-1] = 0.0
            w[bags // 2] = 1.0  # at least one bag can hold the indices
        elif float(w.sum()) == 0.0:
            w[0] = 1.0
    return w


def _indices(
    num_embeddings: int, nnz: int, kind: str, gen: torch.Generator, device: torch.device
) -> torch.Tensor:
    if kind == "hot":
        # Zipf-like: row r drawn with probability proportional to 1 / (r + 1).
        u = torch.rand(nnz, generator=gen, device=device, dtype=torch.float64)
        rows = torch.floor(torch.exp(u * math.log(num_embeddings + 1.0))) - 1
        idx = rows.to(torch.int64).clamp(0, num_embeddings - 1)
        return (idx * 40503 + 12345) % num_embeddings  # the hot rows spread over the table
    if kind == "top_rows":
        top = max(1, min(num_embeddings, 64))
        return num_embeddings - 1 - torch.randint(top, (nnz,), generator=gen, device=device)
    if kind not in ("random", "empty_bags", "powerlaw"):
        raise ValueError(f"unknown kind {kind!r}")
    return torch.randint(num_embeddings, (nnz,), generator=gen, device=device)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """weight, indices and offsets; every random number comes from ``gen``."""
    num_embeddings, dim = params["num_embeddings"], params["dim"]
    bags, nnz = params["bags"], params["nnz"]
    w = _bag_weights(bags, kind, gen, device)
    bag_of = torch.multinomial(w, nnz, replacement=True, generator=gen)
    lengths = torch.bincount(bag_of, minlength=bags)
    offsets = torch.zeros(bags + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(lengths, 0)
    idx = _indices(num_embeddings, nnz, kind, gen, device)
    if kind == "top_rows":
        # the last row in every non-empty bag, at a random place in it
        starts = offsets[:-1][lengths > 0]
        spots = starts + torch.floor(
            torch.rand(starts.numel(), generator=gen, device=device, dtype=torch.float64)
            * lengths[lengths > 0].to(torch.float64)
        ).to(torch.int64)
        idx[spots] = num_embeddings - 1
    weight = torch.randn(num_embeddings, dim, generator=gen, device=device, dtype=torch.float32)
    return {"weight": weight, "indices": idx.to(torch.int32), "offsets": offsets.to(torch.int32)}


def _pooled(
    inputs: dict[str, torch.Tensor], params: dict[str, int], absolute: bool
) -> torch.Tensor:
    bags, nnz = params["bags"], params["nnz"]
    offsets = inputs["offsets"].to(torch.int64)
    lengths = offsets[1:] - offsets[:-1]
    bag_of = torch.repeat_interleave(
        torch.arange(bags, device=offsets.device), lengths, output_size=nnz
    )
    rows = inputs["weight"][inputs["indices"].long()].to(torch.float64)
    if absolute:
        rows = rows.abs()
    total = torch.zeros(bags, params["dim"], dtype=torch.float64, device=offsets.device)
    total.index_add_(0, bag_of, rows)
    return total / lengths.clamp_min(1).to(torch.float64)[:, None]


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out[b] = the mean of the rows bag b names, in float64; exactly 0 for an empty bag."""
    return {"out": _pooled(inputs, params, absolute=False)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to the mean of |weight| over the bag's rows, per column: what float32
    rounding of the bag's sum scales with (the mean itself can cancel to near 0); 0 for an
    empty bag, whose 0 must then be exact."""
    return {"out": _pooled(inputs, params, absolute=True)}


def baseline(
    weight: torch.Tensor,
    indices: torch.Tensor,
    offsets: torch.Tensor,
    out: torch.Tensor,
    num_embeddings: int,
    dim: int,
    bags: int,
    nnz: int,
) -> None:
    """PyTorch's embedding_bag in mean mode (offsets with the last one included: empty bags
    give 0), copied into ``out``."""
    pooled = torch.nn.functional.embedding_bag(
        indices, weight, offsets, mode="mean", include_last_offset=True
    )
    out.copy_(pooled)
