# expect: wrong_answer
# Bug: drops what is "not positive" with ~(x <= 0) instead of keeping x > 0. The two differ
# for NaN: every comparison with NaN is false, so NaN <= 0 is false and NaN is kept.
import torch


def solve(x: torch.Tensor, out: torch.Tensor, count: torch.Tensor, n: int):
    kept = x[~(x <= 0)]
    out[: kept.numel()].copy_(kept)
    count.fill_(kept.numel())
