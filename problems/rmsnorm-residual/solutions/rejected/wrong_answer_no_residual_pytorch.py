# expect: wrong_answer
# Bug: a skipped step. res_out = x + res is written correctly, but the norm is taken of x, the
# sublayer's output, instead of the new residual stream h = x + res. In a model the next
# sublayer would see the wrong input while the residual looks right. The fix:
# F.rms_norm(res_out, ...).
import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    torch.add(x, res, out=res_out)
    y.copy_(F.rms_norm(x, (n,), w, 1e-6))
