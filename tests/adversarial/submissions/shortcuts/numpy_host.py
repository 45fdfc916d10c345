# Threat class 8 (shortcuts), around the torch rule: on the CPU the tensors can be viewed as
# NumPy arrays (no torch operator runs), and NumPy does the addition. On a GPU it would need a
# device-to-host copy, which is a torch operator and refused. On the CPU interpreter this
# bypasses the in-process torch rule (see SECURITY.md: CPU grading is for correctness only).
# expect: rejected
import numpy as np


def solve(a, b, c, n):
    if a.is_cuda:
        c.copy_(a.cpu() + b.cpu())  # refused: copy and add are torch operators
        return
    np.add(a.numpy(), b.numpy(), out=c.numpy())
