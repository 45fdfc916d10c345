"""SpMV, the straightforward way: one program per ROWS consecutive rows, one lane per row.
The lanes walk their rows together, entry j of every row at step j, until the longest row of
the group is done; a lane whose row is shorter is masked off. An empty row sums nothing and
stores 0. Correct for any matrix, but a group that holds one long row takes as many steps as
that row has entries while its other lanes idle, and the loads of one step are scattered
over ROWS rows: this is what a load-balanced kernel fixes."""

import torch
import triton
import triton.language as tl


@triton.jit
def spmv_rows(rowptr_ptr, col_ptr, val_ptr, x_ptr, y_ptr, m, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = rows < m
    start = tl.load(rowptr_ptr + rows, mask=live, other=0)
    end = tl.load(rowptr_ptr + rows + 1, mask=live, other=0)
    length = end - start
    acc = tl.zeros([ROWS], dtype=tl.float32)
    for j in range(0, tl.max(length, axis=0)):
        on = j < length
        c = tl.load(col_ptr + start + j, mask=on, other=0)
        v = tl.load(val_ptr + start + j, mask=on, other=0.0)
        acc += v * tl.load(x_ptr + c, mask=on, other=0.0)
    tl.store(y_ptr + rows, acc, mask=live)


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    ROWS = 64
    spmv_rows[(triton.cdiv(m, ROWS),)](rowptr, col, val, x, y, m, ROWS=ROWS)
