"""Softmax on the framework track with torch.compile: the row max, the exponentials, the sum and
the division are fused by the compiler into one kernel per row block (on a GPU, a Triton kernel
that Inductor writes), instead of torch.softmax's kernel plus the copy into y. The compiling
happens in the first, untimed calls and counts against the compile limit; dynamic=True compiles
one kernel for every size instead of one per size."""

import torch


@torch.compile(dynamic=True)
def _softmax(x: torch.Tensor) -> torch.Tensor:
    m = x.amax(dim=1, keepdim=True)
    e = torch.exp(x - m)
    return e / e.sum(dim=1, keepdim=True)


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(_softmax(x))
