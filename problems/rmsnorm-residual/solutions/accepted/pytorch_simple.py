"""RMSNorm with residual on the framework track: the residual add into res_out, then
F.rms_norm over it (the eager pair: the sum makes a round trip through memory)."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    torch.add(x, res, out=res_out)
    y.copy_(F.rms_norm(res_out, (n,), w, 1e-6))
