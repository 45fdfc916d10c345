# expect: wrong_answer
# expect-message: c: wrote past the end
"""Bug: the store of the c tile has no mask. The loads are masked (so the sums are right), but
rows past m are written after the end of c, and columns past n spill into the next row (and,
from the last row, past the end). Right only when m and n are multiples of 64.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + kk[None, :],
                    mask=(rm[:, None] < m) & (kk[None, :] < k), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * n + rn[None, :],
                    mask=(kk[:, None] < k) & (rn[None, :] < n), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.bfloat16))  # no mask


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    gemm_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
