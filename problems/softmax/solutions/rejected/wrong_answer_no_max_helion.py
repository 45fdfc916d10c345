# expect: wrong_answer
# Bug: exp(x) without subtracting the row's maximum: large values overflow to inf and the row
# becomes inf / inf = NaN.
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[4, 1024, 1024]), static_shapes=False)
def softmax_kernel(x: torch.Tensor, y: torch.Tensor) -> None:
    rows, cols = x.size()
    for tile_m in hl.tile(rows):
        total = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(cols):
            total = total + torch.sum(torch.exp(x[tile_m, tile_n]), dim=1)
        for tile_n in hl.tile(cols):
            y[tile_m, tile_n] = torch.exp(x[tile_m, tile_n]) / total[:, None]


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel(x, y)
