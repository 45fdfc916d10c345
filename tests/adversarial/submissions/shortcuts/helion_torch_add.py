# Threat class 8 (shortcuts), Helion: the kernel's host code (outside its hl.tile loop) does
# the work with torch.add on the judge's tensors; the device loop only copies. Helion runs host
# code as plain torch, so it is the library computing. The Helion rule refuses it before it runs
# (helion_rules.py) (graded past it here); the library rule refuses torch's 'add' inside solve (on
# the CPU) and the kernel ledger sees torch's add kernel launched (on a GPU).
# expect: rejected
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    total = torch.add(a, b)
    for tile in hl.tile(c.size(0)):
        c[tile] = total[tile]


def solve(a, b, c, n):
    add_kernel(a, b, c)
