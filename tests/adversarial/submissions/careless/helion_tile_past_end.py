# Threat class 12 (careless memory bug), Helion: the tile loop runs over n + 1 elements instead
# of c.size(0). Helion masks each tile against the loop's own extent, not the tensor's, so the
# last tile stores c[n], one element past the end of c, though every value inside c is right.
# The judge's guard band after c (guards.py) sees it on the CPU interpreter and on a GPU.
# expect: wrong_answer (c: wrote past the end)
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int) -> None:
    for tile in hl.tile(n + 1):
        c[tile] = a[tile] + b[tile]


def solve(a, b, c, n):
    add_kernel(a, b, c, n)
