# expect: wrong_answer
# expect-message: dgamma
# Bug: dgamma = sum dy·x, the gradient of y = x·gamma, forgetting that the forward multiplied
# gamma by the normalised x̂ = (x - mean)·rstd, not by x. dx and dbeta are right.
import torch


def solve(
    x: torch.Tensor,
    dy: torch.Tensor,
    gamma: torch.Tensor,
    mean: torch.Tensor,
    rstd: torch.Tensor,
    dx: torch.Tensor,
    dgamma: torch.Tensor,
    dbeta: torch.Tensor,
    m: int,
    n: int,
):
    rs = rstd[:, None]
    xhat = (x - mean[:, None]) * rs
    g = dy * gamma
    a = g.mean(dim=1, keepdim=True)
    b = (g * xhat).mean(dim=1, keepdim=True)
    torch.mul(rs, g - a - xhat * b, out=dx)
    torch.sum(dy * x, dim=0, out=dgamma)
    torch.sum(dy, dim=0, out=dbeta)
