# expect: wrong_answer
# Bug: the k loop stops one short (hl.tile(k - 1)): the last column of a times the last row of
# b is never added (and with k = 1 nothing is).
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[64, 64, 32]), static_shapes=False)
def matmul_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    m, k = a.size()
    n = b.size(1)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k - 1):
            acc = torch.addmm(acc, a[tile_m, tile_k], b[tile_k, tile_n])
        c[tile_m, tile_n] = acc


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    matmul_kernel(a, b, c)
