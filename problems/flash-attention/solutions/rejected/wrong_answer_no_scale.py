# expect: wrong_answer
"""Bug: forgets the 1/sqrt(d) scale. The scores are sqrt(d) = 8 (d = 64) to 11 (d = 128) times
too large, so the softmax is far too peaked: every test fails except s = 1, where a single key
gets weight 1 whatever its score."""

import torch
import triton
import triton.language as tl


@triton.jit
def attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, s, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    base = tl.program_id(1).to(tl.int64) * s * D
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, D)
    q = tl.load(q_ptr + base + rows[:, None] * D + cols[None, :], mask=rows[:, None] < s, other=0.0)
    m = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for n0 in range(0, s, BLOCK_N):
        keys = n0 + tl.arange(0, BLOCK_N)
        kmask = keys < s
        k = tl.load(k_ptr + base + keys[:, None] * D + cols[None, :], mask=kmask[:, None], other=0.0)
        v = tl.load(v_ptr + base + keys[:, None] * D + cols[None, :], mask=kmask[:, None], other=0.0)
        scores = tl.dot(q, tl.trans(k))  # BUG: should be multiplied by 1/sqrt(d)
        scores = tl.where(kmask[None, :], scores, float("-inf"))
        m_new = tl.maximum(m, tl.max(scores, axis=1))
        p = tl.exp(scores - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new
    tl.store(o_ptr + base + rows[:, None] * D + cols[None, :], (acc / l[:, None]).to(tl.float16),
             mask=rows[:, None] < s)


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    grid = (triton.cdiv(s, 32), b * h)
    attn_kernel[grid](q, k, v, o, s, D=d, BLOCK_M=32, BLOCK_N=32)
