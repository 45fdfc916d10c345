# expect: wrong_answer
# expect-message: dlogits
# Bug: the gradient of the summed loss, softmax - onehot, while the loss is the mean over the
# b rows: every dlogit is b times too large. Right only for b = 1. The loss itself is right.
import torch


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, dlogits: torch.Tensor, b: int, v: int):
    logp = torch.log_softmax(logits, dim=1)
    picked = logp.gather(1, labels.long()[:, None])
    torch.neg(picked.mean(), out=loss[0])
    grad = torch.exp(logp)
    grad.scatter_add_(1, labels.long()[:, None], torch.full_like(picked, -1.0))
    dlogits.copy_(grad)
