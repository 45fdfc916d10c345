# expect: wrong_answer
# Bug: convolves float16 copies of x and f "for the tensor cores". float16 keeps 11 bits of
# mantissa: inputs, products and the result are each rounded to ~5e-4 relative, 50 times the
# tolerance.
import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    y.copy_(
        F.conv2d(x.half().view(1, 1, h, w), f.half().view(1, 1, r, r), padding=r // 2).view(h, w)
    )
