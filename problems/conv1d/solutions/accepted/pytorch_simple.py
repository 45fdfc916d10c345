"""1-D correlation on the framework track: F.conv1d on one batch and one channel (it computes
the correlation, no flip), copied into y. On a GPU, cuDNN may run float32 convolutions in
TF32 (10 bits of mantissa), far beyond the tolerance: the flags switch it off for the call."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        y.copy_(F.conv1d(x.view(1, 1, n), w.view(1, 1, k)).view(n - k + 1))
