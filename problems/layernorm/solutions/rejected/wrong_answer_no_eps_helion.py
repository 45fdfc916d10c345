# expect: wrong_answer
# Bug: no eps in the square root: a row whose values are all equal (n = 1) has variance 0,
# rsqrt(0) = inf, and 0 * inf = NaN where beta was expected.
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[2, 1024, 1024, 1024]), static_shapes=False)
def layernorm_kernel(
    x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor
) -> None:
    m, n = x.size()
    for tile_m in hl.tile(m):
        total = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            total = total + torch.sum(x[tile_m, tile_n].to(torch.float32), dim=1)
        mean = total / n
        squares = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            d = x[tile_m, tile_n].to(torch.float32) - mean[:, None]
            squares = squares + torch.sum(d * d, dim=1)
        rstd = torch.rsqrt(squares / n)
        for tile_n in hl.tile(n):
            d = x[tile_m, tile_n].to(torch.float32) - mean[:, None]
            scale = gamma[tile_n].to(torch.float32)
            shift = beta[tile_n].to(torch.float32)
            y[tile_m, tile_n] = (d * rstd[:, None] * scale[None, :] + shift[None, :]).to(y.dtype)


def solve(x, gamma, beta, y, m: int, n: int):
    layernorm_kernel(x, gamma, beta, y)
