# expect: wrong_answer
# Bug: sums each row's products into y with index_add_, which adds to what y holds, without
# zeroing y first. y is not zero to begin with (the judge fills outputs with NaN, as real
# memory holds garbage): it needed y.zero_() before the index_add_.
import torch


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    rows = torch.arange(m, device=y.device).repeat_interleave(rowptr.diff())
    y.index_add_(0, rows, val * x[col])
