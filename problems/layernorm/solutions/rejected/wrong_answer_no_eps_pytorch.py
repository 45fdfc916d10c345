# expect: wrong_answer
# Bug: a skipped step, in a LayerNorm written out by hand (float32 statistics, the biased
# variance). It divides by sqrt(var) and leaves eps out. On ordinary rows (variance ~1) eps =
# 1e-5 changes nothing visible; on the "small" rows (0.003·N(0, 1), variance ~9e-6,
# comparable to eps) the outputs come out ~1.5x too large, and a row of one value (variance
# 0, the 1 x 1 case) is 0 · inf = NaN. The fix: torch.rsqrt(var + eps).
import torch


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    xf = x.float()
    mean = xf.mean(dim=1, keepdim=True)
    var = (xf - mean).square().mean(dim=1, keepdim=True)
    y.copy_((xf - mean) * torch.rsqrt(var) * gamma.float() + beta.float())
