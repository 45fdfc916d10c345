# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the row mask is on every load but not on the store. The last program's lanes past row
# m - 1 load nothing (their rows look empty), sum 0 and write it past the end of y. Right only
# when m is a multiple of ROWS. The fix: mask=live on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def spmv_rows(rowptr_ptr, col_ptr, val_ptr, x_ptr, y_ptr, m, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = rows < m
    start = tl.load(rowptr_ptr + rows, mask=live, other=0)
    length = tl.load(rowptr_ptr + rows + 1, mask=live, other=0) - start
    acc = tl.zeros([ROWS], dtype=tl.float32)
    for j in range(0, tl.max(length, axis=0)):
        on = j < length
        c = tl.load(col_ptr + start + j, mask=on, other=0)
        acc += tl.load(val_ptr + start + j, mask=on, other=0.0) * tl.load(x_ptr + c, mask=on, other=0.0)
    tl.store(y_ptr + rows, acc)  # BUG: no mask=live


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    spmv_rows[(triton.cdiv(m, 64),)](rowptr, col, val, x, y, m, ROWS=64)
