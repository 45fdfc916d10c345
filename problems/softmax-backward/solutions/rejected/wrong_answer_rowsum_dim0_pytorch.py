# expect: wrong_answer
# Bug: the sum of dy·y taken down the columns (dim=0) instead of along each row: the same shape
# after keepdim broadcasting, so nothing complains, but every row subtracts the wrong number.
import torch


def solve(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int):
    s = (dy * y).sum(dim=0, keepdim=True)
    torch.mul(y, dy - s, out=dx)
