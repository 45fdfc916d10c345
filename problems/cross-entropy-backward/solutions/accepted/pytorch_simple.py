"""Cross-entropy forward and backward on the framework track: log-softmax of the rows once,
the loss as the mean of the negated label entries, and the gradient exp(log p) minus the
one-hot of the labels, divided by b, written straight into dlogits."""

import torch


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, dlogits: torch.Tensor, b: int, v: int):
    logp = torch.log_softmax(logits, dim=1)
    picked = logp.gather(1, labels.long()[:, None])
    torch.neg(picked.mean(), out=loss[0])
    grad = torch.exp(logp)
    grad.scatter_add_(1, labels.long()[:, None], torch.full_like(picked, -1.0))
    torch.div(grad, b, out=dlogits)
