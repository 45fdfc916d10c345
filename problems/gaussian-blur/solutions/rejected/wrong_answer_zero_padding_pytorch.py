# expect: wrong_answer
# Bug: F.conv2d's own padding, which pads with zeros, instead of replicating the edge: the
# border pixels lose the weight of every tap that falls outside the image.
import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    radius = r // 2
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        t = F.conv2d(x.view(1, 1, h, w), g.view(1, 1, 1, r), padding=(0, radius))  # BUG
        y.copy_(F.conv2d(t, g.view(1, 1, r, 1), padding=(radius, 0)).view(h, w))
