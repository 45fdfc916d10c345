# expect: wrong_answer
# Bug: treats rowptr[i + 1] as the index of the row's last entry instead of one past it, so
# each row stops one entry short (and a row of one entry sums nothing).
import torch
import triton
import triton.language as tl


@triton.jit
def spmv_rows(rowptr_ptr, col_ptr, val_ptr, x_ptr, y_ptr, m, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = rows < m
    start = tl.load(rowptr_ptr + rows, mask=live, other=0)
    last = tl.load(rowptr_ptr + rows + 1, mask=live, other=0)  # BUG: this is one past the end
    length = last - start - 1
    acc = tl.zeros([ROWS], dtype=tl.float32)
    for j in range(0, tl.max(length, axis=0)):
        on = j < length
        c = tl.load(col_ptr + start + j, mask=on, other=0)
        acc += tl.load(val_ptr + start + j, mask=on, other=0.0) * tl.load(x_ptr + c, mask=on, other=0.0)
    tl.store(y_ptr + rows, acc, mask=live)


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    spmv_rows[(triton.cdiv(m, 64),)](rowptr, col, val, x, y, m, ROWS=64)
