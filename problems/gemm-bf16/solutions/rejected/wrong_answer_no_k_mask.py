# expect: wrong_answer
"""Bug (a skipped step): the k loop loads whole BLOCK_K slices without checking k. Rows and
columns are masked, so nothing is written out of place, but when k is not a multiple of
BLOCK_K the last slice reads the start of the next row of a and rows of b past the end
(its guard band): those garbage products are summed into c. Right only when k % 32 == 0.
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
        a = tl.load(a_ptr + rm[:, None] * k + kk[None, :], mask=rm[:, None] < m, other=0.0)
        b = tl.load(b_ptr + kk[:, None] * n + rn[None, :], mask=rn[None, :] < n, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    gemm_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
