"""RMSNorm with residual on the framework track: the residual add into res_out, then
F.rms_norm over it in float32 (the eager pair: the sum makes a round trip through memory), with
one rounding to bf16 at the copy into y."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    torch.add(x, res, out=res_out)
    y.copy_(F.rms_norm(res_out.float(), (n,), w.float(), 1e-6))
