# expect: wrong_answer
# Bug: the accumulator is float16 ("b is only needed to 3 digits"): every addition rounds to
# 11 significant bits, 2^-11 of the running sum, 50 times the 1e-5 asked.
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
    acc = tl.zeros([BN], dtype=tl.float16)  # BUG: tl.float32
    for e in range(start, end):
        c = tl.load(col_ptr + e)
        acc = (acc + tl.load(val_ptr + e) * tl.load(b_ptr + c * n + cols, mask=live, other=0.0)).to(tl.float16)
    tl.store(y_ptr + i * n + cols, acc, mask=live)


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, n, BN=BN)
