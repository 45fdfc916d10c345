# expect: wrong_answer
# Bug: flips the filter before F.conv1d "because a convolution flips its kernel". F.conv1d
# already computes the correlation the problem asks for: the flip makes it a true convolution,
# right only for filters that read the same both ways.
import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        y.copy_(F.conv1d(x.view(1, 1, n), w.flip(0).view(1, 1, k)).view(n - k + 1))
