# expect: wrong_answer
"""Too imprecise: the running sum is kept in bfloat16 between k-steps (each tl.dot still sums
its 32 products in fp32, then the partial result is rounded back to bf16, as a kernel that
accumulates in the output's type does). At k = 2500 the sum is rounded 79 times: relative L2
error ~1e-2 against the 2.5e-3 allowed (problem.toml). Correct in every other respect.
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
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.bfloat16)
    for k0 in range(0, k, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + kk[None, :],
                    mask=(rm[:, None] < m) & (kk[None, :] < k), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * n + rn[None, :],
                    mask=(kk[:, None] < k) & (rn[None, :] < n), other=0.0)
        acc = (acc.to(tl.float32) + tl.dot(a, b)).to(tl.bfloat16)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc,
             mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    gemm_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
