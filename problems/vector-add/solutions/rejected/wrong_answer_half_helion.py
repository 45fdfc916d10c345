# expect: wrong_answer
# Bug: the sum is computed in float16: about 3 significant digits instead of 7, and the
# wide-range case overflows float16's 65504 to inf.
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    for tile in hl.tile(c.size(0)):
        c[tile] = (a[tile].to(torch.float16) + b[tile].to(torch.float16)).to(torch.float32)


def solve(a, b, c, n):
    add_kernel(a, b, c)
