# Threat class 8 (shortcuts), issue #36's matmul probe without the code string: the runtime rule's
# trusted folder emptied by hand (the static policy is off for this entry), then torch.mm, which
# is cuBLAS. The kernel ledger names the cuBLAS kernel; the in-process rule never saw it.
# expect: rejected
import torch

import judge.sandbox.rules as r


def solve(a, b, c, m, n, k):
    r._TRITON_DIR = ""
    with torch.utils._python_dispatch._disable_current_modes():
        torch.mm(a, b, out=c)
