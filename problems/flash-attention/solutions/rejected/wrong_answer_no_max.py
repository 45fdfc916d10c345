# expect: wrong_answer
"""Bug: a two-pass softmax that skips the max subtraction: l = sum_j exp(score_j), then
o = sum_j exp(score_j) v_j / l. Mathematically the same, and it even passes the tests whose
scores stay below ~88; but exp() overflows float32 above 88.7, and the "large scores" test
(score standard deviation 40) produces inf / inf = NaN. Subtracting the running max, as the
online softmax does, is what keeps every exponent <= 0."""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, s, sm_scale, D: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    base = tl.program_id(1).to(tl.int64) * s * D
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, D)
    q = tl.load(q_ptr + base + rows[:, None] * D + cols[None, :], mask=rows[:, None] < s, other=0.0)
    l = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for n0 in range(0, s, BLOCK_N):
        keys = n0 + tl.arange(0, BLOCK_N)
        kmask = keys < s
        k = tl.load(k_ptr + base + keys[:, None] * D + cols[None, :], mask=kmask[:, None], other=0.0)
        v = tl.load(v_ptr + base + keys[:, None] * D + cols[None, :], mask=kmask[:, None], other=0.0)
        scores = tl.dot(q, tl.trans(k)) * sm_scale
        p = tl.where(kmask[None, :], tl.exp(scores), 0.0)  # BUG: exp(score) without "- max"
        l += tl.sum(p, axis=1)
        acc += tl.dot(p, v.to(tl.float32))
    tl.store(o_ptr + base + rows[:, None] * D + cols[None, :], (acc / l[:, None]).to(tl.float16),
             mask=rows[:, None] < s)


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    grid = (triton.cdiv(s, 32), b * h)
    attn_kernel[grid](q, k, v, o, s, 1.0 / math.sqrt(d), D=d, BLOCK_M=32, BLOCK_N=32)
