"""SpMV balanced by entries; each entry finds its row by a short binary search of rowptr.

Program c takes entries [c·B, (c + 1)·B) whatever rows they belong to, so a row of 490,000
entries is spread over hundreds of programs and every program does the same work:

1. ``zero_fill`` zeroes y (empty rows stay 0; rows split between programs are added into).
2. ``group_rows`` reads rowptr once, one lane per row, and writes first[g], the row holding
   entry g·G, for every group start inside the row (empty rows hold none; a long row loops
   over its many starts J at a time).
3. ``spmv_chunks``: an entry's row lies between first[g] and first[g + 1] of its group g,
   usually one to three rows apart, so a binary search of rowptr between them takes a step or
   two (none inside a long row), and reads rowptr from L1. The loads of col and val and the
   gathers of x are issued first, to be in flight during the search. With every entry's row
   known, a segmented scan of the products (a running sum that restarts where a row starts)
   leaves each row's sum on its last entry in the chunk. A row that starts and ends inside the
   chunk is stored; the rows cut by the chunk's edges are added with an atomic.
"""

import torch
import triton
import triton.language as tl

B = 2048  # entries per program
G = 32  # entries per group: the row of each group's first entry is looked up, not searched


@triton.jit
def zero_fill(y_ptr, m, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < m)


@triton.jit
def group_rows(rowptr_ptr, first_ptr, m, G: tl.constexpr, ROWS: tl.constexpr, J: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = rows < m
    begin = tl.load(rowptr_ptr + rows, mask=live, other=0)
    end = tl.load(rowptr_ptr + rows + 1, mask=live, other=0)
    g0 = (begin + G - 1) // G  # group starts g·G inside [begin, end): g in [g0, g0 + count)
    count = (end + G - 1) // G - g0
    for j0 in range(0, tl.max(count, axis=0), J):
        j = j0 + tl.arange(0, J)
        mask = j[None, :] < count[:, None]
        tl.store(
            first_ptr + g0[:, None] + j[None, :],
            tl.broadcast_to(rows[:, None], [ROWS, J]),
            mask=mask,
        )


@triton.jit
def last_row_at_most(rowptr_ptr, target, a, b):
    """Per lane, the last row r in [a, b] with rowptr[r] <= target (rowptr[a] <= target)."""
    while tl.max(b - a, axis=0) > 0:
        mid = (a + b + 1) // 2
        # A lane already done (a == b) loads nothing and keeps its row.
        below = tl.load(rowptr_ptr + mid, mask=a < b, other=0) <= target
        a = tl.where(below, mid, a)
        b = tl.where(below, b, mid - 1)
    return a


@triton.jit
def _restart_add(v1, f1, v2, f2):
    # Segmented sum: a start flag on the right operand discards what came before it.
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def spmv_chunks(
    rowptr_ptr,
    col_ptr,
    val_ptr,
    x_ptr,
    y_ptr,
    first_ptr,
    m,
    nnz,
    groups,
    B: tl.constexpr,
    G: tl.constexpr,
):
    base = tl.program_id(0) * B
    group = base // G + tl.arange(0, B // G)
    idx = tl.reshape((group * G)[:, None] + tl.arange(0, G)[None, :], [B])
    live = idx < nnz
    # The entries and the gathers of x first: they are in flight during the search.
    cols = tl.load(col_ptr + idx, mask=live, other=0, eviction_policy="evict_first")
    vals = tl.load(val_ptr + idx, mask=live, other=0.0, eviction_policy="evict_first")
    prod = vals * tl.load(x_ptr + cols, mask=live, other=0.0)
    # An entry's row lies between the rows of its group's first entry and the next group's
    # (entries past nnz act as the last entry).
    g = tl.minimum(group, groups - 1)
    lo = tl.load(first_ptr + g)
    hi = tl.load(first_ptr + g + 1, mask=g + 1 < groups, other=m - 1)
    a = tl.reshape(tl.broadcast_to(lo[:, None], [B // G, G]), [B])
    b = tl.reshape(tl.broadcast_to(hi[:, None], [B // G, G]), [B])
    row = last_row_at_most(rowptr_ptr, tl.minimum(idx, nnz - 1), a, b)

    row_start = tl.load(rowptr_ptr + row)
    row_end = tl.load(rowptr_ptr + row + 1)
    begin = ((row_start == idx) | (idx == base)).to(tl.int32)
    total, _ = tl.associative_scan((prod, begin), 0, _restart_add)

    true_end = row_end == idx + 1
    last = live & (true_end | (idx == base + B - 1) | (idx == nnz - 1))
    whole = true_end & (row_start >= base)  # the row lies inside this chunk: no one else adds to it
    tl.store(y_ptr + row, total, mask=last & whole)
    tl.atomic_add(y_ptr + row, total, mask=last & ~whole, sem="relaxed")


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    groups = triton.cdiv(nnz, G)
    first = torch.empty(groups, dtype=torch.int32, device=y.device)
    zero_fill[(triton.cdiv(m, 1024),)](y, m, BLOCK=1024)
    group_rows[(triton.cdiv(m, 128),)](rowptr, first, m, G=G, ROWS=128, J=64, num_warps=8)
    spmv_chunks[(triton.cdiv(nnz, B),)](
        rowptr, col, val, x, y, first, m, nnz, groups, B=B, G=G, num_warps=8
    )
