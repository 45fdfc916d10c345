# expect: wrong_answer
# expect-message: 3 x 7, ties to even
# Bug: one scale for the whole tensor (x.abs().amax() over every element: per-tensor
# quantization), written to every row's scale. Right only when every row has the same amax;
# per-token scales exist because they do not.
import torch


def solve(x: torch.Tensor, q: torch.Tensor, scales: torch.Tensor, tokens: int, hidden: int):
    s = x.abs().amax().to(torch.float32).clamp_min(1e-12) / 448.0
    q.copy_((x.to(torch.float32) / s).to(torch.float8_e4m3fn))
    scales.fill_(s)
