# expect: wrong_answer
# Bug: uses the coefficients torchvision's rgb_to_grayscale uses (0.2989, 0.587, 0.114)
# instead of the problem's 0.299: red is weighed 3e-4 too light, up to 33 times the tolerance.
import torch


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    luma = 0.2989 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    torch.div(luma, 255.0, out=y)
