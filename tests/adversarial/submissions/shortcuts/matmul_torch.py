# Threat class 8 (shortcuts) on matmul: torch.mm (cuBLAS on a GPU) into the output.
# expect: rejected
import torch


def solve(a, b, c, m, n, k):
    torch.mm(a, b, out=c)
