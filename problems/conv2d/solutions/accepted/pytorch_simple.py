"""2-D correlation on the framework track: F.conv2d on one batch and one channel with r // 2
zeros of padding on each side (the output keeps x's size), copied into y. On a GPU, cuDNN may
run float32 convolutions in TF32 (10 bits of mantissa), far beyond the tolerance: the flags
switch it off for the call."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        y.copy_(F.conv2d(x.view(1, 1, h, w), f.view(1, 1, r, r), padding=r // 2).view(h, w))
