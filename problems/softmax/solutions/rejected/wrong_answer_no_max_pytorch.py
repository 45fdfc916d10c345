# expect: wrong_answer
# Bug: the textbook formula exp(x) / sum(exp(x)) without subtracting the row's maximum. On rows
# around +100, exp overflows float32 to inf and inf / inf is NaN; around -100 it underflows.
import torch


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    e = torch.exp(x)
    torch.div(e, e.sum(dim=1, keepdim=True), out=y)
