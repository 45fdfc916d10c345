# Threat class 8 (shortcuts) on softmax: torch.softmax into the output.
# expect: rejected
import torch


def solve(x, y, rows, cols):
    y.copy_(torch.softmax(x, dim=-1))
