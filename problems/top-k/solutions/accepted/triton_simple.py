"""Top-k, the straightforward way: k rounds of argmax, one program per row.

Round t finds the largest element that comes after round t-1's answer in the order "larger
value first, then lower index": an element is still eligible if x < v_prev, or x == v_prev
and its column is past i_prev. Each lane keeps the first eligible maximum it meets (chunks
go left to right), and the merge takes the smallest column among the lanes holding the
maximum, so equal values come out lowest index first, as the problem asks. k passes over the
row: simple and exact, but it reads x k times."""

import torch
import triton
import triton.language as tl

NONE = tl.constexpr(2147483647)  # "no column yet": larger than every real one


@triton.jit
def topk_kernel(x_ptr, vals_ptr, idx_ptr, v, k, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * v
    cols = tl.arange(0, BLOCK)
    prev_v = float("inf")
    prev_i = -1
    for t in range(k):
        best_v = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
        best_i = tl.full([BLOCK], NONE, dtype=tl.int32)
        for start in range(0, v, BLOCK):
            offs = start + cols
            x = tl.load(base + offs, mask=offs < v, other=float("-inf"))
            eligible = (offs < v) & ((x < prev_v) | ((x == prev_v) & (offs > prev_i)))
            take = eligible & ((x > best_v) | (best_i == NONE))
            best_v = tl.where(take, x, best_v)
            best_i = tl.where(take, offs, best_i)
        top = tl.max(tl.where(best_i == NONE, float("-inf"), best_v), axis=0)
        first = tl.min(tl.where((best_v == top) & (best_i != NONE), best_i, NONE), axis=0)
        tl.store(vals_ptr + row * k + t, top)
        tl.store(idx_ptr + row * k + t, first)
        prev_v = top
        prev_i = first


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    topk_kernel[(b,)](x, vals, idx, v, k, BLOCK=min(2048, triton.next_power_of_2(v)))
