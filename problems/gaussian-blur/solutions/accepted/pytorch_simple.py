"""Separable blur on the framework track: the image padded by replicating its edge (the
clamp-to-edge border), then two 1-D convolutions, a row of r taps and a column of r taps. On a
GPU, cuDNN may run float32 convolutions in TF32 (10 bits of mantissa), far beyond the
tolerance: the flags switch it off for the call."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    radius = r // 2
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        t = F.pad(x.view(1, 1, h, w), (radius, radius, 0, 0), mode="replicate")
        t = F.conv2d(t, g.view(1, 1, 1, r))
        t = F.pad(t, (0, 0, radius, radius), mode="replicate")
        y.copy_(F.conv2d(t, g.view(1, 1, r, 1)).view(h, w))
