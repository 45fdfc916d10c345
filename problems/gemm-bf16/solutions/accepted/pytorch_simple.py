"""bf16 GEMM on the framework track: torch.matmul (cuBLAS on a GPU: bf16 tensor cores, float32
accumulation, bf16 output), written into c."""

import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    torch.matmul(a, b, out=c)
