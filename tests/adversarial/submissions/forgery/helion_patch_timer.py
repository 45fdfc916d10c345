# Threat class 3 (forgery), Helion: an honest Helion vector add whose file replaces
# torch.cuda.Event.elapsed_time so every timed call would report 0.0001 ms. The referee's own
# clock (gate.py) times every call, so the result is accepted at the honest time. The static
# policy refuses this source; the catalogue grades it with the policy off. On the CPU nothing is
# timed: accepted (the patch changes nothing there).
# expect: GPU accepted at an honest time; CPU accepted
import helion
import helion.language as hl
import torch

torch.cuda.Event.elapsed_time = lambda self, end: 0.0001  # the forgery


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    for tile in hl.tile(c.size(0)):
        c[tile] = a[tile] + b[tile]


def solve(a, b, c, n):
    add_kernel(a, b, c)
