"""Attention with an online softmax: one program per (batch * head, block of 32 queries).

The program keeps its 32 query rows in registers and walks over the keys 32 at a time:
scores = q k^T / sqrt(d) (tl.dot on fp16, fp32 accumulation), then the online-softmax update
(running max m, running sum l, rescale the output accumulator by exp(m_old - m_new)), then
acc += P V with P cast to fp16. Keys past s get score -inf, so they get weight 0.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, s, sm_scale, D: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    bh = tl.program_id(1).to(tl.int64)
    base = bh * s * D
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
        scores = tl.dot(q, tl.trans(k)) * sm_scale
        scores = tl.where(kmask[None, :], scores, float("-inf"))
        m_new = tl.maximum(m, tl.max(scores, axis=1))
        p = tl.exp(scores - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new

    out = acc / l[:, None]
    tl.store(o_ptr + base + rows[:, None] * D + cols[None, :], out.to(tl.float16), mask=rows[:, None] < s)


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    BLOCK = 32
    grid = (triton.cdiv(s, BLOCK), b * h)
    attn_kernel[grid](q, k, v, o, s, 1.0 / math.sqrt(d), D=d, BLOCK_M=BLOCK, BLOCK_N=BLOCK)
