"""RGB to grayscale on the framework track: the weighted sum of the three channel views in
float32 (uint8 times a Python float is float32), copied into y."""

import torch


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    luma = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    torch.div(luma, 255.0, out=y)
