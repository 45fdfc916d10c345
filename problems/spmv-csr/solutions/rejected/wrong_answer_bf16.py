# expect: wrong_answer
# expect-message: out of tolerance
# Bug: keeps each row's running sum in bfloat16 (8 significant bits): every addition rounds
# the sum by up to 2^-9 of itself, far past the 1e-5 of sum |a_ik x_k| a float32 sum meets.
import torch
import triton
import triton.language as tl


@triton.jit
def spmv_rows(rowptr_ptr, col_ptr, val_ptr, x_ptr, y_ptr, m, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = rows < m
    start = tl.load(rowptr_ptr + rows, mask=live, other=0)
    length = tl.load(rowptr_ptr + rows + 1, mask=live, other=0) - start
    acc = tl.zeros([ROWS], dtype=tl.bfloat16)  # BUG: tl.float32
    for j in range(0, tl.max(length, axis=0)):
        on = j < length
        c = tl.load(col_ptr + start + j, mask=on, other=0)
        prod = tl.load(val_ptr + start + j, mask=on, other=0.0) * tl.load(x_ptr + c, mask=on, other=0.0)
        acc = (acc.to(tl.float32) + prod).to(tl.bfloat16)
    tl.store(y_ptr + rows, acc.to(tl.float32), mask=live)


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    spmv_rows[(triton.cdiv(m, 64),)](rowptr, col, val, x, y, m, ROWS=64)
