# expect: wrong_answer
# Bug: reshapes x to n x m instead of transposing it. A reshape keeps the elements in their
# row-major order and only changes the shape, so y holds x's data read row after row: right
# only when m or n is 1.
import torch


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(x.reshape(n, m))
