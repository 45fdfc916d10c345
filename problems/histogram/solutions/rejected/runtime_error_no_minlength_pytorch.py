# expect: runtime_error
# Bug: torch.bincount without minlength=256 returns max(data) + 1 bins, not 256: whenever the
# largest byte is below 255 the result is shorter than bins and copy_ cannot broadcast it.
import torch


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    bins.copy_(torch.bincount(data))
