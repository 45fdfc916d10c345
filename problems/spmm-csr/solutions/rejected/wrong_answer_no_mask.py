# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the store has no column mask. The columns are taken in blocks of BN, so unless BN
# divides n, each row's last block stores past the end of its row of y (into the next row),
# and the last row's past the end of y. The fix: mask=cols < n.
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
    tl.store(y_ptr + i * n + cols, acc)  # BUG: mask=live


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, n, BN=BN)
