import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    # TODO: each program computes one BLOCK_M x BLOCK_N tile of c.
    # Hint: loop over k in steps of BLOCK_K, load a tile of a and a tile of b (mask the edges),
    # and accumulate tl.dot(a_tile, b_tile) in float32.
    pass


# a, b, c are contiguous float32 tensors on the GPU; a is m x k, b is k x n, c is m x n.
def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
