# expect: wrong_answer
# expect-message: of equal values the lower index comes first
# Bug: ties are broken toward the higher index. Each lane keeps the last of equal values
# (x >= best instead of x > best), the merge takes the largest column among lanes holding the
# maximum, and the next round's eligibility follows that order. The values come out right,
# and without ties so do the indices; on rows of small integers every tie goes the wrong way.
import torch
import triton
import triton.language as tl


@triton.jit
def topk_kernel(x_ptr, vals_ptr, idx_ptr, v, k, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * v
    cols = tl.arange(0, BLOCK)
    prev_v = float("inf")
    prev_i = 2147483647
    for t in range(k):
        best_v = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
        best_i = tl.full([BLOCK], -1, dtype=tl.int32)
        for start in range(0, v, BLOCK):
            offs = start + cols
            x = tl.load(base + offs, mask=offs < v, other=float("-inf"))
            eligible = (offs < v) & ((x < prev_v) | ((x == prev_v) & (offs < prev_i)))
            take = eligible & ((x >= best_v) | (best_i == -1))
            best_v = tl.where(take, x, best_v)
            best_i = tl.where(take, offs, best_i)
        top = tl.max(tl.where(best_i == -1, float("-inf"), best_v), axis=0)
        last = tl.max(tl.where((best_v == top) & (best_i != -1), best_i, -1), axis=0)
        tl.store(vals_ptr + row * k + t, top)
        tl.store(idx_ptr + row * k + t, last)
        prev_v = top
        prev_i = last


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    topk_kernel[(b,)](x, vals, idx, v, k, BLOCK=min(2048, triton.next_power_of_2(v)))
