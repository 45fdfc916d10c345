# expect: wrong_answer
# Bug: scans a float32 copy of x "because GPUs are built for floats". float32 holds integers
# exactly only up to 2^24 = 16,777,216: once a running sum passes it, sums are rounded to an
# even number (then to multiples of 4, 8...), and the exact check fails.
import torch


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    y.copy_(torch.cumsum(x.float(), dim=0))
