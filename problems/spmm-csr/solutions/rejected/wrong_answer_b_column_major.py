# expect: wrong_answer
# Bug: b read as if it were stored column by column, element (c, j) at j * k + c, "as in
# Fortran, like the textbook's BLAS": b is row-major, (c, j) at c * n + j.
import torch
import triton
import triton.language as tl


@triton.jit
def spmm_row(rowptr_ptr, col_ptr, val_ptr, b_ptr, y_ptr, k, n, BN: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    live = cols < n
    start = tl.load(rowptr_ptr + i)
    end = tl.load(rowptr_ptr + i + 1)
    acc = tl.zeros([BN], dtype=tl.float32)
    for e in range(start, end):
        c = tl.load(col_ptr + e)
        acc += tl.load(val_ptr + e) * tl.load(b_ptr + cols * k + c, mask=live, other=0.0)  # BUG: c * n + cols
    tl.store(y_ptr + i * n + cols, acc, mask=live)


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, k, n, BN=BN)
