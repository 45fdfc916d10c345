"""Block-scaled fp8 GEMM, one program per BLOCK_M x BLOCK_N tile of c: for each 128-wide k block,
the fp8 tiles' product on the tensor cores (tl.dot of e4m3 tiles, a float32 result), multiplied
by the block's scales and added to a float32 accumulator; c rounded to bf16 once.

The k step is the scale block (128), so each partial sum has one sa per row and one sb per
column: sa[row, t] and sb[col // 128, t]. Loads past the edges read 0 (the last k block may be
partial), the scales and the store are masked.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, SCALE_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, SCALE_K)
    kb = tl.cdiv(k, SCALE_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for t in range(0, kb):
        kk = t * SCALE_K + rk
        a = tl.load(a_ptr + rm[:, None] * k + kk[None, :],
                    mask=(rm[:, None] < m) & (kk[None, :] < k), other=0.0)
        b = tl.load(b_ptr + rn[:, None] * k + kk[None, :],
                    mask=(rn[:, None] < n) & (kk[None, :] < k), other=0.0)
        part = tl.dot(a, tl.trans(b))
        sa = tl.load(sa_ptr + rm * kb + t, mask=rm < m, other=0.0)
        sb = tl.load(sb_ptr + (rn // SCALE_K) * kb + t, mask=rn < n, other=0.0)
        acc += part * sa[:, None] * sb[None, :]
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor,
          m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    gemm_kernel[grid](a, b, sa, sb, c, m, n, k, BLOCK_M=64, BLOCK_N=64, SCALE_K=128)
