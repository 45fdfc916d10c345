# Threat class 8 (shortcuts), Triton: let CuPy do the work. CuPy reads torch's CUDA tensors
# through __cuda_array_interface__ and writes into the output with its own kernels: no torch
# operator runs, so torch's library rule never sees it, and no Triton kernel is written at all.
# The static policy's import rule refuses the package before anything runs.
# expect: rejected
import cupy as cp
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int) -> None:
    cp.add(cp.asarray(a), cp.asarray(b), out=cp.asarray(c))
