"""Matrix-vector product on the framework track: torch.mv on float32 copies of the bfloat16
inputs, straight into y. Every product of two bfloat16 numbers is exact in float32, and the
sums are float32's; the copies cost two extra passes over the bytes (the price of calling torch:
torch.mv on bfloat16 returns bfloat16, too coarse for the tolerance)."""

import torch


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    torch.mv(w.float(), x.float(), out=y)
