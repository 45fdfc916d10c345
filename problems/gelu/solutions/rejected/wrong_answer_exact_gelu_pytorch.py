# expect: wrong_answer
# Bug: calls F.gelu with its default, approximate="none": the exact GELU x · Φ(x) with erf,
# not the tanh approximation the problem asks for. The two differ by up to 1.8e-4 of |x|, 18
# times the tolerance.
import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    y.copy_(F.gelu(x))
