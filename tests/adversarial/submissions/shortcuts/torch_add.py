# Threat class 8 (shortcuts): let PyTorch do the work (torch.add into the output) instead of
# writing a kernel. The problem forbids library compute; the runner's dispatch-mode rule
# refuses the operator.
# expect: rejected
import torch


def solve(a, b, c, n):
    torch.add(a, b, out=c)
