"""SpMM on the framework track: a CSR tensor over the given buffers (no copy, no check) times
b, written into y: cuSPARSE on a GPU."""

import torch


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    a = torch.sparse_csr_tensor(rowptr, col, val, size=(m, k), check_invariants=False)
    torch.mm(a, b, out=y)
