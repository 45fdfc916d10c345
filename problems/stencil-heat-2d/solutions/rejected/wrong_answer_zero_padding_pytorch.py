# expect: wrong_answer
# Bug: each step as a 3 x 3 convolution with zero padding over the whole grid ("the heat
# equation is a convolution"). It updates the boundary too, as if the grid were surrounded by
# zeros: the boundary must keep its values (here they lose heat to the outside), and the
# interior next to it is wrong from then on.
import torch
import torch.nn.functional as F


def solve(u: torch.Tensor, out: torch.Tensor, h: int, w: int, steps: int):
    k = torch.tensor([[0.0, 0.2, 0.0], [0.2, 0.2, 0.2], [0.0, 0.2, 0.0]], device=u.device)
    g = u.view(1, 1, h, w)
    for _ in range(steps):
        g = F.conv2d(g, k.view(1, 1, 3, 3), padding=1)  # BUG: the boundary is updated
    out.copy_(g.view(h, w))
