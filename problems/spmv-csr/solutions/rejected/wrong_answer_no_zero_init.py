# expect: wrong_answer
# expect-message: before each call
# Bug: the entry-balanced kernel of the editorial without its first step, zeroing y. Rows that
# lie inside one chunk are stored and come out right; an empty row is never written and keeps
# the NaN the judge filled y with, and a row split between chunks adds its parts to NaN.
import torch
import triton
import triton.language as tl

B = 1024  # entries per program
T = 128  # row starts examined per step


@triton.jit
def zero_fill(y_ptr, m, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < m)


@triton.jit
def chunk_rows(rowptr_ptr, first_ptr, m, chunks, steps, B: tl.constexpr, LANES: tl.constexpr):
    c = tl.program_id(0) * LANES + tl.arange(0, LANES)
    target = c * B
    lo = tl.zeros([LANES], dtype=tl.int32)
    hi = tl.zeros([LANES], dtype=tl.int32) + (m - 1)
    for _ in range(0, steps):  # the last row r with rowptr[r] <= target
        mid = (lo + hi + 1) // 2
        below = tl.load(rowptr_ptr + mid) <= target
        lo = tl.where(below, mid, lo)
        hi = tl.where(below, hi, mid - 1)
    tl.store(first_ptr + c, tl.where(c == chunks, m, lo), mask=c <= chunks)


@triton.jit
def _restart_add(v1, f1, v2, f2):
    # Segmented sum: a start flag on the right operand discards what came before it.
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def spmv_chunks(rowptr_ptr, col_ptr, val_ptr, x_ptr, y_ptr, first_ptr, nnz, B: tl.constexpr, T: tl.constexpr):
    base = tl.program_id(0) * B
    pos = tl.arange(0, B)
    idx = base + pos
    live = idx < nnz
    r_c = tl.load(first_ptr + tl.program_id(0))
    r_next = tl.load(first_ptr + tl.program_id(0) + 1)
    # Row starts (and ends) inside the chunk, as counts per offset. Two bins per offset: an
    # offset that does not count goes to bin >= B, which the reshape below drops.
    starts = tl.zeros([2 * B], dtype=tl.int32)
    ends = tl.zeros([2 * B], dtype=tl.int32)
    for r0 in range(r_c + 1, r_next + 1, T):
        rr = r0 + tl.arange(0, T)
        ok = rr <= r_next
        rp = tl.load(rowptr_ptr + rr, mask=ok, other=0) - base  # in [1, B] when ok
        starts += tl.histogram(tl.where(ok & (rp < B), rp, B), 2 * B)
        ends += tl.histogram(tl.where(ok, rp - 1, B), 2 * B)  # the row before ends at rp - 1
    half = tl.arange(0, 2)[:, None] == 0
    starts = tl.sum(tl.where(half, tl.reshape(starts, [2, B]), 0), axis=0)
    ends = tl.sum(tl.where(half, tl.reshape(ends, [2, B]), 0), axis=0)
    row = r_c + tl.cumsum(starts, axis=0)
    begin = ((starts > 0) | (pos == 0)).to(tl.int32)

    c = tl.load(col_ptr + idx, mask=live, other=0)
    v = tl.load(val_ptr + idx, mask=live, other=0.0)
    prod = v * tl.load(x_ptr + c, mask=live, other=0.0)
    total, _ = tl.associative_scan((prod, begin), 0, _restart_add)

    true_end = ends > 0
    last = live & (true_end | (pos == B - 1) | (idx == nnz - 1))
    # The chunk's first row starts here if rowptr[r_c] == base (loaded as a vector: one address).
    first_start = tl.load(rowptr_ptr + r_c + pos * 0)
    whole = true_end & ((row > r_c) | (first_start == base))
    tl.store(y_ptr + row, total, mask=last & whole)
    tl.atomic_add(y_ptr + row, total, mask=last & ~whole)


def solve(rowptr, col, val, x, y, m: int, n: int, nnz: int):
    chunks = triton.cdiv(nnz, B)
    first = torch.empty(chunks + 1, dtype=torch.int32, device=y.device)
    # BUG: zero_fill[(triton.cdiv(m, 1024),)](y, m, BLOCK=1024) is missing
    lanes = 256
    chunk_rows[(triton.cdiv(chunks + 1, lanes),)](rowptr, first, m, chunks, m.bit_length(), B=B, LANES=lanes)
    spmv_chunks[(chunks,)](rowptr, col, val, x, y, first, nnz, B=B, T=T, num_warps=8)
