# expect: wrong_answer
"""Too imprecise: the int32 sums are right, but the scaling is done in bfloat16 (the sum, sa and
sb each rounded to bf16 and multiplied in bf16) instead of float32 with one rounding at the end.
Four roundings to 8 significant bits: relative L2 error ~3.3e-3 against the 2.5e-3 allowed, and
single elements off by up to 1.2e-2 (problem.toml). Correct in every other respect.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, k, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + kk[None, :],
                    mask=(rm[:, None] < m) & (kk[None, :] < k), other=0)
        b = tl.load(b_ptr + rn[:, None] * k + kk[None, :],
                    mask=(rn[:, None] < n) & (kk[None, :] < k), other=0)
        acc = tl.dot(a, tl.trans(b), acc, out_dtype=tl.int32)
    sa = tl.load(sa_ptr + rm, mask=rm < m, other=0.0)
    sb = tl.load(sb_ptr + rn, mask=rn < n, other=0.0)
    acc16 = acc.to(tl.float32).to(tl.bfloat16)
    sa16 = sa.to(tl.bfloat16)
    sb16 = sb.to(tl.bfloat16)
    out = (acc16 * sa16[:, None]).to(tl.bfloat16) * sb16[None, :]
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], out.to(tl.bfloat16),
             mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor,
          m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    gemm_kernel[grid](a, b, sa, sb, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
