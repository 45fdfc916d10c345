# expect: wrong_answer
"""Too imprecise: casts the float32 tiles to bfloat16 before tl.dot to use the faster bf16
tensor cores. bf16 keeps 8 significant bits (TF32 keeps 11), so the result is ~8x less
accurate than TF32: relative L2 error ~2e-3 against the 1.2e-3 the problem allows.
Correct in every other respect (masks, tiling), so it must fail on precision alone.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + ka[None, :],
                    mask=(rm[:, None] < m) & (ka[None, :] < k), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * n + rn[None, :],
                    mask=(ka[:, None] < k) & (rn[None, :] < n), other=0.0)
        acc += tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16))  # BUG: bf16 operands
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
