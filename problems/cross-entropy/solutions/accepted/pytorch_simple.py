"""Cross-entropy on the framework track: torch.logsumexp of each row (the row maximum
subtracted) minus the labelled logit, in float32, then the mean over rows, copied into loss.

F.cross_entropy(logits.float(), ...) is the obvious call, but on the CPU its log-softmax loses
the "confident" rows' loss (a sum of ~10^5 terms e^-18 next to the label's 1), off by ~1%:
logsumexp keeps it to float32's precision."""

import torch


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    x = logits.float()
    picked = x.gather(1, labels.long()[:, None]).squeeze(1)
    loss.copy_((torch.logsumexp(x, dim=1) - picked).mean().reshape(1))
