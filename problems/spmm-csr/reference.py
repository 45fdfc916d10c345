"""Sparse (CSR) matrix times a dense matrix: seeded matrices, the float64 reference, the
error scale and a torch (cuSPARSE) baseline.

A is m x k with exactly ``nnz`` entries, drawn exactly as spmv-csr's matrices (this problem's
prerequisite, in the same problems folder): row lengths by kind, distinct sorted columns
within each row, values N(0, 1). Kinds (spmv-csr's reference.py says more):
- ``powerlaw`` (also ``random``, the default kind): Pareto row lengths, most rows short, a few thousands of times the mean.
- ``uniform``: every row close to the mean length.
- ``empty_rows``: about half the rows empty, the first and the last among them.
- ``one_dense_row``: one row holds half the entries (up to k).
B is k x n, N(0, 1), row-major.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import torch

_SPMV = Path(__file__).resolve().parent.parent / "spmv-csr" / "reference.py"


def _spmv_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("spmv_csr_reference", _SPMV)
    if spec is None or spec.loader is None:
        raise ValueError(f"spmm-csr draws its matrices as spmv-csr does, and needs {_SPMV}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """rowptr, col, val (CSR, m x k) and b (k x n); every random number comes from ``gen``."""
    m, k, n, nnz = params["m"], params["k"], params["n"], params["nnz"]
    kind = "powerlaw" if kind == "random" else kind
    a = _spmv_reference().generate({"m": m, "n": k, "nnz": nnz}, kind, gen, device)
    b = torch.randn(k, n, generator=gen, device=device, dtype=torch.float32)
    return {"rowptr": a["rowptr"], "col": a["col"], "val": a["val"], "b": b}


_CHUNK = 1 << 24  # products held at once: entries per chunk times n


def _spmm(inputs: dict[str, torch.Tensor], params: dict[str, int], absolute: bool) -> torch.Tensor:
    m, n, nnz = params["m"], params["n"], params["nnz"]
    rowptr = inputs["rowptr"].to(torch.int64)
    row = torch.repeat_interleave(
        torch.arange(m, device=rowptr.device), rowptr[1:] - rowptr[:-1], output_size=nnz
    )
    col = inputs["col"].to(torch.int64)
    val = inputs["val"].to(torch.float64)
    b = inputs["b"].to(torch.float64)
    if absolute:
        val, b = val.abs(), b.abs()
    y = torch.zeros(m, n, dtype=torch.float64, device=rowptr.device)
    step = max(1, _CHUNK // max(n, 1))
    for e in range(0, nnz, step):
        s = slice(e, min(e + step, nnz))
        y.index_add_(0, row[s], val[s, None] * b[col[s]])
    return y


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = A b in float64 (an empty row of A gives a row of exact zeros)."""
    return {"y": _spmm(inputs, params, absolute=False)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to (|A| |b|)[i, j] = sum_e |a_ie b_ej|, what float32 rounding of the
    sum scales with; 0 for an empty row, whose zeros must then be exact."""
    return {"y": _spmm(inputs, params, absolute=True)}


def baseline(
    rowptr: torch.Tensor,
    col: torch.Tensor,
    val: torch.Tensor,
    b: torch.Tensor,
    y: torch.Tensor,
    m: int,
    k: int,
    n: int,
    nnz: int,
) -> None:
    """cuSPARSE's SpMM through torch's CSR tensor (a view of the buffers, no copy or check),
    written into ``y``."""
    a = torch.sparse_csr_tensor(rowptr, col, val, size=(m, k), check_invariants=False)
    torch.mm(a, b, out=y)
