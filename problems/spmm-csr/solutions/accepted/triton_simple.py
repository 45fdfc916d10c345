"""SpMM, the straightforward way: one program per row of A and block of BN columns of b.

The program walks its row's entries rowptr[i] .. rowptr[i + 1] - 1; for entry e it loads
val[e] and the BN-wide piece of row col[e] of b (contiguous: coalesced), and adds their
product into a float32 accumulator, which it stores into y's row i. An empty row walks
nothing and stores zeros. Correct for any matrix, but a program that gets one long row works
through it alone while the others are done, and the entries are walked one at a time.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def spmm_row(rowptr_ptr, col_ptr, val_ptr, b_ptr, y_ptr, n, BN: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    live = cols < n
    start = tl.load(rowptr_ptr + i)
    end = tl.load(rowptr_ptr + i + 1)
    acc = tl.zeros([BN], dtype=tl.float32)
    for e in range(start, end):
        c = tl.load(col_ptr + e)
        acc += tl.load(val_ptr + e) * tl.load(b_ptr + c * n + cols, mask=live, other=0.0)
    tl.store(y_ptr + i * n + cols, acc, mask=live)


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, n, BN=BN)
