# Threat class 8 (shortcuts), Helion: solve computes c with torch.add and calls its Helion kernel
# only on a scratch copy, so the library's kernel does the work. The Helion rule
# (helion_rules.py) refuses torch compute outside a kernel's device loops before anything runs.
# expect: rejected
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def copy_kernel(src: torch.Tensor, dst: torch.Tensor) -> None:
    for tile in hl.tile(dst.size(0)):
        dst[tile] = src[tile]


def solve(a, b, c, n):
    torch.add(a, b, out=c)
    copy_kernel(c, torch.empty_like(c))
