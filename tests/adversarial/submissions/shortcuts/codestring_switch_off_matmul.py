# Threat class 8 (shortcuts), the #36 probe on matmul: a code string run by timeit switches the
# kernel-track rule off, then torch.mm (cuBLAS) computes c and would rank as a Triton matmul.
# expect: rejected
import timeit

import torch


def solve(a, b, c, m, n, k):
    timeit.timeit(stmt="import judge.sandbox.rules as r; r._TRITON_DIR = ''", number=1)
    torch.mm(a, b, out=c)
