"""SpMM balanced by entries, not rows: every program gets the same E entries of A (and a block
of BN columns of b), whatever rows they belong to.

Row lengths range from empty to tens of thousands, so a program per row leaves most of the GPU
waiting for the few long ones. Here:

1. ``zero_fill`` zeroes y: empty rows stay 0, and rows split between programs are added into.
2. ``spmm_chunks``: program c takes entries [c·E, (c + 1)·E). Each lane finds its entry's row
   by a binary search of rowptr (the last row i with rowptr[i] <= e, which skips empty rows),
   and the program gathers the E rows col[e] of b it needs (BN contiguous columns each) and
   scales them by val[e]: an E x BN block of products. Its prefix sum down the entries
   (``tl.cumsum``, in float64) gives each row's part as the difference of two prefixes, the
   one before the row's first entry fetched with ``tl.gather``. (In float32 that difference
   would lose a short row that follows large ones.) A row that lies wholly inside the chunk is
   stored from its last entry; the chunk's first and last rows may continue next door and are
   added with atomics: a row of 2^22 entries costs 2^22 / E atomic adds per column.
"""

import torch
import triton
import triton.language as tl

E = 32  # entries per program


@triton.jit
def zero_fill(y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < total)


@triton.jit
def spmm_chunks(rowptr_ptr, col_ptr, val_ptr, b_ptr, y_ptr, m, n, nnz, E: tl.constexpr, BN: tl.constexpr):
    base = tl.program_id(0) * E
    lanes = tl.arange(0, E)
    e = base + lanes
    live = e < nnz
    er = tl.minimum(e, nnz - 1)  # lanes past nnz act as the last entry (and add nothing)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    live_cols = cols < n
    # the last row i with rowptr[i] <= e, per lane
    lo = tl.zeros([E], dtype=tl.int32)
    hi = tl.zeros([E], dtype=tl.int32) + (m - 1)
    while tl.max(hi - lo, axis=0) > 0:
        mid = (lo + hi + 1) // 2
        below = tl.load(rowptr_ptr + mid) <= er
        lo = tl.where(below, mid, lo)
        hi = tl.where(below, hi, mid - 1)
    row = lo
    c = tl.load(col_ptr + er)
    v = tl.load(val_ptr + er, mask=live, other=0.0)
    brow = tl.load(b_ptr + c[:, None] * n + cols[None, :], mask=live_cols[None, :], other=0.0)
    prod = (v[:, None] * brow).to(tl.float64)
    prefix = tl.cumsum(prod, axis=0)
    row_start = tl.load(rowptr_ptr + row)
    row_end = tl.load(rowptr_ptr + row + 1)
    first = tl.maximum(row_start, base) - base  # the lane of the row's first entry here
    before = tl.gather(prefix - prod, first[:, None] + tl.zeros([E, BN], dtype=tl.int32), 0)
    total = (prefix - before).to(tl.float32)

    ends = row_end == e + 1
    last = live & (ends | (lanes == E - 1))
    whole = ends & (row_start >= base)  # the row lies inside this chunk: no one else adds to it
    at = y_ptr + row[:, None] * n + cols[None, :]
    tl.store(at, total, mask=(last & whole)[:, None] & live_cols[None, :])
    tl.atomic_add(at, total, mask=(last & ~whole)[:, None] & live_cols[None, :], sem="relaxed")


def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 64 if n > 32 else 32
    zero_fill[(triton.cdiv(m * n, 1024),)](y, m * n, BLOCK=1024)
    spmm_chunks[(triton.cdiv(nnz, E), triton.cdiv(n, BN))](rowptr, col, val, b, y, m, n, nnz, E=E, BN=BN, num_warps=4)
