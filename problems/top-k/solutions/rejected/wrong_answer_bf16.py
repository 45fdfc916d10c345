# expect: wrong_answer
# Bug: values are compared after rounding to bfloat16 (to pack value and index into one 32-bit
# word: 16 bits of value, 16 of column). bfloat16 keeps 8 bits of mantissa, so values within
# ~0.4% of each other compare equal and the lower column wins the "tie": on the "close" rows
# (1 + 1e-3·N(0, 1)) the selection is nearly arbitrary. The values stored are the float32
# originals, so each is a real element of the row, just not the right one, or not in order.
import torch
import triton
import triton.language as tl

NONE = tl.constexpr(2147483647)


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
            x = x.to(tl.bfloat16).to(tl.float32)  # the shortened comparison key
            eligible = (offs < v) & ((x < prev_v) | ((x == prev_v) & (offs > prev_i)))
            take = eligible & ((x > best_v) | (best_i == NONE))
            best_v = tl.where(take, x, best_v)
            best_i = tl.where(take, offs, best_i)
        top = tl.max(tl.where(best_i == NONE, float("-inf"), best_v), axis=0)
        first = tl.min(tl.where((best_v == top) & (best_i != NONE), best_i, NONE), axis=0)
        tl.store(vals_ptr + row * k + t, tl.load(base + first))
        tl.store(idx_ptr + row * k + t, first)
        prev_v = top
        prev_i = first


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    topk_kernel[(b,)](x, vals, idx, v, k, BLOCK=min(2048, triton.next_power_of_2(v)))
