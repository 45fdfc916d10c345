# expect: wrong_answer
# Bug: the causal mask is applied by multiplying the scores by a lower-triangular matrix of
# ones. The future columns get the score 0, not -inf, and exp(0 - max) is not 0: they take a
# share of every row's weight, and their outputs are not 0. Only s = 1 (no future column)
# passes. The fix: masked_fill(above, -inf) before the softmax.
import torch


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    keep = torch.ones((s, s), device=x.device).tril()
    z = x.float() * scale * keep
    y.copy_(torch.softmax(z, dim=-1))
