# expect: wrong_answer
# expect-message: was it written?
# Bug: a program whose row is empty returns early "since there is nothing to add", but y is
# not zero to begin with (the judge fills outputs with NaN, as real memory holds garbage): an
# empty row must still store its zeros.
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
    if start == end:
        return  # BUG: store the zeros first
    acc = tl.zeros([BN], dtype=tl.float32)
    for e in range(start, end):
        c = tl.load(col_ptr + e)
        acc += tl.load(val_ptr + e) * tl.load(b_ptr + c * n + cols, mask=live, other=0.0)
    tl.store(y_ptr + i * n + cols, acc, mask=live)


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, n, BN=BN)
