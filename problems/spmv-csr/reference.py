"""Sparse matrix times vector in CSR form: seeded matrices with power-law row lengths, the
float64 reference, the error scale and a torch (cuSPARSE) baseline.

Every matrix has exactly ``nnz`` entries, at most ``n`` per row, with distinct column
indices sorted within each row. Row lengths are drawn per kind, from ``gen``:
- ``powerlaw``: Pareto weights (alpha = 1.2): most rows short, a few thousands of times
  longer than the mean (the load-balance problem of web graphs and social networks).
- ``uniform``: every row close to the mean length.
- ``empty_rows``: power-law, but about half the rows (the first and the last included, when
  there are three or more rows) have no entry at all.
- ``one_dense_row``: one row holds half the entries (up to n); the rest are power-law.
Values and x are N(0, 1).
"""

from __future__ import annotations

import torch

ALPHA = 1.2  # Pareto tail index of the row weights: a heavy tail, finite mean


def _weights(
    m: int, n: int, nnz: int, kind: str, gen: torch.Generator, device: torch.device
) -> torch.Tensor:
    u = torch.rand(m, generator=gen, device=device, dtype=torch.float64)
    if kind == "uniform":
        return 1.0 + 0.1 * u
    w = (1.0 - u).clamp_min(1e-12) ** (-1.0 / ALPHA)
    if kind == "empty_rows":
        # About half the rows stay empty, but never so many that the others (n entries at
        # most each) cannot hold nnz: then the rows with the smallest draws are kept too.
        draw = torch.rand(m, generator=gen, device=device)
        needed = -(-nnz // n)
        if m - 2 >= needed:
            draw[0] = draw[-1] = 2.0  # the first and last rows are empty
        cut = max(0.5, float(torch.kthvalue(draw, needed).values))
        w = torch.where(draw <= cut, w, torch.zeros_like(w))
    elif kind == "one_dense_row":
        pass  # the dense row is placed in _row_lengths
    elif kind != "powerlaw":
        raise ValueError(f"unknown kind {kind!r}")
    return w


def _row_lengths(
    m: int, n: int, nnz: int, w: torch.Tensor, kind: str, gen: torch.Generator
) -> torch.Tensor:
    """Row lengths (int64) proportional to w, at most n each, summing to exactly nnz."""
    device = w.device
    dense = -1
    if kind == "one_dense_row":
        dense = int(torch.randint(m, (1,), generator=gen, device=device))
        w = w.clone()
        w[dense] = 0.0
    lengths = torch.zeros(m, dtype=torch.int64, device=device)
    budget = nnz
    if dense >= 0:
        lengths[dense] = min(n, nnz // 2)
        budget -= int(lengths[dense])
    if float(w.sum()) > 0:
        lengths += torch.floor(budget * w / w.sum()).to(torch.int64)
    lengths = lengths.clamp_max(n)
    allowed = w > 0
    if dense >= 0:
        allowed[dense] = True
    order = torch.randperm(m, generator=gen, device=device)
    # Floor rounding leaves fewer than m entries over: one more for the first rows of a random
    # order that have room. Clipping at n can leave more: fill rows to n in that order.
    for one_each in (True, False):
        left = nnz - int(lengths.sum())
        if left == 0:
            break
        room = torch.where(allowed, n - lengths, torch.zeros_like(lengths))[order]
        if one_each:
            step = (room > 0).to(torch.int64)
            take = step * (torch.cumsum(step, 0) <= left)
        else:
            before = torch.cumsum(room, 0) - room
            take = (left - before).clamp_min(0).minimum(room)
        lengths[order] += take
    if int(lengths.sum()) != nnz:
        raise ValueError(f"cannot place nnz = {nnz} entries in {m} rows of at most n = {n}")
    return lengths


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """rowptr, col, val (CSR) and x; every random number comes from ``gen``."""
    m, n, nnz = params["m"], params["n"], params["nnz"]
    if nnz > m * n:
        raise ValueError(f"nnz = {nnz} entries do not fit in an {m} x {n} matrix")
    lengths = _row_lengths(m, n, nnz, _weights(m, n, nnz, kind, gen, device), kind, gen)
    rowptr = torch.zeros(m + 1, dtype=torch.int64, device=device)
    rowptr[1:] = torch.cumsum(lengths, 0)
    row = torch.repeat_interleave(torch.arange(m, device=device), lengths, output_size=nnz)
    # Distinct sorted columns per row: gaps of 1 .. 1 + (n - L) // L between them add up to at
    # most n, and the row's run starts at a random offset that keeps it below n.
    spread = ((n - lengths) // lengths.clamp_min(1))[row]
    u = torch.rand(nnz, generator=gen, device=device, dtype=torch.float64)
    gaps = 1 + torch.floor(u * (spread + 1).to(torch.float64)).to(torch.int64)
    run = torch.cumsum(gaps, 0)
    local = run - (run - gaps)[rowptr[:-1].clamp_max(max(nnz - 1, 0))][row]
    total = torch.zeros(m, dtype=torch.int64, device=device).index_add_(0, row, gaps)
    start = torch.floor(
        torch.rand(m, generator=gen, device=device, dtype=torch.float64)
        * (n - total + 1).to(torch.float64)
    ).to(torch.int64)
    col = start[row] + local - 1
    val = torch.randn(nnz, generator=gen, device=device, dtype=torch.float32)
    x = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
    return {
        "rowptr": rowptr.to(torch.int32),
        "col": col.to(torch.int32),
        "val": val,
        "x": x,
    }


def _spmv(inputs: dict[str, torch.Tensor], params: dict[str, int], absolute: bool) -> torch.Tensor:
    m, nnz = params["m"], params["nnz"]
    rowptr = inputs["rowptr"].to(torch.int64)
    lengths = rowptr[1:] - rowptr[:-1]
    row = torch.repeat_interleave(torch.arange(m, device=rowptr.device), lengths, output_size=nnz)
    prod = inputs["val"].to(torch.float64) * inputs["x"].to(torch.float64)[inputs["col"].long()]
    if absolute:
        prod = prod.abs()
    return torch.zeros(m, dtype=torch.float64, device=rowptr.device).index_add_(0, row, prod)


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = A x in float64 (an empty row gives exactly 0)."""
    return {"y": _spmv(inputs, params, absolute=False)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum_k |a_ik x_k| per row, what float32 rounding of the row's sum
    scales with; 0 for an empty row, whose 0 must then be exact."""
    return {"y": _spmv(inputs, params, absolute=True)}


def baseline(
    rowptr: torch.Tensor,
    col: torch.Tensor,
    val: torch.Tensor,
    x: torch.Tensor,
    y: torch.Tensor,
    m: int,
    n: int,
    nnz: int,
) -> None:
    """cuSPARSE's SpMV through torch's CSR tensor (a view of the buffers, no copy or check),
    writing straight into ``y``."""
    a = torch.sparse_csr_tensor(rowptr, col, val, size=(m, n), check_invariants=False)
    torch.mv(a, x, out=y)
