# expect: wrong_answer
# expect-message: tails: y:
# Bug: the activation in float16 on the framework track ("half precision, same size"). F.silu
# in float16 computes exp(-gate) past 65504 for gate < -11.1 and returns 0 there (or -0),
# where the answer is small but not zero; float16 also cannot hold the smallest outputs.
import torch
import torch.nn.functional as F


def solve(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(F.silu(gate.half()) * up.half())
