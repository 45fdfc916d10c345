# expect: wrong_answer
# Bug: the attention formula without the 1/sqrt(d) scale (written out by hand, scale forgotten):
# the scores are sqrt(d) = 8 to 11 times too large and the softmax far too peaked.
import torch


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    scores = torch.matmul(q.float(), k.float().transpose(-1, -2))
    o.copy_(torch.matmul(torch.softmax(scores, dim=-1), v.float()))
