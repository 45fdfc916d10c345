# Threat class 8 (shortcuts), removing the rule: the torch rule is a TorchDispatchMode in the
# submission's own process, so the submission can step out of it and call torch.add.
# SECURITY.md lists this as not defended (the rule is a guard rail for honest learners, not a
# security boundary). The expectation states what a sound judge should do.
# expect: rejected
import torch
from torch.utils._python_dispatch import _disable_current_modes


def solve(a, b, c, n):
    with _disable_current_modes():
        torch.add(a, b, out=c)
