# expect: wrong_answer
"""Bug: the query head -> kv head map is h % hkv instead of h // (hq // hkv). Consecutive query
heads share a kv head in grouped-query attention (heads 0-3 read kv head 0 when hq = 4 * hkv);
the modulo interleaves them instead. Right only when hq == hkv or hkv == 1.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, hq, hkv, s, qk_scale, D: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)  # batch * hq + query head
    batch = bh // hq
    kvh = batch * hkv + (bh % hq) % hkv
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + bh * s * D + rm[:, None] * D + rd[None, :], mask=rm[:, None] < s, other=0.0)
    k_base = k_ptr + kvh * s * D
    v_base = v_ptr + kvh * s * D
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    end = tl.minimum((pid_m + 1) * BLOCK_M, s)  # causal: no key beyond the last query row
    for n0 in range(0, end, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        k = tl.load(k_base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < s, other=0.0)
        v = tl.load(v_base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < s, other=0.0)
        scores = tl.dot(q, tl.trans(k)) * qk_scale  # log2 units: exp2 below
        keep = (rn[None, :] <= rm[:, None]) & (rn[None, :] < s)
        scores = tl.where(keep, scores, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(scores, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(scores - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + bh * s * D + rm[:, None] * D + rd[None, :], out.to(tl.bfloat16),
             mask=rm[:, None] < s)


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, hq: int,
          hkv: int, s: int, d: int):
    block_m, block_n = 64, 32
    grid = (triton.cdiv(s, block_m), b * hq)
    attn_kernel[grid](q, k, v, o, hq, hkv, s, (1.0 / math.sqrt(d)) * 1.4426950408889634, D=d,
                      BLOCK_M=block_m, BLOCK_N=block_n)
