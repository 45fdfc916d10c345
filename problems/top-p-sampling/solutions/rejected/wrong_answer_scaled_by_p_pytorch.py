# expect: wrong_answer
# Bug: the draw scaled by p instead of by the nucleus' mass: t = u * p. The nucleus holds at
# least p (its last token takes the sum past p), so the draw never reaches the part of the
# last token's mass beyond p, and every draw lands a little earlier than it should. Right
# when the nucleus' mass is exactly p, which is rare.
import torch


def solve(probs: torch.Tensor, top_p: torch.Tensor, u: torch.Tensor, token: torch.Tensor, batch: int, vocab: int):
    sorted_p, order = torch.sort(probs, dim=1, descending=True, stable=True)
    c = torch.cumsum(sorted_p, dim=1)
    end = torch.searchsorted(c, top_p[:, None].contiguous(), right=False).clamp(max=vocab - 1)
    t = u[:, None] * top_p[:, None]  # BUG: the nucleus' mass is c[end], not p
    k = torch.minimum(torch.searchsorted(c, t.contiguous(), right=True), end)
    token.copy_(torch.gather(order, 1, k).squeeze(1))
