# Threat class 6 (detection), PyTorch: honest for the first three calls (what a quick
# correctness test makes), then c = a only. The judge checks every call's output, tests and
# timed runs alike.
# expect: wrong_answer
import torch

_calls = [0]


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    _calls[0] += 1
    if _calls[0] <= 3:
        torch.add(a, b, out=c)
    else:
        c.copy_(a)
