# expect: wrong_answer
# expect-message: o: wrote past the end
"""Bug: no query-row mask. Keys past s are masked (their scores are -inf, as the softmax
needs), but the program's BLOCK_M = 32 query rows are loaded and the O tile is stored whole,
also when the last query block of a head sticks out past row s. Rows past s of one head
are the first rows of the next head, so their outputs (those queries attended over the
wrong head's keys) overwrite the next head's o, racing with its own programs; the last
head stores its extra rows past the end of o. Right only when s is a multiple of 32. The
fix: mask=rows[:, None] < s on the q load and on the o store.
"""

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
    q = tl.load(q_ptr + base + rows[:, None] * D + cols[None, :])  # BUG: no row mask
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
    out = (acc / l[:, None]).to(tl.float16)
    tl.store(o_ptr + base + rows[:, None] * D + cols[None, :], out)  # BUG: no mask=rows < s


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    BLOCK = 32
    grid = (triton.cdiv(s, BLOCK), b * h)
    attn_kernel[grid](q, k, v, o, s, 1.0 / math.sqrt(d), D=d, BLOCK_M=BLOCK, BLOCK_N=BLOCK)
