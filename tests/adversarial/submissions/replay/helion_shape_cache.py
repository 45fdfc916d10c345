# Threat class 1 (replay), Helion: the output is kept per n (copied by a second Helion kernel)
# and copied back into c on the next call of the same size instead of adding. The judge gives
# every call fresh inputs and checks every output: the replayed c is wrong for them.
# expect: wrong_answer
import helion
import helion.language as hl
import torch

_cache = {}


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    for tile in hl.tile(c.size(0)):
        c[tile] = a[tile] + b[tile]


@helion.kernel(config=helion.Config(block_sizes=[1024]), static_shapes=False)
def copy_kernel(src: torch.Tensor, dst: torch.Tensor) -> None:
    for tile in hl.tile(dst.size(0)):
        dst[tile] = src[tile]


def solve(a, b, c, n):
    if n in _cache:
        copy_kernel(_cache[n], c)  # replay: no addition at all
        return
    add_kernel(a, b, c)
    saved = torch.empty_like(c)
    copy_kernel(c, saved)
    _cache[n] = saved
