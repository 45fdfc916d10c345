# expect: wrong_answer
# Bug: F.cross_entropy is called on the bf16 logits as they come, as a training loop does: the
# loss comes back as a bf16 scalar, rounded to 8 significant bits (up to 2^-9 = 2e-3
# relative), 200x the tolerance, before it is copied into the float32 loss. The fix: float32
# logits (the reduction's result keeps the input's dtype), a chunk of rows at a time, as the
# whole matrix in float32 is 2 GB (accepted/pytorch_simple.py).
import torch
import torch.nn.functional as F


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    loss.copy_(F.cross_entropy(logits, labels.long()).reshape(1))
