# expect: wrong_answer
# Bug: each entry's row found with torch.searchsorted(rowptr, e) - 1, the default (left)
# search: for the first entry of a row, rowptr[i] == e, it returns i, and the entry is given
# to row i - 1 (the first entry of row 0 goes to row -1, the last row). It needs right=True:
# the last i with rowptr[i] <= e.
import torch


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    e = torch.arange(nnz, device=val.device, dtype=rowptr.dtype)
    row = torch.searchsorted(rowptr, e) - 1  # BUG: right=True
    y.zero_()
    y.index_add_(0, row.long() % m, val[:, None] * b[col.long()])
