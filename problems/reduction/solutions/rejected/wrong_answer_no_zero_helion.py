# expect: wrong_answer
# Bug: out[0] is never zeroed, so the atomic adds land on the NaN the judge fills outputs with.
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[4096]), static_shapes=False)
def sum_kernel(x: torch.Tensor, out: torch.Tensor) -> None:
    for tile in hl.tile(x.size(0)):
        hl.atomic_add(out, [0], torch.sum(x[tile]))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    sum_kernel(x, out)
